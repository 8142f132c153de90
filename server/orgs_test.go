package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// orgGet re-reads an organization through the API as u.
func orgGet(t *testing.T, ts *testServer, u *testUser, orgID string) gen.Organization {
	t.Helper()
	return getJSON[gen.Organization](t, ts, u, "/orgs/"+orgID)
}

// orgPatch updates an organization and returns what the update answered.
func orgPatch(t *testing.T, ts *testServer, u *testUser, orgID string, body any) gen.Organization {
	t.Helper()
	return sendJSON[gen.Organization](t, ts, http.StatusOK, u, "PATCH", "/orgs/"+orgID, body)
}

// orgList lists the organizations of u with a query string ("" for none).
func orgList(t *testing.T, ts *testServer, u *testUser, query string) gen.OrganizationList {
	t.Helper()
	return getJSON[gen.OrganizationList](t, ts, u, "/orgs"+query)
}

// orgRole is an organization's defaultRole as text: "" when absent, "null" for a guest default.
func orgRole(o gen.Organization) string {
	if !o.DefaultRole.IsSpecified() {
		return ""
	}
	if o.DefaultRole.IsNull() {
		return "null"
	}
	r, _ := o.DefaultRole.Get()
	return string(r)
}

// jsonEqual reports whether two JSON values are the same once decoded.
func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	norm := func(v any) any {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	return reflect.DeepEqual(norm(a), norm(b))
}

func TestListOrganizationsForAuthenticatedUser(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@acme.test", "Alice")
	bob := ts.MustCreateUser(t, "bob@other.test", "Bob")
	first := ts.MustCreateOrg(t, alice, "First")
	second := ts.MustCreateOrg(t, alice, "Second")
	third := ts.MustCreateOrg(t, alice, "Third")
	bobs := ts.MustCreateOrg(t, bob, "Bob's")

	t.Run("PagesOldestFirst", func(t *testing.T) {
		p1 := orgList(t, ts, alice, "?limit=2")
		if got, want := idsOf(p1.Items), []string{first.Id, second.Id}; !reflect.DeepEqual(got, want) {
			t.Fatalf("page 1 = %v, want %v", got, want)
		}
		if p1.Count != 3 {
			t.Fatalf("page 1 count = %d, want 3", p1.Count)
		}
		if p1.Next == nil || p1.Next.Page == "" {
			t.Fatal("page 1 has no next page")
		}
		p2 := orgList(t, ts, alice, "?limit=2&page="+url.QueryEscape(p1.Next.Page))
		if got, want := idsOf(p2.Items), []string{third.Id}; !reflect.DeepEqual(got, want) {
			t.Fatalf("page 2 = %v, want %v", got, want)
		}
		if p2.Count != 3 || p2.Next != nil {
			t.Fatalf("page 2 count = %d next = %v, want 3 and no next", p2.Count, p2.Next)
		}
	})
	t.Run("WithoutLimitAllOnOnePage", func(t *testing.T) {
		l := orgList(t, ts, alice, "")
		if got, want := idsOf(l.Items), []string{first.Id, second.Id, third.Id}; !reflect.DeepEqual(got, want) || l.Next != nil {
			t.Fatalf("list = %v next %v, want %v", got, l.Next, want)
		}
		for _, o := range l.Items {
			if !o.Permissions.Admin || orgRole(o) != "read" {
				t.Fatalf("org %s: admin %v defaultRole %q", o.Id, o.Permissions.Admin, orgRole(o))
			}
		}
	})
	t.Run("OtherUsersOrganizationsLeftOut", func(t *testing.T) {
		l := orgList(t, ts, bob, "")
		if got, want := idsOf(l.Items), []string{bobs.Id}; !reflect.DeepEqual(got, want) || l.Count != 1 {
			t.Fatalf("bob's list = %v count %d, want %v count 1", got, l.Count, want)
		}
		for _, id := range idsOf(orgList(t, ts, alice, "").Items) {
			if id == bobs.Id {
				t.Fatal("alice's list shows bob's organization")
			}
		}
	})
	t.Run("BadPageCursor", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs?page=not-a-cursor", nil), "page")
	})
	t.Run("CursorOfAnotherShape", func(t *testing.T) {
		// Valid base64 of a JSON array, but not a cursor this list made.
		ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs?page=WyJhIl0", nil)
	})
	t.Run("LimitOutOfRange", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs?limit=0", nil), `"limit"`)
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs?limit=1001", nil), `"limit"`)
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "GET", "/orgs", nil)
	})
}

