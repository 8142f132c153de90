package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestListSpacesForOrganizationMember(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "dave:guest")
	ts, alice, bob, dave, outsider, org, other := c.testServer, c.alice, c.bob, c.dave, c.outsider, c.org, c.other
	handbook := ts.MustCreateSpace(t, alice, org.Id, "Handbook", "")
	coll := ts.MustCreateCollection(t, alice, org.Id, "Engineering", "")
	api := ts.MustCreateSpace(t, alice, org.Id, "API", coll.Id)
	trash := ts.MustCreateSpace(t, alice, org.Id, "Old", "")
	guides := ts.MustCreateSpace(t, alice, org.Id, "Guides", "")
	ts.MustCreateSpace(t, outsider, other.Id, "Elsewhere's", "")
	ts.Expect(t, http.StatusNoContent, alice, "DELETE", "/spaces/"+trash.Id, nil)

	list := func(t *testing.T, u *testUser, of *testUser, query string) gen.MemberSpaceList {
		t.Helper()
		return getJSON[gen.MemberSpaceList](t, ts, u, "/orgs/"+org.Id+"/members/"+of.ID+"/spaces"+query)
	}
	ids := func(l gen.MemberSpaceList) []string {
		out := []string{}
		for _, it := range l.Items {
			out = append(out, it.Space.Id)
		}
		return out
	}
	newestFirst := []string{guides.Id, api.Id, handbook.Id}

	t.Run("ReadMemberSeesEveryLiveSpaceWithRead", func(t *testing.T) {
		l := list(t, alice, bob, "")
		if got := ids(l); !reflect.DeepEqual(got, newestFirst) || l.Count != 3 || l.Next != nil {
			t.Fatalf("bob's spaces = %v count %d, want %v (no deleted space)", got, l.Count, newestFirst)
		}
		for _, it := range l.Items {
			if it.Permission != gen.MemberRole("read") {
				t.Fatalf("bob's permission on %s = %q, want read", it.Space.Title, it.Permission)
			}
			if it.Space.Organization != org.Id {
				t.Fatalf("space %s of organization %s", it.Space.Id, it.Space.Organization)
			}
		}
		if m := memberGet(t, ts, alice, org.Id, bob.ID); m.Spaces != 3 {
			t.Fatalf("bob's member spaces count = %d, want 3", m.Spaces)
		}
	})
	t.Run("MemberAsksAboutThemself", func(t *testing.T) {
		l := list(t, bob, bob, "")
		if got := ids(l); !reflect.DeepEqual(got, newestFirst) {
			t.Fatalf("bob's own spaces = %v", got)
		}
		for _, it := range l.Items {
			// space.permissions are the caller's: bob reads but does not edit.
			if !it.Space.Permissions.View || it.Space.Permissions.Edit || it.Space.Permissions.Admin {
				t.Fatalf("bob's permissions on %s = %+v", it.Space.Title, it.Space.Permissions)
			}
		}
	})
	t.Run("AdminHasAdmin", func(t *testing.T) {
		for _, it := range list(t, alice, alice, "").Items {
			if it.Permission != gen.MemberRole("admin") {
				t.Fatalf("alice's permission on %s = %q", it.Space.Title, it.Permission)
			}
		}
	})
	t.Run("DefaultLevelRaisesThePermission", func(t *testing.T) {
		ts.Expect(t, http.StatusOK, alice, "PATCH", "/spaces/"+handbook.Id, map[string]any{"defaultLevel": "edit"})
		for _, it := range list(t, alice, bob, "").Items {
			want := gen.MemberRole("read")
			if it.Space.Id == handbook.Id {
				want = "edit"
			}
			if it.Permission != want {
				t.Fatalf("bob's permission on %s = %q, want %q", it.Space.Title, it.Permission, want)
			}
		}
	})
	t.Run("GuestSeesNone", func(t *testing.T) {
		l := list(t, alice, dave, "")
		if len(l.Items) != 0 || l.Count != 0 || l.Next != nil {
			t.Fatalf("guest's spaces = %v count %d", ids(l), l.Count)
		}
		if l := list(t, dave, dave, ""); len(l.Items) != 0 {
			t.Fatalf("guest sees %v about themself", ids(l))
		}
	})
	t.Run("OrderAndPaging", func(t *testing.T) {
		oldestFirst := []string{handbook.Id, api.Id, guides.Id}
		if got := ids(list(t, alice, bob, "?order=asc")); !reflect.DeepEqual(got, oldestFirst) {
			t.Fatalf("asc = %v, want %v", got, oldestFirst)
		}
		p1 := list(t, alice, bob, "?limit=2")
		if p1.Next == nil || p1.Count != 3 {
			t.Fatalf("page 1 = %v count %d next %v", ids(p1), p1.Count, p1.Next)
		}
		p2 := list(t, alice, bob, "?limit=2&page="+url.QueryEscape(p1.Next.Page))
		if got := append(ids(p1), ids(p2)...); !reflect.DeepEqual(got, newestFirst) || p2.Next != nil {
			t.Fatalf("pages = %v next %v, want %v", got, p2.Next, newestFirst)
		}
		ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs/"+org.Id+"/members/"+bob.ID+"/spaces?page=bogus", nil)
	})
	t.Run("NotAMember", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/members/"+outsider.ID+"/spaces", nil)
	})
	c.strangers(t, "GET", c.memberPath(bob, "/spaces"), nil)
}

