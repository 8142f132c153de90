package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// permissions: roles granted on content to members and teams — replaced when granted again,
// refused all or nothing for a user or team of another organization, listed, revoked, gone with
// their team, read back per member in one query, and narrowing space lists through Visible.
func permissions(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Granted")
	closed := w.space("Closed")
	if _, err := w.st.UpdateSpace(ctx, closed.ID, store.SpaceUpdate{SetDefaultLevel: true, DefaultLevel: store.RoleGuest}); err != nil {
		t.Fatal(err)
	}
	col, err := w.st.CreateCollection(ctx, w.org, "Shared", nil)
	if err != nil {
		t.Fatal(err)
	}
	team, err := w.st.CreateTeam(ctx, w.org, w.user, "Writers", []string{w.user})
	if err != nil {
		t.Fatal(err)
	}
	onSpace := store.GrantTarget{Kind: store.GrantSpace, ID: sp.ID, OrganizationID: w.org}
	onCol := store.GrantTarget{Kind: store.GrantCollection, ID: col.ID, OrganizationID: w.org}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	grants := func() store.Grants {
		t.Helper()
		g, err := w.st.GrantsForUser(ctx, w.org, w.user)
		must(err)
		return g
	}

	must(w.st.GrantAccess(ctx, onSpace, []string{w.user}, nil, store.RoleEdit))
	must(w.st.GrantAccess(ctx, onCol, nil, []string{team.ID}, store.RoleComment))
	must(w.st.GrantAccess(ctx, onSpace, nil, []string{team.ID}, store.RoleRead))
	if g := grants(); g[sp.ID] != store.RoleEdit || g[col.ID] != store.RoleComment || len(g) != 2 {
		t.Fatalf("grants %v: want the strongest of the user's and the team's on each", g)
	}
	must(w.st.GrantAccess(ctx, onSpace, []string{w.user}, nil, store.RoleAdmin))
	if g := grants(); g[sp.ID] != store.RoleAdmin {
		t.Fatalf("granted again: %v, want admin", g)
	}

	// Another organization's user or team: refused, and nothing of the batch is written.
	stranger := MustOwner(t, w.st, "stranger@example.org")
	theirs, err := w.st.CreateTeam(ctx, stranger.Org.ID, stranger.User.ID, "Theirs", nil)
	must(err)
	wantCode(t, w.st.GrantAccess(ctx, onCol, []string{w.user, stranger.User.ID}, nil, store.RoleAdmin), store.ENOTFOUND)
	wantCode(t, w.st.GrantAccess(ctx, onCol, nil, []string{theirs.ID}, store.RoleAdmin), store.ENOTFOUND)
	if g := grants(); g[col.ID] != store.RoleComment {
		t.Fatalf("a refused grant changed the collection's: %v", g)
	}

	users, err := w.st.FindUserGrants(ctx, onSpace, store.Page{})
	must(err)
	if users.Count != 1 || users.Items[0].User.ID != w.user || users.Items[0].Role != store.RoleAdmin {
		t.Fatalf("user grants %+v", users)
	}
	wantCode(t, w.st.GrantAccess(ctx, onSpace, []string{stranger.User.ID}, nil, store.RoleGuest), store.ENOTFOUND)
	teams, err := w.st.FindTeamGrants(ctx, onSpace, w.user, store.Page{Limit: 1})
	must(err)
	if teams.Count != 1 || teams.Items[0].Team.ID != team.ID || teams.Items[0].Role != store.RoleRead || teams.Items[0].Team.Members != 1 || teams.Items[0].Team.Spaces != 1 {
		t.Fatalf("team grants %+v", teams)
	}

	members, err := w.st.MembersAccess(ctx, w.org, []string{sp.ID, col.ID}, "")
	must(err)
	if len(members) != 1 || members[0].OrgRole != store.RoleAdmin || members[0].Grants[sp.ID] != store.RoleAdmin || members[0].Grants[col.ID] != store.RoleComment {
		t.Fatalf("members' access %+v", members)
	}
	if m := members[0]; m.Direct[sp.ID] != store.RoleAdmin || m.TeamGrants[sp.ID] != team.ID || m.TeamGrants[col.ID] != team.ID || m.Direct[col.ID] != "" {
		t.Fatalf("members' own and team grants %+v", m)
	}
	if inTeam, err := w.st.MembersAccess(ctx, w.org, nil, "noSuchTeam"); err != nil || len(inTeam) != 0 {
		t.Fatalf("members of a team that does not exist: %+v, %v", inTeam, err)
	}

	// Visible: a guest granted one space lists that one; a member lists what has a level.
	listed := func(vis *store.Visible) []string {
		t.Helper()
		l, err := w.st.FindSpaces(ctx, w.org, false, vis, store.Page{})
		must(err)
		var ids []string
		for _, s := range l.Items {
			ids = append(ids, s.ID)
		}
		if l.Count != len(ids) {
			t.Fatalf("count %d for %d spaces", l.Count, len(ids))
		}
		return ids
	}
	if got := listed(&store.Visible{Granted: []string{closed.ID}}); len(got) != 1 || got[0] != closed.ID {
		t.Fatalf("a guest granted the closed space lists %v", got)
	}
	if got := listed(&store.Visible{Member: true}); len(got) != 1 || got[0] != sp.ID {
		t.Fatalf("a member with no grants lists %v, want only the space with a level", got)
	}
	if got := listed(nil); len(got) != 2 {
		t.Fatalf("no narrowing lists %v", got)
	}

	removed, err := w.st.RevokeAccess(ctx, onSpace, w.user, "")
	must(err)
	again, err := w.st.RevokeAccess(ctx, onSpace, w.user, "")
	must(err)
	if !removed || again {
		t.Fatalf("revoke: %v then %v, want true then false", removed, again)
	}
	must(w.st.GrantAccess(ctx, onCol, nil, []string{team.ID}, store.RoleGuest))
	must(w.st.DeleteTeam(ctx, w.org, team.ID))
	if g := grants(); len(g) != 0 {
		t.Fatalf("after revoking, removing and deleting the team: %v", g)
	}
}
