package server_test

import (
	"bytes"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

func TestJoinOrganization(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob", "carol") // bob@acme.test, carol@partners.test: not members yet
	ts, alice, bob, carol, org := c.testServer, c.alice, c.bob, c.carol, c.org
	frank := ts.MustCreateUser(t, "Frank@ACME.test", "Frank")
	eve := ts.MustCreateUser(t, "eve@evil.test", "Eve")
	orgPatch(t, ts, alice, org.Id, map[string]any{"emailDomains": []string{"acme.test", "partners.test"}, "defaultRole": "edit"})
	join := "/orgs/" + org.Id + "/join"

	t.Run("MatchingDomainJoinsWithDefaultRole", func(t *testing.T) {
		r := ts.Expect(t, http.StatusNoContent, bob, "POST", join, nil)
		if len(r.Body) != 0 {
			t.Fatalf("204 with a body: %s", r.Body)
		}
		if role := memberRole(memberGet(t, ts, alice, org.Id, bob.ID)); role != "edit" {
			t.Fatalf("bob joined as %q, want the default edit", role)
		}
		if ids := idsOf(orgList(t, ts, bob, "").Items); !reflect.DeepEqual(ids, []string{org.Id}) {
			t.Fatalf("bob's organizations = %v", ids)
		}
		if o := orgGet(t, ts, bob, org.Id); !o.Permissions.View || o.Permissions.Admin {
			t.Fatalf("bob's permissions = %+v", o.Permissions)
		}
	})
	t.Run("DomainMatchesWhateverTheCase", func(t *testing.T) {
		ts.Expect(t, http.StatusNoContent, frank, "POST", join, nil)
		memberGet(t, ts, alice, org.Id, frank.ID)
	})
	t.Run("JoiningTwiceKeepsTheRole", func(t *testing.T) {
		ts.Expect(t, http.StatusOK, alice, "PATCH", "/orgs/"+org.Id+"/members/"+bob.ID, map[string]any{"role": "create"})
		before := memberGet(t, ts, alice, org.Id, bob.ID)
		ts.Expect(t, http.StatusNoContent, bob, "POST", join, nil)
		after := memberGet(t, ts, alice, org.Id, bob.ID)
		if memberRole(after) != "create" || !after.JoinedAt.Equal(before.JoinedAt) {
			t.Fatalf("after joining again: role %q joined %v, want create %v", memberRole(after), after.JoinedAt, before.JoinedAt)
		}
	})
	t.Run("AlreadyAMemberWhateverTheDomain", func(t *testing.T) {
		// The creator joined by creating, and members stay members when the domains change.
		orgPatch(t, ts, alice, org.Id, map[string]any{"emailDomains": []string{"partners.test"}})
		ts.Expect(t, http.StatusNoContent, alice, "POST", join, nil)
		ts.Expect(t, http.StatusNoContent, bob, "POST", join, nil)
		if role := memberRole(memberGet(t, ts, alice, org.Id, bob.ID)); role != "create" {
			t.Fatalf("bob is %q, want create", role)
		}
		if role := memberRole(memberGet(t, ts, alice, org.Id, alice.ID)); role != "admin" {
			t.Fatalf("alice is %q, want admin", role)
		}
	})
	t.Run("GuestDefaultJoinsAsGuest", func(t *testing.T) {
		orgPatch(t, ts, alice, org.Id, []byte(`{"defaultRole":null}`))
		ts.Expect(t, http.StatusNoContent, carol, "POST", join, nil)
		m := memberGet(t, ts, alice, org.Id, carol.ID)
		if !m.Role.IsNull() {
			t.Fatalf("carol joined as %q, want a guest (null)", memberRole(m))
		}
	})
	t.Run("WrongDomain", func(t *testing.T) {
		// Answered exactly as an unknown organization is, so an outsider learns nothing.
		got := ts.Expect(t, http.StatusNotFound, eve, "POST", join, nil)
		unknown := ts.Expect(t, http.StatusNotFound, eve, "POST", "/orgs/nosuchorganization000/join", nil)
		if !bytes.Equal(got.Body, unknown.Body) {
			t.Fatalf("joining with a wrong domain answered %s, an unknown organization %s", got.Body, unknown.Body)
		}
		ts.Expect(t, http.StatusNotFound, eve, "GET", "/orgs/"+org.Id, nil)
		ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/members/"+eve.ID, nil)
	})
	t.Run("UnknownOrganization", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, bob, "POST", "/orgs/nosuchorganization000/join", nil)
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "POST", join, nil)
	})
}

