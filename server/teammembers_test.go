package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// teamMembers lists a team's members as u: user id → team role.
func teamMembers(t *testing.T, w *world, u *testUser, teamID string) map[string]string {
	t.Helper()
	list := getJSON[gen.TeamMemberList](t, w.testServer, u, "/orgs/"+w.org.Id+"/teams/"+teamID+"/members")
	out := map[string]string{}
	for _, m := range list.Items {
		out[m.Organization.Id] = string(m.Team.Role)
	}
	if list.Count != len(out) {
		t.Fatalf("count %d for %d members", list.Count, len(out))
	}
	return out
}

// Team membership: admins and the team's owners add (one by one or at once, by id or email),
// remove and set roles; members read; only members of the organization join; anyone leaves.
func TestTeamMembership(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	team := teamCreate(t, w.testServer, w.admin, w.org.Id, "Writers").Id
	members := "/orgs/" + w.org.Id + "/teams/" + team + "/members"

	w.Expect(t, http.StatusNoContent, w.admin, "PUT", members+"/"+w.editor.ID, map[string]any{"role": "owner"})
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", members+"/"+w.reader.ID, nil)
	if got := teamMembers(t, w, w.commenter, team); len(got) != 2 || got[w.editor.ID] != "owner" || got[w.reader.ID] != "member" {
		t.Fatalf("members %v", got)
	}
	// The owner manages the team; a plain member does not.
	w.Expect(t, http.StatusNoContent, w.editor, "PUT", members, map[string]any{
		"add": []string{w.commenter.Email}, "remove": []string{w.reader.ID},
		"memberships": map[string]any{w.commenter.ID: map[string]any{"role": "owner"}}})
	if got := teamMembers(t, w, w.admin, team); len(got) != 2 || got[w.commenter.ID] != "owner" || got[w.editor.ID] != "owner" {
		t.Fatalf("after the update: %v", got)
	}
	w.Expect(t, http.StatusForbidden, w.reader, "PUT", members+"/"+w.reader.ID, nil)

	// Refused, changing nothing: a stranger, a user not in the team given a role.
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PUT", members, map[string]any{
		"add": []string{w.reader.ID, w.outsider.ID}}), "add[1]")
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PUT", members, map[string]any{
		"memberships": map[string]any{w.reader.ID: map[string]any{"role": "member"}}}), "memberships")
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PUT", members+"/"+w.outsider.ID, nil), "not a member")
	if got := teamMembers(t, w, w.admin, team); len(got) != 2 {
		t.Fatalf("refused updates changed the team: %v", got)
	}

	w.Expect(t, http.StatusResetContent, w.commenter, "DELETE", members+"/"+w.editor.ID, nil)
	w.Expect(t, http.StatusNoContent, w.commenter, "DELETE", members+"/"+w.editor.ID, nil)
	w.Expect(t, http.StatusResetContent, w.commenter, "DELETE", members+"/"+w.commenter.ID, nil)
	if got := teamMembers(t, w, w.admin, team); len(got) != 0 {
		t.Fatalf("after removals: %v", got)
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", members, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/teams/noSuchTeam/members", nil)
}

// A user changes their own profile; another's is refused (403 to who shares an organization with
// them, 404 to anyone else).
func TestUpdateUserById(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	me := sendJSON[gen.User](t, w.testServer, http.StatusOK, w.editor, "PATCH", "/users/"+w.editor.ID,
		map[string]any{"displayName": "Eve Writer", "photoURL": "https://example.com/eve.png"})
	if me.DisplayName != "Eve Writer" || me.PhotoURL == nil || *me.PhotoURL != "https://example.com/eve.png" {
		t.Fatalf("updated %+v", me)
	}
	if got := getJSON[gen.User](t, w.testServer, w.reader, "/users/"+w.editor.ID); got.DisplayName != "Eve Writer" || got.Email != nil {
		t.Fatalf("as another member sees it: %+v", got)
	}
	w.Expect(t, http.StatusForbidden, w.reader, "PATCH", "/users/"+w.editor.ID, map[string]any{"displayName": "Hacked"})
	w.Expect(t, http.StatusNotFound, w.outsider, "PATCH", "/users/"+w.editor.ID, map[string]any{"displayName": "Hacked"})
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/users/"+w.editor.ID, nil)
	w.Expect(t, http.StatusBadRequest, w.editor, "PATCH", "/users/"+w.editor.ID, map[string]any{})
	w.Expect(t, http.StatusBadRequest, w.editor, "PATCH", "/users/"+w.editor.ID, map[string]any{"photoURL": "javascript:alert(1)"})
	w.Expect(t, http.StatusBadRequest, w.editor, "PATCH", "/users/"+w.editor.ID, map[string]any{"displayName": "   "})
	if got := getJSON[gen.User](t, w.testServer, w.editor, "/user"); got.DisplayName != "Eve Writer" {
		t.Fatalf("refused updates changed the profile: %+v", got)
	}
}