func TestCreateOrganization(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@acme.test", "Alice")

	t.Run("CallerBecomesAdmin", func(t *testing.T) {
		o := sendJSON[gen.Organization](t, ts, http.StatusCreated, alice, "POST", "/orgs", map[string]any{"title": "Acme Docs"})
		if o.Object != gen.OrganizationObjectOrganization || o.Id == "" || o.Title != "Acme Docs" {
			t.Fatalf("created %+v", o)
		}
		if o.Urls.Location != testBaseURL+"/v1/orgs/"+o.Id {
			t.Fatalf("urls.location = %q", o.Urls.Location)
		}
		if !o.Permissions.Admin || !o.Permissions.View || !o.Permissions.CreateContent || !o.Permissions.ListMembers {
			t.Fatalf("creator permissions = %+v", o.Permissions)
		}
		if orgRole(o) != "read" || o.MergeRules.Type != gen.MergeRulesTypeNone || len(o.EmailDomains) != 0 ||
			!o.InviteLinks || o.Hostname != nil || o.DefaultContent != nil || *o.Sso || *o.Ai {
			t.Fatalf("defaults of a new organization: %s", mustJSONText(t, o))
		}
		got := orgGet(t, ts, alice, o.Id)
		if got.Title != "Acme Docs" || !got.CreatedAt.Equal(o.CreatedAt) {
			t.Fatalf("re-read %q created %v, want %q %v", got.Title, got.CreatedAt, "Acme Docs", o.CreatedAt)
		}
		me := getJSON[gen.Member](t, ts, alice, "/orgs/"+o.Id+"/members/"+alice.ID)
		if memberRole(me) != "admin" {
			t.Fatalf("creator's role = %q, want admin", memberRole(me))
		}
	})
	t.Run("TitleLengths", func(t *testing.T) {
		before := orgList(t, ts, alice, "").Count
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs", map[string]any{"title": "A"}), "title")
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs",
			map[string]any{"title": strings.Repeat("t", 256)}), "title")
		if after := orgList(t, ts, alice, "").Count; after != before {
			t.Fatalf("rejected creations changed the count: %d -> %d", before, after)
		}
		for _, title := range []string{"Ab", strings.Repeat("t", 255)} {
			o := ts.MustCreateOrg(t, alice, title)
			if orgGet(t, ts, alice, o.Id).Title != title {
				t.Fatalf("title of %d characters not kept", len(title))
			}
		}
	})
	t.Run("MissingTitle", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs", map[string]any{}), "title")
	})
	t.Run("WithEmailDomains", func(t *testing.T) {
		o := sendJSON[gen.Organization](t, ts, http.StatusCreated, alice, "POST", "/orgs", map[string]any{"title": "Domains", "emailDomains": []string{"acme.test", "docs.test"}})
		if got := orgGet(t, ts, alice, o.Id); !reflect.DeepEqual(got.EmailDomains, []string{"acme.test", "docs.test"}) || !reflect.DeepEqual(o.EmailDomains, got.EmailDomains) {
			t.Fatalf("created with %q, reads %q", o.EmailDomains, got.EmailDomains)
		}
		before := orgList(t, ts, alice, "").Count
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs", map[string]any{"title": "Bad", "emailDomains": []string{"not a domain"}}), "emailDomains")
		if after := orgList(t, ts, alice, "").Count; after != before {
			t.Fatalf("a refused creation made an organization: %d -> %d", before, after)
		}
	})
	t.Run("UnknownProperty", func(t *testing.T) {
		ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs", map[string]any{"title": "Acme", "plan": "pro"})
	})
	t.Run("NotJSON", func(t *testing.T) {
		ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs", []byte(`{"title":`))
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "POST", "/orgs", map[string]any{"title": "Acme"})
	})
}