func TestOrganizationAgentInstructions(t *testing.T) {
	t.Parallel()
	c := newCast(t, "rita:read")
	ts, alice, reader, outsider, org := c.testServer, c.alice, c.rita, c.outsider, c.org
	path := "/orgs/" + org.Id + "/agent-instructions"
	doc := map[string]any{
		"object": "document",
		"data":   map[string]any{"schemaVersion": 1, "theme": "terse"},
		"nodes": []any{
			map[string]any{"object": "block", "type": "paragraph", "key": "p1", "data": map[string]any{},
				"nodes": []any{
					map[string]any{"object": "text", "key": "t1", "leaves": []any{
						map[string]any{"object": "leaf", "text": "Answer in ", "marks": []any{}},
						map[string]any{"object": "leaf", "text": "English", "marks": []any{map[string]any{"object": "mark", "type": "bold"}}},
						map[string]any{"object": "leaf", "text": ".", "marks": []any{}}}},
				}},
		},
	}

	t.Run("EmptyDocumentBeforeAnyWrite", func(t *testing.T) {
		ai := getJSON[gen.AgentInstructions](t, ts, alice, path)
		empty := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}
		if !jsonEqual(t, ai.Instructions, empty) {
			t.Fatalf("instructions before any write = %s", mustJSONText(t, ai.Instructions))
		}
		if ai.Object != gen.AgentInstructionsObjectAgentInstructions || ai.UpdatedBy != "" ||
			ai.Urls.Location != testBaseURL+"/v1"+path {
			t.Fatalf("agent instructions = %s", mustJSONText(t, ai))
		}
	})
	t.Run("PutThenGet", func(t *testing.T) {
		ts.Clock.Advance(time.Hour)
		put := sendJSON[gen.AgentInstructions](t, ts, http.StatusOK, alice, "PUT", path, map[string]any{"instructions": doc})
		if !jsonEqual(t, put.Instructions, doc) || put.UpdatedBy != alice.ID {
			t.Fatalf("PUT answered %s", mustJSONText(t, put))
		}
		for _, u := range []*testUser{alice, reader} {
			got := getJSON[gen.AgentInstructions](t, ts, u, path)
			if !jsonEqual(t, got.Instructions, doc) {
				t.Fatalf("GET answered %s, want %s", mustJSONText(t, got.Instructions), mustJSONText(t, doc))
			}
			if got.UpdatedBy != alice.ID || !got.UpdatedAt.Equal(put.UpdatedAt) || !got.UpdatedAt.After(org.CreatedAt) {
				t.Fatalf("GET updatedBy %q at %v, want %q at %v", got.UpdatedBy, got.UpdatedAt, alice.ID, put.UpdatedAt)
			}
		}
	})
	t.Run("ReadMemberCannotWrite", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, reader, "PUT", path,
			map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}})
		got := getJSON[gen.AgentInstructions](t, ts, alice, path)
		if !jsonEqual(t, got.Instructions, doc) || got.UpdatedBy != alice.ID {
			t.Fatalf("after a forbidden PUT: %s", mustJSONText(t, got))
		}
	})
	t.Run("UnknownTopLevelProperty", func(t *testing.T) {
		ts.Expect(t, http.StatusBadRequest, alice, "PUT", path,
			map[string]any{"instructions": doc, "format": "markdown"})
	})
	t.Run("NotADocument", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PUT", path,
			map[string]any{"instructions": map[string]any{"object": "block", "data": map[string]any{}, "nodes": []any{}}}), "instructions")
		ts.Expect(t, http.StatusBadRequest, alice, "PUT", path, map[string]any{})
	})
	t.Run("UserOfAnotherOrganization", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, outsider, "GET", path, nil)
		ts.Expect(t, http.StatusNotFound, outsider, "PUT", path, map[string]any{"instructions": doc})
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "GET", path, nil)
		ts.Expect(t, http.StatusUnauthorized, nil, "PUT", path, map[string]any{"instructions": doc})
	})
}

func TestGetOrganizationsForEmailDomain(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob")
	ts, alice, colleague, outsider, org := c.testServer, c.alice, c.bob, c.outsider, c.org
	ts.MustCreateOrg(t, alice, "Acme Private") // allows no domain
	orgPatch(t, ts, alice, org.Id, map[string]any{"emailDomains": []string{"acme.test"}})

	list := func(t *testing.T, u *testUser, domain string) []gen.Organization {
		t.Helper()
		out := getJSON[gen.OrganizationsForEmailDomain](t, ts, u, "/email-domains/"+domain+"/orgs")
		return out.Organizations
	}

	t.Run("OwnDomainListsTheOrganization", func(t *testing.T) {
		orgs := list(t, alice, "acme.test")
		if got := idsOf(orgs); !reflect.DeepEqual(got, []string{org.Id}) {
			t.Fatalf("organizations for acme.test = %v, want [%s]", got, org.Id)
		}
		if !orgs[0].Permissions.Admin {
			t.Fatalf("alice's permissions there = %+v", orgs[0].Permissions)
		}
		if got := idsOf(list(t, alice, "ACME.test")); !reflect.DeepEqual(got, []string{org.Id}) {
			t.Fatalf("organizations for ACME.test = %v", got)
		}
	})
	t.Run("ColleagueWhoIsNotYetAMember", func(t *testing.T) {
		orgs := list(t, colleague, "acme.test")
		if got := idsOf(orgs); !reflect.DeepEqual(got, []string{org.Id}) {
			t.Fatalf("organizations for bob = %v", got)
		}
		if p := orgs[0].Permissions; p.View || p.Admin || p.ListMembers {
			t.Fatalf("a non-member's permissions = %+v", p)
		}
	})
	t.Run("AnotherDomainListsNothing", func(t *testing.T) {
		if got := list(t, alice, "elsewhere.test"); len(got) != 0 {
			t.Fatalf("alice asking for elsewhere.test got %v", idsOf(got))
		}
		if got := list(t, outsider, "acme.test"); len(got) != 0 {
			t.Fatalf("olga asking for acme.test got %v", idsOf(got))
		}
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "GET", "/email-domains/acme.test/orgs", nil)
	})
}
