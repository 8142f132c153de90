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

	link, err := w.st.CreateInvite(ctx, w.org, w.user, store.RoleRead, store.GrantTarget{})
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
	if emailed.ExpiresAt == nil || !emailed.ExpiresAt.Equal(clock.Now().Add(24*time.Hour)) || !emailed.SSO {
		t.Fatalf("invitation %+v", emailed)
	}
	list, err := w.st.FindInvites(ctx, w.org, store.Page{})
	if err != nil || list.Count != 1 || list.Items[0].ID != link.ID {
		t.Fatalf("the links list %+v, %v", list, err)
	}
	_, err = w.st.FindInvite(ctx, w.org, emailed.ID)
	wantCode(t, err, store.ENOTFOUND)
	// Its holder reads it as an invitation, of either kind, before joining.
	if in, err := w.st.FindInvitation(ctx, w.org, emailed.ID); err != nil || in.Email == nil || *in.Email != "new@example.com" {
		t.Fatalf("the emailed invitation read as an invitation: %+v, %v", in, err)
	}
	if in, err := w.st.FindInvitation(ctx, w.org, link.ID); err != nil || in.Email != nil {
		t.Fatalf("the link read as an invitation: %+v, %v", in, err)
	}
	_, err = w.st.FindInvitation(ctx, "noSuchOrg", emailed.ID)
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
	clock.advance(2 * time.Hour)
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

// contentInvites: a link to a space grants its level there to who joins, as a guest of the
// organization when they were not a member (a member keeps their role); a stronger grant is
// kept; a link to content the organization lacks, or to a space deleted since, changes nothing.
func contentInvites(t *testing.T, open Opener) {
	w := newWorld(t, open, time.Now)
	ctx := context.Background()
	sp := w.space("Invited")
	stranger := MustOwner(t, w.st, "guest@elsewhere.test").User
	target := store.GrantTarget{Kind: store.GrantSpace, ID: sp.ID}
	link, err := w.st.CreateInvite(ctx, w.org, w.user, store.RoleEdit, target)
	if err != nil || link.Target.Kind != store.GrantSpace || link.Target.ID != sp.ID || link.Role != store.RoleEdit {
		t.Fatalf("content link %+v, %v", link, err)
	}
	if got, err := w.st.FindInvite(ctx, w.org, link.ID); err != nil || got.Target.ID != sp.ID {
		t.Fatalf("found link %+v, %v", got, err)
	}
	if err := w.st.JoinWithInvite(ctx, w.org, link.ID, stranger); err != nil {
		t.Fatal(err)
	}
	m, err := w.st.FindMember(ctx, w.org, stranger.ID)
	if err != nil || m.Role != store.RoleGuest {
		t.Fatalf("the invited is a guest: %+v, %v", m, err)
	}
	grants, err := w.st.GrantsForUser(ctx, w.org, stranger.ID)
	if err != nil || grants[sp.ID] != store.RoleEdit {
		t.Fatalf("grants %v, %v", grants, err)
	}
	// A weaker link keeps the stronger grant.
	weaker, err := w.st.CreateInvite(ctx, w.org, w.user, store.RoleRead, target)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.st.JoinWithInvite(ctx, w.org, weaker.ID, stranger); err != nil {
		t.Fatal(err)
	}
	if grants, _ := w.st.GrantsForUser(ctx, w.org, stranger.ID); grants[sp.ID] != store.RoleEdit {
		t.Fatalf("a weaker link lowered the grant: %v", grants)
	}
	other := MustOwner(t, w.st, "other@elsewhere.test")
	theirs := other.MustSpace(t, w.st, "Theirs")
	_, err = w.st.CreateInvite(ctx, w.org, w.user, store.RoleRead, store.GrantTarget{Kind: store.GrantSpace, ID: theirs.ID})
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.CreateInvite(ctx, w.org, w.user, store.RoleRead, store.GrantTarget{Kind: store.GrantCollection, ID: "nope"})
	wantCode(t, err, store.ENOTFOUND)
	gone, err := w.st.CreateInvite(ctx, w.org, w.user, store.RoleRead, store.GrantTarget{Kind: store.GrantSpace, ID: w.space("Gone").ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.st.DeleteSpace(ctx, gone.Target.ID); err != nil {
		t.Fatal(err)
	}
	late := MustOwner(t, w.st, "late@elsewhere.test").User
	wantCode(t, w.st.JoinWithInvite(ctx, w.org, gone.ID, late), store.ENOTFOUND)
	if _, err := w.st.FindMember(ctx, w.org, late.ID); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("a refused join made a member: %v", err)
	}
}