// mustJSONText is v as JSON, for failure messages.
func mustJSONText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGetOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "rita:read", "gus:guest")
	ts, alice, reader, guest, outsider, org := c.testServer, c.alice, c.rita, c.gus, c.outsider, c.org

	t.Run("Admin", func(t *testing.T) {
		o := orgGet(t, ts, alice, org.Id)
		if o.Id != org.Id || o.Title != "Acme" || !o.Permissions.Admin || !o.Permissions.ViewBilling {
			t.Fatalf("admin sees %s", mustJSONText(t, o))
		}
		if o.Urls.App != testBaseURL+"/app/o/"+org.Id {
			t.Fatalf("urls.app = %q", o.Urls.App)
		}
	})
	t.Run("ReadMemberPermissions", func(t *testing.T) {
		p := orgGet(t, ts, reader, org.Id).Permissions
		if !p.View || p.Admin || p.CreateContent || !p.ListMembers || !p.ListTeams || p.ViewBilling || p.InstallIntegration {
			t.Fatalf("read member permissions = %+v", p)
		}
	})
	t.Run("GuestPermissions", func(t *testing.T) {
		p := orgGet(t, ts, guest, org.Id).Permissions
		if !p.View || p.Admin || p.ListMembers || p.ListTeams || p.CreateContent {
			t.Fatalf("guest permissions = %+v", p)
		}
	})
	t.Run("UserOfAnotherOrganization", func(t *testing.T) {
		wantMessage(t, ts.Expect(t, http.StatusNotFound, outsider, "GET", "/orgs/"+org.Id, nil), "Organization")
	})
	t.Run("UnknownID", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/nosuchorganization000", nil)
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "GET", "/orgs/"+org.Id, nil)
	})
}

