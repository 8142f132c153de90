package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// invites: links made, listed, changed and used (not while the organization turns them off);
// invitations by email add known users at once, and are used once, by their address's user,
// before they expire; a refused join changes nothing.
func invites(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	known := MustOwner(t, w.st, "known@example.com").User
	stranger := MustOwner(t, w.st, "stranger@elsewhere.test").User
	role := func(u *store.User) (store.Role, bool) {
		t.Helper()
		m, err := w.st.FindMember(ctx, w.org, u.ID)
		if store.ErrorCode(err) == store.ENOTFOUND {
			return "", false
		}
		if err != nil {
			t.Fatal(err)
		}
		return m.Role, true
	}

	link, err := w.st.CreateInvite(ctx, w.org, w.user, store.RoleRead)
	if err != nil {
		t.Fatal(err)
	}
	if link, err = w.st.UpdateInvite(ctx, w.org, link.ID, store.RoleComment); err != nil || link.Role != store.RoleComment {
		t.Fatalf("updated link %+v, %v", link, err)
	}
	off := false
	if _, err := w.st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{InviteLinks: &off}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, w.st.JoinWithInvite(ctx, w.org, link.ID, stranger), store.EFORBIDDEN)
	if _, member := role(stranger); member {
		t.Fatal("a refused link made a member")
	}
	on := true
	if _, err := w.st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{InviteLinks: &on}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.JoinWithInvite(ctx, w.org, link.ID, stranger); err != nil {
		t.Fatal(err)
	}
	if r, _ := role(stranger); r != store.RoleComment {
		t.Fatalf("joined by link as %q, want comment", r)
	}

	done, err := w.st.InviteByEmail(ctx, w.org, w.user, []store.EmailInvite{
		{Email: "KNOWN@example.com", Role: store.RoleEdit},
		{Email: "new@example.com", Role: store.RoleGuest, SSO: true},
	}, 24*time.Hour)
	if err != nil || len(done.Added) != 1 || done.Added[0].ID != known.ID || len(done.Invites) != 1 {
		t.Fatalf("invite by email: %+v, %v", done, err)
	}
	if r, _ := role(known); r != store.RoleEdit {
		t.Fatalf("a known user was added as %q, want edit", r)
	}
	emailed := done.Invites[0]
	if emailed.ExpiresAt == nil || !emailed.ExpiresAt.Equal(clock.now.Add(24*time.Hour)) || !emailed.SSO {
		t.Fatalf("invitation %+v", emailed)
	}
	list, err := w.st.FindInvites(ctx, w.org, store.Page{})
	if err != nil || list.Count != 1 || list.Items[0].ID != link.ID {
		t.Fatalf("the links list %+v, %v", list, err)
	}
	_, err = w.st.FindInvite(ctx, w.org, emailed.ID)
	wantCode(t, err, store.ENOTFOUND)

	// Inviting an address again replaces its unused invitation.
	again, err := w.st.InviteByEmail(ctx, w.org, w.user, []store.EmailInvite{{Email: "new@example.com", Role: store.RoleRead}}, time.Hour)
	if err != nil || len(again.Invites) != 1 {
		t.Fatalf("inviting again: %+v, %v", again, err)
	}
	newcomer := MustOwner(t, w.st, "new@example.com").User
	wantCode(t, w.st.JoinWithInvite(ctx, w.org, emailed.ID, newcomer), store.ENOTFOUND)
	wantCode(t, w.st.JoinWithInvite(ctx, w.org, again.Invites[0].ID, known), store.EFORBIDDEN)
	if err := w.st.JoinWithInvite(ctx, w.org, again.Invites[0].ID, newcomer); err != nil {
		t.Fatal(err)
	}
	if m, err := w.st.FindMember(ctx, w.org, newcomer.ID); err != nil || m.Role != store.RoleRead {
		t.Fatalf("joined by email as %+v, %v", m, err)
	}
	wantCode(t, w.st.JoinWithInvite(ctx, w.org, again.Invites[0].ID, newcomer), store.ECONFLICT)

	late, err := w.st.InviteByEmail(ctx, w.org, w.user, []store.EmailInvite{{Email: "late@example.com", Role: store.RoleRead}}, time.Hour)
	if err != nil || len(late.Invites) != 1 {
		t.Fatalf("inviting: %+v, %v", late, err)
	}
	latecomer := MustOwner(t, w.st, "late@example.com").User
	clock.now = clock.now.Add(2 * time.Hour)
	wantCode(t, w.st.JoinWithInvite(ctx, w.org, late.Invites[0].ID, latecomer), store.ECONFLICT)
	if _, member := role(latecomer); member {
		t.Fatal("an expired invitation made a member")
	}

	if deleted, err := w.st.DeleteInvite(ctx, w.org, link.ID); err != nil || !deleted {
		t.Fatalf("delete: %v %v", deleted, err)
	}
	if deleted, err := w.st.DeleteInvite(ctx, w.org, link.ID); err != nil || deleted {
		t.Fatalf("delete again: %v %v", deleted, err)
	}
}
