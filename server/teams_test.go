package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// teamCreate creates a team of organization members as u.
func teamCreate(t *testing.T, ts *testServer, u *testUser, orgID, title string, members ...string) gen.Team {
	t.Helper()
	if members == nil {
		members = []string{}
	}
	var team gen.Team
	ts.Expect(t, http.StatusCreated, u, "PUT", "/orgs/"+orgID+"/teams",
		map[string]any{"title": title, "members": members}).Decode(t, &team)
	return team
}

// teamGet re-reads a team through the API as u.
func teamGet(t *testing.T, ts *testServer, u *testUser, orgID, teamID string) gen.Team {
	t.Helper()
	return getJSON[gen.Team](t, ts, u, "/orgs/"+orgID+"/teams/"+teamID)
}

// teamList lists an organization's teams as u with a query string ("" for none).
func teamList(t *testing.T, ts *testServer, u *testUser, orgID, query string) gen.TeamList {
	t.Helper()
	return getJSON[gen.TeamList](t, ts, u, "/orgs/"+orgID+"/teams"+query)
}

func TestCreateOrganizationTeam(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "carol:guest")
	ts, alice, bob, carol, outsider, org := c.testServer, c.alice, c.bob, c.carol, c.outsider, c.org
	path := "/orgs/" + org.Id + "/teams"
	count := func(t *testing.T) int { t.Helper(); return teamList(t, ts, alice, org.Id, "").Count }

	t.Run("WithMembers", func(t *testing.T) {
		var team gen.Team
		ts.Expect(t, http.StatusCreated, alice, "PUT", path,
			map[string]any{"title": "Writers", "members": []string{bob.ID, carol.ID}}).Decode(t, &team)
		if team.Object != gen.TeamObjectTeam || team.Id == "" || team.Title != "Writers" || team.Members != 2 ||
			team.Spaces != 0 || !team.Permissions.Admin || !team.Permissions.View {
			t.Fatalf("created %s", mustJSONText(t, team))
		}
		got := teamGet(t, ts, alice, org.Id, team.Id)
		if got.Title != "Writers" || got.Members != 2 || !got.CreatedAt.Equal(team.CreatedAt) {
			t.Fatalf("re-read %s", mustJSONText(t, got))
		}
		if m := memberGet(t, ts, alice, org.Id, carol.ID); m.Teams != 1 {
			t.Fatalf("carol is in %d teams, want 1", m.Teams)
		}
	})
	t.Run("WithoutMembers", func(t *testing.T) {
		team := sendJSON[gen.Team](t, ts, http.StatusCreated, alice, "PUT", path, map[string]any{"title": "Empty"})
		if team.Members != 0 || teamGet(t, ts, alice, org.Id, team.Id).Members != 0 {
			t.Fatalf("a team without members has %d", team.Members)
		}
	})
	t.Run("RepeatedMemberCountsOnce", func(t *testing.T) {
		if team := teamCreate(t, ts, alice, org.Id, "Twice", bob.ID, bob.ID); team.Members != 1 {
			t.Fatalf("members = %d, want 1", team.Members)
		}
	})
	t.Run("NonMemberInMembers", func(t *testing.T) {
		before := count(t)
		r := ts.Expect(t, http.StatusBadRequest, alice, "PUT", path,
			map[string]any{"title": "Mixed", "members": []string{bob.ID, outsider.ID}})
		wantMessage(t, r, "members", outsider.ID)
		if after := count(t); after != before {
			t.Fatalf("a rejected team was created: %d -> %d teams", before, after)
		}
		if l := teamList(t, ts, alice, org.Id, "?title=Mixed"); l.Count != 0 {
			t.Fatalf("team Mixed exists: %v", idsOf(l.Items))
		}
	})
	t.Run("TitleLengths", func(t *testing.T) {
		before := count(t)
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PUT", path,
			map[string]any{"title": strings.Repeat("t", 65)}), "title")
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PUT", path, map[string]any{"title": ""}), "title")
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PUT", path, map[string]any{"members": []string{}}), "title")
		if after := count(t); after != before {
			t.Fatalf("rejected teams were created: %d -> %d", before, after)
		}
		long := strings.Repeat("t", 64)
		team := teamCreate(t, ts, alice, org.Id, long)
		if teamGet(t, ts, alice, org.Id, team.Id).Title != long {
			t.Fatal("a 64-character title was not kept")
		}
		teamCreate(t, ts, alice, org.Id, "X")
	})
	t.Run("UnknownProperty", func(t *testing.T) {
		ts.Expect(t, http.StatusBadRequest, alice, "PUT", path, map[string]any{"title": "Owners", "owners": []string{alice.ID}})
	})
	t.Run("ReadMemberForbidden", func(t *testing.T) {
		before := count(t)
		ts.Expect(t, http.StatusForbidden, bob, "PUT", path, map[string]any{"title": "Bob's"})
		ts.Expect(t, http.StatusForbidden, carol, "PUT", path, map[string]any{"title": "Carol's"})
		if after := count(t); after != before {
			t.Fatalf("teams %d -> %d after forbidden creations", before, after)
		}
	})
	c.strangers(t, "PUT", path, map[string]any{"title": "Olga's"})
}

func TestListTeamsInOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read")
	ts, alice, bob, outsider, org, other := c.testServer, c.alice, c.bob, c.outsider, c.org, c.other
	design := teamCreate(t, ts, alice, org.Id, "Design", bob.ID)
	docs := teamCreate(t, ts, alice, org.Id, "Docs Writers")
	platform := teamCreate(t, ts, alice, org.Id, "Platform Docs", alice.ID, bob.ID)
	teamCreate(t, ts, outsider, other.Id, "Docs Elsewhere")
	all := []string{design.Id, docs.Id, platform.Id} // oldest first

	t.Run("AllOldestFirst", func(t *testing.T) {
		l := teamList(t, ts, alice, org.Id, "")
		if got := idsOf(l.Items); !reflect.DeepEqual(got, all) || l.Count != 3 || l.Next != nil {
			t.Fatalf("teams = %v count %d, want %v", got, l.Count, all)
		}
		if l.Items[2].Members != 2 || l.Items[2].Title != "Platform Docs" {
			t.Fatalf("platform team = %+v", l.Items[2])
		}
	})
	t.Run("TitleFilterIgnoresCase", func(t *testing.T) {
		for title, want := range map[string][]string{
			"docs": {docs.Id, platform.Id}, "DESIGN": {design.Id}, "writers": {docs.Id}, "nothing": {}, "%": {}, "_": {},
		} {
			l := teamList(t, ts, alice, org.Id, "?title="+url.QueryEscape(title))
			if got := idsOf(l.Items); !reflect.DeepEqual(got, want) || l.Count != len(want) {
				t.Fatalf("title=%s: %v count %d, want %v", title, got, l.Count, want)
			}
		}
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET",
			"/orgs/"+org.Id+"/teams?title="+strings.Repeat("t", 65), nil), `"title"`)
	})
	t.Run("OwnerFilter", func(t *testing.T) {
		// An organization admin manages every team; bob, in two teams but owning none, manages none.
		if l := teamList(t, ts, alice, org.Id, "?owner="+alice.ID); !reflect.DeepEqual(idsOf(l.Items), all) || l.Count != 3 {
			t.Fatalf("owner=alice: %v count %d", idsOf(l.Items), l.Count)
		}
		if l := teamList(t, ts, alice, org.Id, "?owner="+bob.ID); len(l.Items) != 0 || l.Count != 0 {
			t.Fatalf("owner=bob: %v count %d", idsOf(l.Items), l.Count)
		}
		if l := teamList(t, ts, bob, org.Id, "?owner="+alice.ID+"&title=docs"); !reflect.DeepEqual(idsOf(l.Items), []string{docs.Id, platform.Id}) {
			t.Fatalf("owner=alice&title=docs: %v", idsOf(l.Items))
		}
		if l := teamList(t, ts, alice, org.Id, "?owner="+outsider.ID); len(l.Items) != 0 {
			t.Fatalf("owner=olga (admin elsewhere): %v", idsOf(l.Items))
		}
	})
	t.Run("Paging", func(t *testing.T) {
		teams := "/orgs/" + org.Id + "/teams"
		wantIDs(t, "teams in pages of 2", ts.listAll(t, alice, teams, 2), all...)
		wantIDs(t, "title=docs in pages of 1", ts.listAll(t, alice, teams+"?title=docs", 1), docs.Id, platform.Id)
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs/"+org.Id+"/teams?page=bogus", nil), "page")
	})
	t.Run("ReadMemberSeesTeamsWithoutAdmin", func(t *testing.T) {
		l := teamList(t, ts, bob, org.Id, "")
		if got := idsOf(l.Items); !reflect.DeepEqual(got, all) {
			t.Fatalf("bob sees %v", got)
		}
		for _, team := range l.Items {
			if team.Permissions.Admin || !team.Permissions.View {
				t.Fatalf("bob's permissions on %s = %+v", team.Title, team.Permissions)
			}
		}
	})
	c.strangers(t, "GET", "/orgs/"+org.Id+"/teams", nil)
}

func TestGetTeamInOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read")
	ts, alice, bob, outsider, org, other := c.testServer, c.alice, c.bob, c.outsider, c.org, c.other
	team := teamCreate(t, ts, alice, org.Id, "Design", alice.ID)
	elsewhere := teamCreate(t, ts, outsider, other.Id, "Elsewhere's")

	t.Run("Admin", func(t *testing.T) {
		got := teamGet(t, ts, alice, org.Id, team.Id)
		if got.Id != team.Id || got.Title != "Design" || got.Members != 1 || !got.Permissions.Admin || !got.Permissions.View {
			t.Fatalf("team = %s", mustJSONText(t, got))
		}
	})
	t.Run("ReadMemberNotInTheTeam", func(t *testing.T) {
		got := teamGet(t, ts, bob, org.Id, team.Id)
		if got.Title != "Design" || got.Permissions.Admin || !got.Permissions.View {
			t.Fatalf("bob sees %s", mustJSONText(t, got))
		}
	})
	t.Run("UnknownTeam", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/teams/nosuchteam", nil), "Team")
	})
	t.Run("TeamOfAnotherOrganizationUnderThisOne", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/teams/"+elsewhere.Id, nil)
	})
	c.strangers(t, "GET", "/orgs/"+org.Id+"/teams/"+team.Id, nil)
}

func TestUpdateTeamInOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read")
	ts, alice, bob, outsider, org, other := c.testServer, c.alice, c.bob, c.outsider, c.org, c.other
	team := teamCreate(t, ts, alice, org.Id, "Design", bob.ID)
	elsewhere := teamCreate(t, ts, outsider, other.Id, "Elsewhere's")
	path := "/orgs/" + org.Id + "/teams/" + team.Id

	t.Run("Rename", func(t *testing.T) {
		got := sendJSON[gen.Team](t, ts, http.StatusOK, alice, "PATCH", path, map[string]any{"title": "Product Design"})
		if got.Id != team.Id || got.Title != "Product Design" || got.Members != 1 || !got.CreatedAt.Equal(team.CreatedAt) {
			t.Fatalf("answered %s", mustJSONText(t, got))
		}
		if got := teamGet(t, ts, bob, org.Id, team.Id); got.Title != "Product Design" || got.Members != 1 {
			t.Fatalf("re-read %s", mustJSONText(t, got))
		}
	})
	t.Run("InvalidTitles", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path,
			map[string]any{"title": strings.Repeat("t", 65)}), "title")
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path, map[string]any{}), "title")
		ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path, map[string]any{"title": "Ok", "members": []string{}})
		if got := teamGet(t, ts, alice, org.Id, team.Id).Title; got != "Product Design" {
			t.Fatalf("rejected titles changed it to %q", got)
		}
	})
	t.Run("ReadMemberForbidden", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, bob, "PATCH", path, map[string]any{"title": "Bob's"})
		if got := teamGet(t, ts, alice, org.Id, team.Id).Title; got != "Product Design" {
			t.Fatalf("a read member renamed the team to %q", got)
		}
	})
	t.Run("UnknownTeam", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "PATCH", "/orgs/"+org.Id+"/teams/nosuchteam", map[string]any{"title": "X"})
		ts.Expect(t, http.StatusNotFound, alice, "PATCH", "/orgs/"+org.Id+"/teams/"+elsewhere.Id, map[string]any{"title": "X"})
		if got := teamGet(t, ts, outsider, other.Id, elsewhere.Id).Title; got != "Elsewhere's" {
			t.Fatalf("the other organization's team is now %q", got)
		}
	})
	c.strangers(t, "PATCH", path, map[string]any{"title": "Olga's"})
}

func TestRemoveTeamFromOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read")
	ts, alice, bob, outsider, org := c.testServer, c.alice, c.bob, c.outsider, c.org
	design := teamCreate(t, ts, alice, org.Id, "Design", bob.ID)
	docs := teamCreate(t, ts, alice, org.Id, "Docs", bob.ID)
	path := func(id string) string { return "/orgs/" + org.Id + "/teams/" + id }

	t.Run("AdminDeletes", func(t *testing.T) {
		r := ts.Expect(t, http.StatusNoContent, alice, "DELETE", path(design.Id), nil)
		if len(r.Body) != 0 {
			t.Fatalf("204 with a body: %s", r.Body)
		}
		ts.Expect(t, http.StatusNotFound, alice, "GET", path(design.Id), nil)
		if l := teamList(t, ts, alice, org.Id, ""); !reflect.DeepEqual(idsOf(l.Items), []string{docs.Id}) {
			t.Fatalf("teams left = %v", idsOf(l.Items))
		}
		if m := memberGet(t, ts, alice, org.Id, bob.ID); m.Teams != 1 {
			t.Fatalf("bob is in %d teams, want 1", m.Teams)
		}
	})
	t.Run("AgainIsNoError", func(t *testing.T) {
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", path(design.Id), nil)
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", path("nosuchteam"), nil)
	})
	t.Run("ReadMemberForbidden", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, bob, "DELETE", path(docs.Id), nil)
		teamGet(t, ts, alice, org.Id, docs.Id)
	})
	t.Run("UserOfAnotherOrganization", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, outsider, "DELETE", path(docs.Id), nil)
		ts.Expect(t, http.StatusNotFound, outsider, "DELETE", path(design.Id), nil)
		teamGet(t, ts, alice, org.Id, docs.Id)
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "DELETE", path(docs.Id), nil)
	})
}