func TestListTeamsForOrganizationMember(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "carol:read")
	ts, alice, bob, carol, outsider, org := c.testServer, c.alice, c.bob, c.carol, c.outsider, c.org
	design := teamCreate(t, ts, alice, org.Id, "Design", bob.ID)
	docs := teamCreate(t, ts, alice, org.Id, "Docs Writers", bob.ID, carol.ID)
	teamCreate(t, ts, alice, org.Id, "Platform", carol.ID)
	path := func(of *testUser) string { return c.memberPath(of, "/teams") }

	list := func(t *testing.T, u *testUser, of *testUser, query string) gen.MemberTeamList {
		t.Helper()
		return getJSON[gen.MemberTeamList](t, ts, u, path(of)+query)
	}
	ids := func(l gen.MemberTeamList) []string {
		out := []string{}
		for _, it := range l.Items {
			out = append(out, it.Team.Id)
		}
		return out
	}

	t.Run("TheMembersTeams", func(t *testing.T) {
		l := list(t, alice, bob, "")
		if got := ids(l); !reflect.DeepEqual(got, []string{design.Id, docs.Id}) || l.Count != 2 || l.Next != nil {
			t.Fatalf("bob's teams = %v count %d", got, l.Count)
		}
		for _, it := range l.Items {
			if it.Member.Role != gen.TeamMemberRole("member") || !it.Team.Permissions.Admin {
				t.Fatalf("team %s: bob's role %q, alice's admin %v", it.Team.Title, it.Member.Role, it.Team.Permissions.Admin)
			}
		}
		if l.Items[1].Team.Title != "Docs Writers" || l.Items[1].Team.Members != 2 {
			t.Fatalf("docs team = %+v", l.Items[1].Team)
		}
		if m := memberGet(t, ts, alice, org.Id, bob.ID); m.Teams != 2 {
			t.Fatalf("bob's member teams count = %d, want 2", m.Teams)
		}
	})
	t.Run("TitleFilterIgnoresCase", func(t *testing.T) {
		if got := ids(list(t, alice, bob, "?title=DOC")); !reflect.DeepEqual(got, []string{docs.Id}) {
			t.Fatalf("title=DOC: %v", got)
		}
		if l := list(t, alice, bob, "?title=platform"); len(l.Items) != 0 || l.Count != 0 {
			t.Fatalf("title=platform for bob (not in it): %v", ids(l))
		}
		if l := list(t, alice, bob, "?title=%25"); len(l.Items) != 0 {
			t.Fatalf("title=%% matched %v", ids(l))
		}
	})
	t.Run("Paging", func(t *testing.T) {
		p1 := list(t, alice, carol, "?limit=1")
		if p1.Next == nil || p1.Count != 2 {
			t.Fatalf("page 1 = %v count %d", ids(p1), p1.Count)
		}
		p2 := list(t, alice, carol, "?limit=1&page="+url.QueryEscape(p1.Next.Page))
		if got := append(ids(p1), ids(p2)...); len(got) != 2 || got[0] != docs.Id || p2.Next != nil {
			t.Fatalf("carol's teams in pages = %v", got)
		}
	})
	t.Run("MemberAsksAboutThemself", func(t *testing.T) {
		l := list(t, bob, bob, "")
		if got := ids(l); !reflect.DeepEqual(got, []string{design.Id, docs.Id}) {
			t.Fatalf("bob's own teams = %v", got)
		}
		if p := l.Items[0].Team.Permissions; p.Admin || !p.View {
			t.Fatalf("bob's permissions on his team = %+v", p)
		}
	})
	t.Run("ReadMemberAsksAboutAnother", func(t *testing.T) {
		if got := ids(list(t, bob, carol, "")); len(got) != 2 {
			t.Fatalf("carol's teams seen by bob = %v", got)
		}
	})
	t.Run("NotAMember", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "GET", path(outsider), nil)
	})
	c.strangers(t, "GET", path(bob), nil)
}

func TestReadsNeedingARoleForbidGuests(t *testing.T) {
	t.Parallel()
	// A guest is a member (so no 404) without a role: reads that need one answer 403 (DESIGN §3).
	c := newCast(t, "bob:read", "dave:guest")
	ts, alice, bob, dave, org := c.testServer, c.alice, c.bob, c.dave, c.org
	team := teamCreate(t, ts, alice, org.Id, "Design")
	for _, c := range []struct {
		name string
		u    *testUser
		path string
	}{
		{"GuestListsMembers", dave, "/orgs/" + org.Id + "/members"},
		{"GuestReadsAnotherMember", dave, "/orgs/" + org.Id + "/members/" + bob.ID},
		{"GuestListsTeams", dave, "/orgs/" + org.Id + "/teams"},
		{"GuestReadsATeamTheyAreNotIn", dave, "/orgs/" + org.Id + "/teams/" + team.Id},
		{"GuestReadsAgentInstructions", dave, "/orgs/" + org.Id + "/agent-instructions"},
		{"GuestListsAnotherMembersTeams", dave, "/orgs/" + org.Id + "/members/" + bob.ID + "/teams"},
		{"ReadMemberListsAnotherMembersSpaces", bob, "/orgs/" + org.Id + "/members/" + dave.ID + "/spaces"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts.Expect(t, http.StatusForbidden, c.u, "GET", c.path, nil)
		})
	}
}
