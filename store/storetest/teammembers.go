package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// teamMembers: members added one by one and at once (by id or email), roles set, removed; only
// members of the organization join; a refused update changes nothing. And a user's profile.
func teamMembers(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	if _, err := w.st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{EmailDomains: &[]string{"example.com"}}); err != nil {
		t.Fatal(err)
	}
	ann := MustOwner(t, w.st, "ann@example.com").User
	if err := w.st.JoinOrganization(ctx, w.org, ann); err != nil {
		t.Fatal(err)
	}
	stranger := MustOwner(t, w.st, "stranger@elsewhere.test").User
	team, err := w.st.CreateTeam(ctx, w.org, w.user, "Writers", nil)
	if err != nil {
		t.Fatal(err)
	}
	roles := func() map[string]string {
		t.Helper()
		list, err := w.st.FindTeamMembers(ctx, w.org, team.ID, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, m := range list.Items {
			out[m.Member.User.ID] = m.Role
		}
		return out
	}

	if err := w.st.SetTeamMember(ctx, w.org, team.ID, w.user, "owner"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, w.st.SetTeamMember(ctx, w.org, team.ID, stranger.ID, "member"), store.EINVALID)
	wantCode(t, w.st.SetTeamMember(ctx, w.org, team.ID, ann.ID, "boss"), store.EINVALID)
	if err := w.st.UpdateTeamMembers(ctx, w.org, team.ID, store.TeamMembersUpdate{Add: []string{"ANN@example.com"},
		Roles: map[string]string{ann.ID: "owner", w.user: "member"}}); err != nil {
		t.Fatal(err)
	}
	if got := roles(); len(got) != 2 || got[ann.ID] != "owner" || got[w.user] != "member" {
		t.Fatalf("members %v", got)
	}
	wantCode(t, w.st.UpdateTeamMembers(ctx, w.org, team.ID, store.TeamMembersUpdate{Remove: []string{ann.ID},
		Add: []string{stranger.ID}}), store.EINVALID)
	if got := roles(); len(got) != 2 {
		t.Fatalf("a refused update changed the team: %v", got)
	}
	if removed, err := w.st.RemoveTeamMember(ctx, w.org, team.ID, ann.ID); err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	if removed, err := w.st.RemoveTeamMember(ctx, w.org, team.ID, ann.ID); err != nil || removed {
		t.Fatalf("remove again: %v %v", removed, err)
	}
	_, err = w.st.FindTeamMembers(ctx, w.org, "noSuchTeam", store.Page{})
	wantCode(t, err, store.ENOTFOUND)

	name, photo := "Ann Writer", "https://example.com/ann.png"
	u, err := w.st.UpdateUser(ctx, ann.ID, store.UserUpdate{DisplayName: &name, PhotoURL: &photo})
	if err != nil || u.DisplayName != name || u.PhotoURL == nil || *u.PhotoURL != photo || u.Email != ann.Email {
		t.Fatalf("updated user %+v, %v", u, err)
	}
}