func TestUpdateOrganizationById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "rita:read")
	ts, alice, reader, outsider, org := c.testServer, c.alice, c.rita, c.outsider, c.org
	other := ts.MustCreateOrg(t, alice, "Acme Labs")
	path := "/orgs/" + org.Id

	t.Run("Title", func(t *testing.T) {
		o := orgPatch(t, ts, alice, org.Id, map[string]any{"title": "Acme Inc"})
		if o.Title != "Acme Inc" {
			t.Fatalf("answered title %q", o.Title)
		}
		got := orgGet(t, ts, alice, org.Id)
		if got.Title != "Acme Inc" || !reflect.DeepEqual(got.EmailDomains, []string{"readers.test"}) {
			t.Fatalf("re-read title %q domains %v", got.Title, got.EmailDomains)
		}
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path, map[string]any{"title": "A"}), "title")
		if got := orgGet(t, ts, alice, org.Id).Title; got != "Acme Inc" {
			t.Fatalf("rejected title changed it to %q", got)
		}
	})
	t.Run("EmailDomains", func(t *testing.T) {
		o := orgPatch(t, ts, alice, org.Id, map[string]any{"emailDomains": []string{"acme.test", "docs.acme.test", "acme.test"}})
		want := []string{"acme.test", "docs.acme.test"}
		if !reflect.DeepEqual(o.EmailDomains, want) {
			t.Fatalf("answered domains %v, want %v (in order, once each)", o.EmailDomains, want)
		}
		if got := orgGet(t, ts, alice, org.Id).EmailDomains; !reflect.DeepEqual(got, want) {
			t.Fatalf("re-read domains %v, want %v", got, want)
		}
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path,
			map[string]any{"emailDomains": []string{"not a domain"}}), "emailDomains")
		if got := orgGet(t, ts, alice, org.Id).EmailDomains; !reflect.DeepEqual(got, want) {
			t.Fatalf("rejected domains changed them to %v", got)
		}
		if o := orgPatch(t, ts, alice, org.Id, map[string]any{"emailDomains": []string{}}); len(o.EmailDomains) != 0 {
			t.Fatalf("emptied domains answered %v", o.EmailDomains)
		}
		if got := orgGet(t, ts, alice, org.Id).EmailDomains; len(got) != 0 {
			t.Fatalf("re-read emptied domains %v", got)
		}
	})
	t.Run("Hostname", func(t *testing.T) {
		o := orgPatch(t, ts, alice, org.Id, map[string]any{"hostname": "acme-docs"})
		if o.Hostname == nil || *o.Hostname != "acme-docs" {
			t.Fatalf("answered hostname %v", o.Hostname)
		}
		if h := orgGet(t, ts, alice, org.Id).Hostname; h == nil || *h != "acme-docs" {
			t.Fatalf("re-read hostname %v", h)
		}
		for _, bad := range []string{"Acme_Docs", "ab", "-acme", "acme-", strings.Repeat("a", 33)} {
			wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path, map[string]any{"hostname": bad}), "hostname")
		}
		// The same hostname again is no conflict with itself.
		orgPatch(t, ts, alice, org.Id, map[string]any{"hostname": "acme-docs"})
	})
	t.Run("HostnameTakenByAnotherOrganization", func(t *testing.T) {
		r := ts.Expect(t, http.StatusConflict, alice, "PATCH", "/orgs/"+other.Id,
			map[string]any{"hostname": "acme-docs", "title": "Renamed"})
		wantMessage(t, r, "hostname")
		got := orgGet(t, ts, alice, other.Id)
		if got.Hostname != nil || got.Title != "Acme Labs" {
			t.Fatalf("after the conflict, other has hostname %v title %q: the update was not all or nothing", got.Hostname, got.Title)
		}
		if h := orgGet(t, ts, alice, org.Id).Hostname; h == nil || *h != "acme-docs" {
			t.Fatalf("the owner of the hostname now has %v", h)
		}
	})
	t.Run("DefaultRole", func(t *testing.T) {
		if o := orgPatch(t, ts, alice, org.Id, map[string]any{"defaultRole": "edit"}); orgRole(o) != "edit" {
			t.Fatalf("answered defaultRole %q", orgRole(o))
		}
		orgPatch(t, ts, alice, org.Id, map[string]any{"title": "Acme Inc"})
		if got := orgRole(orgGet(t, ts, alice, org.Id)); got != "edit" {
			t.Fatalf("a body without defaultRole changed it to %q", got)
		}
		r := ts.Expect(t, http.StatusOK, alice, "PATCH", path, []byte(`{"defaultRole":null}`))
		if m := r.Map(t); m["defaultRole"] != nil {
			t.Fatalf("explicit null answered defaultRole %v", m["defaultRole"])
		} else if _, present := m["defaultRole"]; !present {
			t.Fatal("a guest default is answered as defaultRole: null, not left out")
		}
		if got := orgRole(orgGet(t, ts, alice, org.Id)); got != "null" {
			t.Fatalf("re-read defaultRole %q, want null (guest)", got)
		}
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path, map[string]any{"defaultRole": "owner"}), "defaultRole")
		orgPatch(t, ts, alice, org.Id, map[string]any{"defaultRole": "read"})
	})
	t.Run("DefaultContentNeedsAnExistingSite", func(t *testing.T) {
		r := ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path,
			map[string]any{"defaultContent": map[string]any{"type": "site", "site": "site123"}})
		wantMessage(t, r, "defaultContent")
		if dc := orgGet(t, ts, alice, org.Id).DefaultContent; dc != nil {
			t.Fatalf("rejected defaultContent stored: %+v", dc)
		}
		if o := orgPatch(t, ts, alice, org.Id, []byte(`{"defaultContent":null}`)); o.DefaultContent != nil {
			t.Fatalf("null defaultContent answered %+v", o.DefaultContent)
		}
		ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path,
			map[string]any{"defaultContent": map[string]any{"type": "space", "site": "site123"}})
	})
	t.Run("Logo", func(t *testing.T) {
		logo := "https://cdn.acme.test/logo.png"
		if o := orgPatch(t, ts, alice, org.Id, map[string]any{"logo": logo}); o.Urls.Logo == nil || *o.Urls.Logo != logo {
			t.Fatalf("answered urls.logo %v", o.Urls.Logo)
		}
		if l := orgGet(t, ts, alice, org.Id).Urls.Logo; l == nil || *l != logo {
			t.Fatalf("re-read urls.logo %v", l)
		}
		if o := orgPatch(t, ts, alice, org.Id, []byte(`{"logo":null}`)); o.Urls.Logo != nil {
			t.Fatalf("null logo answered urls.logo %q", *o.Urls.Logo)
		}
		if l := orgGet(t, ts, alice, org.Id).Urls.Logo; l != nil {
			t.Fatalf("re-read urls.logo %q after removing it", *l)
		}
	})
	t.Run("Flags", func(t *testing.T) {
		o := orgPatch(t, ts, alice, org.Id, map[string]any{"sso": true, "ai": true, "inviteLinks": false})
		if !*o.Sso || !*o.Ai || o.InviteLinks {
			t.Fatalf("answered sso %v ai %v inviteLinks %v", *o.Sso, *o.Ai, o.InviteLinks)
		}
		got := orgGet(t, ts, alice, org.Id)
		if !*got.Sso || !*got.Ai || got.InviteLinks {
			t.Fatalf("re-read sso %v ai %v inviteLinks %v", *got.Sso, *got.Ai, got.InviteLinks)
		}
		orgPatch(t, ts, alice, org.Id, map[string]any{"ai": false})
		got = orgGet(t, ts, alice, org.Id)
		if !*got.Sso || *got.Ai || got.InviteLinks {
			t.Fatalf("changing ai alone: sso %v ai %v inviteLinks %v", *got.Sso, *got.Ai, got.InviteLinks)
		}
		ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path, map[string]any{"sso": "yes"})
	})
	t.Run("MergeRules", func(t *testing.T) {
		rules := map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "require_specific_reviewers", "users": []string{alice.ID}},
		}}
		o := orgPatch(t, ts, alice, org.Id, map[string]any{"mergeRules": rules})
		if !jsonEqual(t, o.MergeRules, rules) {
			t.Fatalf("answered mergeRules %s", mustJSONText(t, o.MergeRules))
		}
		if got := orgGet(t, ts, alice, org.Id).MergeRules; !jsonEqual(t, got, rules) {
			t.Fatalf("re-read mergeRules %s", mustJSONText(t, got))
		}
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path,
			map[string]any{"mergeRules": map[string]any{"type": "inherit"}}), "mergeRules")
		wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path,
			map[string]any{"mergeRules": map[string]any{"type": "rules"}}), "mergeRules")
		ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path,
			map[string]any{"mergeRules": map[string]any{"type": "none", "rules": []any{}}})
		if got := orgGet(t, ts, alice, org.Id).MergeRules; !jsonEqual(t, got, rules) {
			t.Fatalf("rejected merge rules changed them to %s", mustJSONText(t, got))
		}
		o = orgPatch(t, ts, alice, org.Id, map[string]any{"mergeRules": map[string]any{"type": "none"}})
		if o.MergeRules.Type != gen.MergeRulesTypeNone || o.MergeRules.Rules != nil {
			t.Fatalf("answered mergeRules %s", mustJSONText(t, o.MergeRules))
		}
	})
	t.Run("UnknownProperty", func(t *testing.T) {
		ts.Expect(t, http.StatusBadRequest, alice, "PATCH", path, map[string]any{"name": "Acme"})
	})
	t.Run("ReadMemberForbidden", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, reader, "PATCH", path, map[string]any{"title": "Hijacked"})
		if got := orgGet(t, ts, alice, org.Id).Title; got == "Hijacked" {
			t.Fatal("a read member renamed the organization")
		}
	})
	t.Run("UserOfAnotherOrganization", func(t *testing.T) {
		ts.Expect(t, http.StatusNotFound, outsider, "PATCH", path, map[string]any{"title": "Hijacked"})
		if got := orgGet(t, ts, alice, org.Id).Title; got == "Hijacked" {
			t.Fatal("an outsider renamed the organization")
		}
	})
	t.Run("NoToken", func(t *testing.T) {
		ts.Expect(t, http.StatusUnauthorized, nil, "PATCH", path, map[string]any{"title": "Hijacked"})
	})
}

func TestDeleteOrganizationInviteById(t *testing.T) {
	t.Parallel()
	c := newCast(t, "rita:read")
	ts, alice, reader, path := c.testServer, c.alice, c.rita, "/orgs/"+c.org.Id+"/link-invites/inv123"

	t.Run("AdminDeletesUnknownInvite", func(t *testing.T) {
		r := ts.Expect(t, http.StatusNoContent, alice, "DELETE", path, nil)
		if len(r.Body) != 0 {
			t.Fatalf("204 with a body: %s", r.Body)
		}
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", path, nil)
	})
	t.Run("ReadMemberForbidden", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, reader, "DELETE", path, nil)
	})
	c.strangers(t, "DELETE", path, nil)
}
