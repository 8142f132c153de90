package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
)

// memberGet re-reads a member through the API as u.
func memberGet(t *testing.T, ts *testServer, u *testUser, orgID, userID string) gen.Member {
	t.Helper()
	return getJSON[gen.Member](t, ts, u, "/orgs/"+orgID+"/members/"+userID)
}

// memberRole is a member's role as text, "" for a guest.
func memberRole(m gen.Member) string {
	r, _ := m.Role.Get()
	return string(r)
}

// memberList lists an organization's members as u with a query string ("" for none).
func memberList(t *testing.T, ts *testServer, u *testUser, orgID, query string) gen.MemberList {
	t.Helper()
	return getJSON[gen.MemberList](t, ts, u, "/orgs/"+orgID+"/members"+query)
}

func TestListMembersInOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "carol:edit", "dave:guest")
	ts, alice, bob, carol, dave, org := c.testServer, c.alice, c.bob, c.carol, c.dave, c.org
	all := []string{dave.ID, carol.ID, bob.ID, alice.ID} // newest joined first

	t.Run("NewestJoinedFirstByDefault", func(t *testing.T) {
		l := memberList(t, ts, alice, org.Id, "")
		if got := idsOf(l.Items); !reflect.DeepEqual(got, all) || l.Count != 4 || l.Next != nil {
			t.Fatalf("members = %v count %d next %v, want %v count 4", got, l.Count, l.Next, all)
		}
		b := l.Items[2]
		if b.Object != gen.MemberObjectMember || memberRole(b) != "read" || b.User.DisplayName != "Bob Builder" ||
			b.User.Email == nil || *b.User.Email != "bob@acme.test" || b.LastSeenAt != nil || b.Sso || b.Disabled {
			t.Fatalf("bob listed as %s", mustJSONText(t, b))
		}
		if !l.Items[0].Role.IsNull() {
			t.Fatalf("dave (a guest) listed with role %q", memberRole(l.Items[0]))
		}
	})
	t.Run("OrderAsc", func(t *testing.T) {
		want := []string{alice.ID, bob.ID, carol.ID, dave.ID}
		if got := idsOf(memberList(t, ts, alice, org.Id, "?order=asc").Items); !reflect.DeepEqual(got, want) {
			t.Fatalf("asc = %v, want %v", got, want)
		}
		if got := idsOf(memberList(t, ts, alice, org.Id, "?order=desc").Items); !reflect.DeepEqual(got, all) {
			t.Fatalf("desc = %v, want %v", got, all)
		}
	})
	t.Run("RoleFilter", func(t *testing.T) {
		for role, want := range map[string][]string{
			"admin": {alice.ID}, "read": {bob.ID}, "edit": {carol.ID}, "guest": {dave.ID}, "create": {},
		} {
			l := memberList(t, ts, alice, org.Id, "?role="+role)
			if got := idsOf(l.Items); !reflect.DeepEqual(got, want) || l.Count != len(want) {
				t.Fatalf("role=%s: %v count %d, want %v", role, got, l.Count, want)
			}
		}
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs/"+org.Id+"/members?role=owner", nil), `"role"`)
	})
	t.Run("SearchDisplayNameAndEmailIgnoringCase", func(t *testing.T) {
		for search, want := range map[string][]string{
			"BUILDER":   {bob.ID},
			"singer":    {carol.ID},
			"ACME.TEST": {bob.ID, alice.ID},
			"partners":  {carol.ID},
			"a":         all,
			"%":         {},
			"_":         {},
			"zebra":     {},
		} {
			l := memberList(t, ts, alice, org.Id, "?search="+url.QueryEscape(search))
			if got := idsOf(l.Items); !reflect.DeepEqual(got, want) || l.Count != len(want) {
				t.Fatalf("search %q: %v count %d, want %v", search, got, l.Count, want)
			}
		}
		l := memberList(t, ts, alice, org.Id, "?search=acme&role=read")
		if got := idsOf(l.Items); !reflect.DeepEqual(got, []string{bob.ID}) {
			t.Fatalf("search acme and role read: %v", got)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		members := "/orgs/" + org.Id + "/members"
		wantIDs(t, "members in pages of 3", ts.listAll(t, alice, members, 3), all...)
		wantIDs(t, "members oldest first in pages of 2", ts.listAll(t, alice, members+"?order=asc", 2), alice.ID, bob.ID, carol.ID, dave.ID)
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs/"+org.Id+"/members?page=bogus", nil), "page")
	})
	t.Run("SortByLastSeenListsOnlyMembersWhoPinged", func(t *testing.T) {
		if l := memberList(t, ts, alice, org.Id, "?sort=lastSeenAt"); len(l.Items) != 0 || l.Count != 0 {
			t.Fatalf("before any ping: %v count %d", idsOf(l.Items), l.Count)
		}
		ts.Expect(t, http.StatusOK, carol, "POST", "/orgs/"+org.Id+"/ping", nil)
		ts.Clock.Advance(time.Minute)
		ts.Expect(t, http.StatusOK, bob, "POST", "/orgs/"+org.Id+"/ping", nil)
		ts.Clock.Advance(time.Minute)
		ts.Expect(t, http.StatusOK, dave, "POST", "/orgs/"+org.Id+"/ping", nil)
		l := memberList(t, ts, alice, org.Id, "?sort=lastSeenAt")
		if got, want := idsOf(l.Items), []string{dave.ID, bob.ID, carol.ID}; !reflect.DeepEqual(got, want) || l.Count != 3 {
			t.Fatalf("sort=lastSeenAt: %v count %d, want %v", got, l.Count, want)
		}
		asc := memberList(t, ts, alice, org.Id, "?sort=lastSeenAt&order=asc")
		if got, want := idsOf(asc.Items), []string{carol.ID, bob.ID, dave.ID}; !reflect.DeepEqual(got, want) {
			t.Fatalf("sort=lastSeenAt&order=asc: %v, want %v", got, want)
		}
		p1 := memberList(t, ts, alice, org.Id, "?sort=lastSeenAt&limit=2")
		p2 := memberList(t, ts, alice, org.Id, "?sort=lastSeenAt&limit=2&page="+url.QueryEscape(p1.Next.Page))
		if got, want := append(idsOf(p1.Items), idsOf(p2.Items)...), []string{dave.ID, bob.ID, carol.ID}; !reflect.DeepEqual(got, want) {
			t.Fatalf("sort=lastSeenAt in pages of 2: %v, want %v", got, want)
		}
		if l := memberList(t, ts, alice, org.Id, "?sort=lastSeenAt&role=guest"); !reflect.DeepEqual(idsOf(l.Items), []string{dave.ID}) {
			t.Fatalf("sort=lastSeenAt&role=guest: %v", idsOf(l.Items))
		}
	})
	t.Run("ReadMemberMayList", func(t *testing.T) {
		if l := memberList(t, ts, bob, org.Id, ""); l.Count != 4 {
			t.Fatalf("bob sees %d members", l.Count)
		}
	})
	c.strangers(t, "GET", "/orgs/"+org.Id+"/members", nil)
}

func TestGetMemberInOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "dave:guest")
	ts, alice, bob, dave, outsider, org := c.testServer, c.alice, c.bob, c.dave, c.outsider, c.org
	ts.MustCreateSpace(t, alice, org.Id, "Handbook", "")

	t.Run("AdminReadsAMember", func(t *testing.T) {
		m := memberGet(t, ts, alice, org.Id, bob.ID)
		if m.Id != bob.ID || m.User.Id != bob.ID || memberRole(m) != "read" || m.User.DisplayName != "Bob Builder" ||
			m.Spaces != 1 || m.Teams != 0 || m.JoinedAt.IsZero() || m.User.Urls.Location != testBaseURL+"/v1/users/"+bob.ID {
			t.Fatalf("bob = %s", mustJSONText(t, m))
		}
	})
	t.Run("MemberReadsThemself", func(t *testing.T) {
		if m := memberGet(t, ts, bob, org.Id, bob.ID); memberRole(m) != "read" {
			t.Fatalf("bob reads himself as %q", memberRole(m))
		}
	})
	t.Run("GuestReadsThemself", func(t *testing.T) {
		m := memberGet(t, ts, dave, org.Id, dave.ID)
		if !m.Role.IsNull() || m.Spaces != 0 {
			t.Fatalf("dave = role %q spaces %d, want a guest with no spaces", memberRole(m), m.Spaces)
		}
	})
	t.Run("NotAMember", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/members/"+outsider.ID, nil)
		ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/"+org.Id+"/members/nosuchuser", nil)
	})
	c.strangers(t, "GET", c.memberPath(bob), nil)
}

func TestUpdateMemberInOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "carol:read")
	ts, alice, bob, carol, outsider, org, path := c.testServer, c.alice, c.bob, c.carol, c.outsider, c.org, c.memberPath
	ts.MustCreateSpace(t, alice, org.Id, "Handbook", "")

	t.Run("ChangeRole", func(t *testing.T) {
		m := sendJSON[gen.Member](t, ts, http.StatusOK, alice, "PATCH", path(bob), map[string]any{"role": "edit"})
		if m.Id != bob.ID || memberRole(m) != "edit" {
			t.Fatalf("answered %s", mustJSONText(t, m))
		}
		if got := memberRole(memberGet(t, ts, alice, org.Id, bob.ID)); got != "edit" {
			t.Fatalf("re-read role %q, want edit", got)
		}
		if p := orgGet(t, ts, bob, org.Id).Permissions; !p.View || p.Admin || p.CreateContent {
			t.Fatalf("bob's organization permissions as an editor = %+v", p)
		}
	})
	t.Run("ToGuestAndBack", func(t *testing.T) {
		r := ts.Expect(t, http.StatusOK, alice, "PATCH", path(carol), []byte(`{"role":null}`))
		if m := r.Map(t); m["role"] != nil {
			t.Fatalf("answered role %v, want null", m["role"])
		}
		m := memberGet(t, ts, alice, org.Id, carol.ID)
		if !m.Role.IsNull() || m.Spaces != 0 {
			t.Fatalf("re-read role %q spaces %d, want a guest with no spaces", memberRole(m), m.Spaces)
		}
		ts.Expect(t, http.StatusOK, alice, "PATCH", path(carol), map[string]any{"role": "read"})
		if m := memberGet(t, ts, alice, org.Id, carol.ID); memberRole(m) != "read" || m.Spaces != 1 {
			t.Fatalf("back to read: role %q spaces %d", memberRole(m), m.Spaces)
		}
	})
	t.Run("DemotingTheLastAdmin", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusConflict, alice, "PATCH", path(alice), map[string]any{"role": "read"}), "admin")
		ts.Expect(t, http.StatusConflict, alice, "PATCH", path(alice), []byte(`{"role":null}`))
		if got := memberRole(memberGet(t, ts, alice, org.Id, alice.ID)); got != "admin" {
			t.Fatalf("the last admin is now %q", got)
		}
		// Admin to admin is no demotion.
		ts.Expect(t, http.StatusOK, alice, "PATCH", path(alice), map[string]any{"role": "admin"})
	})
	t.Run("DemotingAnAdminWhileAnotherRemains", func(t *testing.T) {
		ts.Expect(t, http.StatusOK, alice, "PATCH", path(carol), map[string]any{"role": "admin"})
		ts.Expect(t, http.StatusOK, carol, "PATCH", path(alice), map[string]any{"role": "create"})
		if got := memberRole(memberGet(t, ts, carol, org.Id, alice.ID)); got != "create" {
			t.Fatalf("alice is %q, want create", got)
		}
		ts.Expect(t, http.StatusConflict, carol, "PATCH", path(carol), map[string]any{"role": "read"})
		ts.Expect(t, http.StatusOK, carol, "PATCH", path(alice), map[string]any{"role": "admin"})
		ts.Expect(t, http.StatusOK, alice, "PATCH", path(carol), map[string]any{"role": "read"})
	})
	t.Run("CaseVariantOfRoleRejected", func(t *testing.T) {
		before := memberRole(memberGet(t, ts, alice, org.Id, bob.ID))
		ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path(bob), []byte(`{"role":"read","ROLE":"admin"}`))
		if got := memberRole(memberGet(t, ts, alice, org.Id, bob.ID)); got != before {
			t.Fatalf("role changed from %q to %q by a rejected body", before, got)
		}
	})
	t.Run("InvalidBodies", func(t *testing.T) {
		before := memberRole(memberGet(t, ts, alice, org.Id, bob.ID))
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path(bob), map[string]any{}), "role")
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path(bob), map[string]any{"role": "owner"}), "role")
		ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path(bob), map[string]any{"role": "read", "sso": true})
		if got := memberRole(memberGet(t, ts, alice, org.Id, bob.ID)); got != before {
			t.Fatalf("bob is %q after rejected bodies, want %q", got, before)
		}
	})
	t.Run("NotAMember", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "PATCH", path(outsider), map[string]any{"role": "read"})
		ts.Expect(t, http.StatusNotFound, outsider, "GET", "/orgs/"+org.Id, nil)
	})
	t.Run("ReadMemberForbidden", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, carol, "PATCH", path(bob), map[string]any{"role": "admin"})
		ts.Expect(t, http.StatusForbidden, carol, "PATCH", path(carol), map[string]any{"role": "admin"})
		if got := memberRole(memberGet(t, ts, alice, org.Id, carol.ID)); got != "read" {
			t.Fatalf("carol promoted herself to %q", got)
		}
	})
	c.strangers(t, "PATCH", path(bob), map[string]any{"role": "admin"})
}

func TestRemoveMemberFromOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "carol:edit", "dave:read")
	ts, alice, bob, carol, dave, outsider, org, path := c.testServer, c.alice, c.bob, c.carol, c.dave, c.outsider, c.org, c.memberPath
	team := teamCreate(t, ts, alice, org.Id, "Writers", carol.ID, dave.ID)

	t.Run("AdminRemovesAMember", func(t *testing.T) {
		r := ts.Expect(t, http.StatusNoContent, alice, "DELETE", path(carol), nil)
		if len(r.Body) != 0 {
			t.Fatalf("204 with a body: %s", r.Body)
		}
		ts.Expect(t, http.StatusNotFound, alice, "GET", path(carol), nil)
		ts.Expect(t, http.StatusNotFound, carol, "GET", "/orgs/"+org.Id, nil)
		if l := orgList(t, ts, carol, ""); l.Count != 0 {
			t.Fatalf("carol still lists %v", idsOf(l.Items))
		}
		if l := memberList(t, ts, alice, org.Id, ""); l.Count != 3 {
			t.Fatalf("%d members left, want 3", l.Count)
		}
		if got := teamGet(t, ts, alice, org.Id, team.Id); got.Members != 1 {
			t.Fatalf("team has %d members after carol left the organization, want 1", got.Members)
		}
	})
	t.Run("RemovingANonMemberIsNoError", func(t *testing.T) {
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", path(carol), nil)
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", "/orgs/"+org.Id+"/members/nosuchuser", nil)
		if l := memberList(t, ts, alice, org.Id, ""); l.Count != 3 {
			t.Fatalf("%d members left, want 3", l.Count)
		}
	})
	t.Run("RemovingTheLastAdmin", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusConflict, alice, "DELETE", path(alice), nil), "admin")
		if got := memberRole(memberGet(t, ts, alice, org.Id, alice.ID)); got != "admin" {
			t.Fatalf("alice is %q", got)
		}
	})
	t.Run("ReadMemberCannotRemoveAnother", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, bob, "DELETE", path(dave), nil)
		memberGet(t, ts, alice, org.Id, dave.ID)
		ts.Expect(t, http.StatusForbidden, bob, "DELETE", path(alice), nil)
	})
	t.Run("MemberLeaves", func(t *testing.T) {
		ts.Expect(t, http.StatusNoContent, bob, "DELETE", path(bob), nil)
		ts.Expect(t, http.StatusNotFound, bob, "GET", "/orgs/"+org.Id, nil)
		ts.Expect(t, http.StatusNotFound, alice, "GET", path(bob), nil)
		// Gone, bob can no longer even ask.
		ts.Expect(t, http.StatusNotFound, bob, "DELETE", path(bob), nil)
	})
	t.Run("UserOfAnotherOrganization", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, outsider, "DELETE", path(dave), nil)
		memberGet(t, ts, alice, org.Id, dave.ID)
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "DELETE", path(dave), nil)
	})
}

