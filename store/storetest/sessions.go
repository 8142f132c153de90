package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// sessions: an app session names its user and the token it signed in with; it ends when it is
// deleted, when it expires, and when that token is revoked, and only then.
func sessions(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	st := w.st
	mint := func(name string) (string, *store.Token) {
		t.Helper()
		tok, info, err := st.CreateToken(ctx, "owner@example.com", name)
		if err != nil {
			t.Fatal(err)
		}
		return tok, info
	}
	open1 := func(token string, ttl time.Duration) string {
		t.Helper()
		id, sess, err := st.CreateSession(ctx, token, ttl)
		if err != nil {
			t.Fatal(err)
		}
		if sess.User.ID != w.user || !sess.ExpiresAt.Equal(sess.CreatedAt.Add(ttl)) {
			t.Fatalf("created %+v", sess)
		}
		return id
	}
	live := func(id string) *store.Session {
		t.Helper()
		sess, err := st.FindSession(ctx, id)
		if err != nil {
			t.Fatalf("session %.6s…: %v", id, err)
		}
		return sess
	}
	gone := func(id string) {
		t.Helper()
		_, err := st.FindSession(ctx, id)
		wantCode(t, err, store.ENOTFOUND)
	}

	t.Run("FindNamesTheUserAndToken", func(t *testing.T) {
		tok, info := mint("browser")
		id := open1(tok, time.Hour)
		if len(id) < 40 {
			t.Fatalf("session id %q is too short to be unguessable", id)
		}
		sess := live(id)
		if sess.User.ID != w.user || sess.User.Email != "owner@example.com" || sess.User.DisplayName != w.owner.User.DisplayName ||
			sess.TokenID != info.ID || !sess.ExpiresAt.Equal(clock.Now().Add(time.Hour)) {
			t.Fatalf("found %+v (token %s)", sess, info.ID)
		}
		gone(id + "x")
		gone("")
		// Two sign-ins with one token are two sessions.
		if other := open1(tok, time.Hour); other == id {
			t.Fatal("two sessions share an id")
		}
	})
	t.Run("UnknownTokenOpensNothing", func(t *testing.T) {
		_, _, err := st.CreateSession(ctx, "gb_api_not-a-token", time.Hour)
		wantCode(t, err, store.ENOTFOUND)
		tok, _ := mint("zero")
		_, _, err = st.CreateSession(ctx, tok, 0)
		wantCode(t, err, store.EINVALID)
	})
	t.Run("DeleteEndsOnlyThatSession", func(t *testing.T) {
		tok, _ := mint("two tabs")
		a, b := open1(tok, time.Hour), open1(tok, time.Hour)
		if err := st.DeleteSession(ctx, a); err != nil {
			t.Fatal(err)
		}
		gone(a)
		live(b)
		if err := st.DeleteSession(ctx, a); err != nil {
			t.Fatalf("deleting a deleted session: %v", err)
		}
	})
	t.Run("RevokingTheTokenEndsItsSessions", func(t *testing.T) {
		tok, info := mint("revoked")
		keep, _ := mint("kept")
		a, b, other := open1(tok, time.Hour), open1(tok, time.Hour), open1(keep, time.Hour)
		if err := st.RevokeToken(ctx, info.ID); err != nil {
			t.Fatal(err)
		}
		gone(a)
		gone(b)
		live(other)
		_, _, err := st.CreateSession(ctx, tok, time.Hour)
		wantCode(t, err, store.ENOTFOUND)
	})
	t.Run("ExpiredSessionsAreGone", func(t *testing.T) {
		tok, _ := mint("expiring")
		short, long := open1(tok, time.Minute), open1(tok, 2*time.Hour)
		clock.advance(time.Minute - time.Microsecond)
		live(short)
		clock.advance(time.Microsecond)
		gone(short)
		live(long)
		// A later sign-in deletes the expired rows; live ones stay.
		open1(tok, time.Hour)
		gone(short)
		live(long)
		fresh := open1(tok, 3*time.Hour)
		clock.advance(2 * time.Hour)
		gone(long)
		// The purge deletes what expired (long, the sign-in's, the earlier subtests' hour-long
		// ones) and keeps what is live.
		if n, err := st.PurgeExpiredSessions(ctx); err != nil || n < 2 {
			t.Fatalf("purged %d expired sessions (%v), want at least 2", n, err)
		}
		if n, err := st.PurgeExpiredSessions(ctx); err != nil || n != 0 {
			t.Fatalf("purged %d again (%v)", n, err)
		}
		live(fresh)
	})
}