func TestUpdateOrganizationMemberLastSeenAt(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:edit")
	ts, alice, bob, outsider, org := c.testServer, c.alice, c.bob, c.outsider, c.org
	ping := "/orgs/" + org.Id + "/ping"

	// claims verifies a visitor token with a secret, as of a time.
	claims := func(t *testing.T, token string, secret []byte, at time.Time) (jwt.MapClaims, error) {
		t.Helper()
		c := jwt.MapClaims{}
		_, err := jwt.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return secret, nil },
			jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(func() time.Time { return at }))
		return c, err
	}

	t.Run("PingSetsLastSeenAtAndSignsClaims", func(t *testing.T) {
		if m := memberGet(t, ts, alice, org.Id, bob.ID); m.LastSeenAt != nil {
			t.Fatalf("lastSeenAt before any ping: %v", m.LastSeenAt)
		}
		res := sendJSON[gen.PingResponse](t, ts, http.StatusOK, bob, "POST", ping, nil)
		m := memberGet(t, ts, alice, org.Id, bob.ID)
		if m.LastSeenAt == nil || m.LastSeenAt.Before(m.JoinedAt) {
			t.Fatalf("lastSeenAt %v, joined %v", m.LastSeenAt, m.JoinedAt)
		}
		c, err := claims(t, res.PlatformVisitorClaims, ts.Secret, *m.LastSeenAt)
		if err != nil {
			t.Fatalf("platformVisitorClaims does not verify with the visitor secret: %v", err)
		}
		if c["sub"] != bob.ID || c["organization"] != org.Id {
			t.Fatalf("claims = %v, want sub %s organization %s", c, bob.ID, org.Id)
		}
		if c["email"] != "bob@acme.test" || c["role"] != "edit" {
			t.Fatalf("claims = %v, want bob's email and role", c)
		}
		if _, err := claims(t, res.PlatformVisitorClaims, []byte("another secret"), *m.LastSeenAt); err == nil {
			t.Fatal("the token verifies with another secret")
		}
		if _, err := claims(t, res.PlatformVisitorClaims, ts.Secret, m.LastSeenAt.Add(2*time.Hour)); err == nil {
			t.Fatal("the token is still valid two hours later")
		}
	})
	t.Run("PingAgainMovesLastSeenAt", func(t *testing.T) {
		before := *memberGet(t, ts, alice, org.Id, bob.ID).LastSeenAt
		ts.Clock.Advance(3 * time.Hour)
		ts.Expect(t, http.StatusOK, bob, "POST", ping, nil)
		after := *memberGet(t, ts, alice, org.Id, bob.ID).LastSeenAt
		if after.Sub(before) < 3*time.Hour {
			t.Fatalf("lastSeenAt moved from %v to %v, want 3h later", before, after)
		}
		if m := memberGet(t, ts, alice, org.Id, alice.ID); m.LastSeenAt != nil {
			t.Fatalf("bob's ping touched alice: %v", m.LastSeenAt)
		}
	})
	t.Run("UserOfAnotherOrganization", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, outsider, "POST", ping, nil)
		ts.Expect(t, http.StatusNotFound, alice, "POST", "/orgs/nosuchorganization000/ping", nil)
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "POST", ping, nil)
	})
}

func TestSetUserAsSSOMemberForOrganization(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read", "carol:read")
	ts, alice, bob, carol, outsider, org := c.testServer, c.alice, c.bob, c.carol, c.outsider, c.org
	path := func(u *testUser) string { return c.memberPath(u, "/sso") }

	t.Run("AdminMarksAMember", func(t *testing.T) {
		m := sendJSON[gen.Member](t, ts, http.StatusOK, alice, "POST", path(bob), nil)
		if m.Id != bob.ID || !m.Sso || memberRole(m) != "read" {
			t.Fatalf("answered %s", mustJSONText(t, m))
		}
		if !memberGet(t, ts, alice, org.Id, bob.ID).Sso {
			t.Fatal("re-read: bob is not an SSO member")
		}
		ts.Expect(t, http.StatusOK, alice, "POST", path(bob), nil) // again: still sso
		if memberGet(t, ts, alice, org.Id, carol.ID).Sso {
			t.Fatal("carol became an SSO member too")
		}
	})
	t.Run("ReadMemberForbidden", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, bob, "POST", path(carol), nil)
		if memberGet(t, ts, alice, org.Id, carol.ID).Sso {
			t.Fatal("a read member made carol an SSO member")
		}
	})
	t.Run("NotAMember", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "POST", path(outsider), nil)
	})
	c.strangers(t, "POST", path(carol), nil)
}
