package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// providerBody is a create body for a provider of idp.
func providerBody(idp *testIdP, label string) map[string]any {
	return map[string]any{"label": label, "entityID": idp.entityID, "certificate": idp.certPEM(), "ssoURL": idp.ssoURL}
}

func (ts *testServer) MustCreateSAMLProvider(t testing.TB, admin *testUser, orgID string, body map[string]any) gen.SAMLProvider {
	t.Helper()
	var p gen.SAMLProvider
	ts.Expect(t, http.StatusCreated, admin, "POST", "/orgs/"+orgID+"/saml", body).Decode(t, &p)
	return p
}

func TestSAMLProviders(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@acme.test", "Alice")
	bob := ts.MustCreateUser(t, "bob@acme.test", "Bob")
	olga := ts.MustCreateUser(t, "olga@elsewhere.test", "Olga")
	org := ts.MustCreateOrg(t, alice, "Acme")
	other := ts.MustCreateOrg(t, olga, "Elsewhere")
	ts.MustAddMember(t, alice, org.Id, bob, "create")
	var team, otherTeam gen.Team
	ts.Expect(t, http.StatusCreated, alice, "PUT", "/orgs/"+org.Id+"/teams", map[string]any{"title": "Engineering"}).Decode(t, &team)
	ts.Expect(t, http.StatusCreated, olga, "PUT", "/orgs/"+other.Id+"/teams", map[string]any{"title": "Theirs"}).Decode(t, &otherTeam)
	idp := newTestIdP(t, "https://idp.example/metadata")
	base := "/orgs/" + org.Id + "/saml"

	var p gen.SAMLProvider
	t.Run("Create", func(t *testing.T) {
		body := providerBody(idp, "Okta")
		body["defaultTeam"], body["defaultRole"] = team.Id, "edit"
		p = ts.MustCreateSAMLProvider(t, alice, org.Id, body)
		if p.Object != "saml-provider" || p.Label != "Okta" || p.EntityID != idp.entityID || p.SsoURL != idp.ssoURL ||
			p.Status != "active" || p.DefaultTeam == nil || p.DefaultTeam.Id != team.Id || memberRoleOf(p.DefaultRole) != "edit" {
			t.Fatalf("answered %s", mustJSONText(t, p))
		}
		want := testBaseURL + "/sso/saml/" + p.Id + "/"
		if p.Service.AcsURL != want+"acs" || p.Service.StartURL != want+"start" || p.Service.EntityID != want+"metadata" {
			t.Fatalf("service %+v", p.Service)
		}
		if p.Urls.Location != testBaseURL+"/v1"+base+"/"+p.Id {
			t.Fatalf("location %s", p.Urls.Location)
		}
		var o gen.Organization
		ts.Expect(t, http.StatusOK, alice, "GET", "/orgs/"+org.Id, nil).Decode(t, &o)
		if o.Sso == nil || !*o.Sso {
			t.Fatal("the organization's sso flag is not on once it has a provider")
		}
		msg := ts.Expect(t, http.StatusBadRequest, alice, "PATCH", "/orgs/"+org.Id, map[string]any{"sso": false, "title": "Renamed"}).ErrorMessage(t)
		if !strings.HasPrefix(msg, "sso:") {
			t.Fatalf("message %q", msg)
		}
		o = gen.Organization{}
		ts.Expect(t, http.StatusOK, alice, "GET", "/orgs/"+org.Id, nil).Decode(t, &o)
		if o.Sso == nil || !*o.Sso || o.Title != "Acme" {
			t.Fatalf("a refused update changed the organization: %s", mustJSONText(t, o))
		}
		ts.Expect(t, http.StatusOK, olga, "PATCH", "/orgs/"+other.Id, map[string]any{"sso": false}) // no provider: fine
	})
	t.Run("CreateWithBase64CertificateAndDefaults", func(t *testing.T) {
		body := providerBody(idp, "Azure")
		body["certificate"] = idp.certBase64()
		q := ts.MustCreateSAMLProvider(t, alice, org.Id, body)
		// No defaultRole: the organization's default role (read); no team.
		if memberRoleOf(q.DefaultRole) != "read" || q.DefaultTeam != nil {
			t.Fatalf("answered %s", mustJSONText(t, q))
		}
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", base+"/"+q.Id, nil)
		// An explicit null: members signing in are guests, whatever the organization's default.
		body["defaultRole"] = nil
		g := ts.MustCreateSAMLProvider(t, alice, org.Id, body)
		if !g.DefaultRole.IsNull() {
			t.Fatalf("a null defaultRole answered %s", mustJSONText(t, g))
		}
		ts.Expect(t, http.StatusOK, alice, "GET", base+"/"+g.Id, nil).Decode(t, &g)
		if !g.DefaultRole.IsNull() {
			t.Fatalf("a null defaultRole read back %s", mustJSONText(t, g))
		}
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", base+"/"+g.Id, nil)
	})
	t.Run("GetAndList", func(t *testing.T) {
		var got gen.SAMLProvider
		ts.Expect(t, http.StatusOK, alice, "GET", base+"/"+p.Id, nil).Decode(t, &got)
		if got.Id != p.Id || got.Certificate != idp.certPEM() {
			t.Fatalf("answered %s", mustJSONText(t, got))
		}
		second := ts.MustCreateSAMLProvider(t, alice, org.Id, providerBody(idp, "Second"))
		var page1, page2 gen.SAMLProviderList
		ts.Expect(t, http.StatusOK, alice, "GET", base+"?limit=1", nil).Decode(t, &page1)
		if page1.Count != 2 || len(page1.Items) != 1 || page1.Items[0].Id != p.Id || page1.Next == nil {
			t.Fatalf("page 1: %s", mustJSONText(t, page1))
		}
		ts.Expect(t, http.StatusOK, alice, "GET", base+"?limit=1&page="+page1.Next.Page, nil).Decode(t, &page2)
		if len(page2.Items) != 1 || page2.Items[0].Id != second.Id || page2.Next != nil {
			t.Fatalf("page 2: %s", mustJSONText(t, page2))
		}
		var logins gen.SSOProviderLoginList
		// Login infos need no token: the sign-in page shows them before anyone has one.
		ts.Expect(t, http.StatusOK, nil, "GET", "/orgs/"+org.Id+"/sso", nil).Decode(t, &logins)
		if len(logins.Items) != 2 || logins.Items[0].Id != p.Id || logins.Items[0].Label != "Okta" ||
			logins.Items[0].StartURL != p.Service.StartURL || logins.Items[1].Id != second.Id {
			t.Fatalf("logins: %s", mustJSONText(t, logins))
		}
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", base+"/"+second.Id, nil)
	})
	t.Run("Update", func(t *testing.T) {
		var got gen.SAMLProvider
		ts.Expect(t, http.StatusOK, alice, "PATCH", base+"/"+p.Id, map[string]any{"label": "Okta EU", "defaultRole": nil}).Decode(t, &got)
		if got.Label != "Okta EU" || !got.DefaultRole.IsNull() || got.DefaultTeam == nil || got.EntityID != idp.entityID {
			t.Fatalf("answered %s", mustJSONText(t, got))
		}
		got = gen.SAMLProvider{}
		ts.Expect(t, http.StatusOK, alice, "PATCH", base+"/"+p.Id, map[string]any{"defaultTeam": "", "defaultRole": "comment",
			"certificate": idp.certBase64(), "ssoURL": "https://idp.example/sso2", "entityID": idp.entityID}).Decode(t, &got)
		if got.DefaultTeam != nil || memberRoleOf(got.DefaultRole) != "comment" || got.SsoURL != "https://idp.example/sso2" {
			t.Fatalf("answered %s", mustJSONText(t, got))
		}
		ts.Expect(t, http.StatusOK, alice, "PATCH", base+"/"+p.Id, map[string]any{"defaultTeam": team.Id, "defaultRole": "edit",
			"ssoURL": idp.ssoURL, "certificate": idp.certPEM()})
	})
	t.Run("BadInput", func(t *testing.T) {
		cases := []struct {
			name  string
			patch map[string]any
			field string
		}{
			{"EmptyLabel", map[string]any{"label": ""}, "label"},
			{"LongLabel", map[string]any{"label": strings.Repeat("x", 31)}, "label"},
			{"LongEntityID", map[string]any{"entityID": strings.Repeat("x", 1025)}, "entityID"},
			{"LongCertificate", map[string]any{"certificate": strings.Repeat("A", 10001)}, "certificate"},
			{"NotACertificate", map[string]any{"certificate": "hello"}, "certificate"},
			{"Base64NotACertificate", map[string]any{"certificate": "aGVsbG8gd29ybGQ="}, "certificate"},
			{"PEMKeyNotCertificate", map[string]any{"certificate": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}, "certificate"},
			{"RelativeSSOURL", map[string]any{"ssoURL": "/sso"}, "ssoURL"},
			{"FTPSSOURL", map[string]any{"ssoURL": "ftp://idp.example/sso"}, "ssoURL"},
			{"LongSSOURL", map[string]any{"ssoURL": "https://idp.example/" + strings.Repeat("x", 2048)}, "ssoURL"},
			{"TeamOfAnotherOrganization", map[string]any{"defaultTeam": otherTeam.Id}, "defaultTeam"},
			{"UnknownRole", map[string]any{"defaultRole": "owner"}, "defaultRole"},
			{"UnknownField", map[string]any{"issuer": "x"}, "issuer"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				body := providerBody(idp, "New")
				for k, v := range c.patch {
					body[k] = v
				}
				msg := ts.Expect(t, http.StatusBadRequest, alice, "POST", base, body).ErrorMessage(t)
				if !strings.Contains(msg, c.field) {
					t.Fatalf("create: message %q does not name %s", msg, c.field)
				}
				msg = ts.Expect(t, http.StatusBadRequest, alice, "PATCH", base+"/"+p.Id, c.patch).ErrorMessage(t)
				if !strings.Contains(msg, c.field) {
					t.Fatalf("update: message %q does not name %s", msg, c.field)
				}
			})
		}
		msg := ts.Expect(t, http.StatusBadRequest, alice, "POST", base, map[string]any{"label": "Only a label"}).ErrorMessage(t)
		if !strings.Contains(msg, "entityID") && !strings.Contains(msg, "certificate") && !strings.Contains(msg, "ssoURL") {
			t.Fatalf("message %q names no missing field", msg)
		}
		var got gen.SAMLProvider
		ts.Expect(t, http.StatusOK, alice, "GET", base+"/"+p.Id, nil).Decode(t, &got)
		if got.Label != "Okta EU" || got.SsoURL != idp.ssoURL || got.DefaultTeam == nil {
			t.Fatalf("a refused update changed the provider: %s", mustJSONText(t, got))
		}
		var list gen.SAMLProviderList
		ts.Expect(t, http.StatusOK, alice, "GET", base, nil).Decode(t, &list)
		if list.Count != 1 {
			t.Fatalf("refused creations created providers: %d", list.Count)
		}
	})
	t.Run("Access", func(t *testing.T) {
		ts.Expect(t, http.StatusForbidden, bob, "GET", base, nil)
		ts.Expect(t, http.StatusForbidden, bob, "POST", base, providerBody(idp, "Bob's"))
		ts.Expect(t, http.StatusForbidden, bob, "GET", base+"/"+p.Id, nil)
		ts.Expect(t, http.StatusForbidden, bob, "PATCH", base+"/"+p.Id, map[string]any{"label": "Bob's"})
		ts.Expect(t, http.StatusForbidden, bob, "DELETE", base+"/"+p.Id, nil)
		ts.Expect(t, http.StatusNotFound, olga, "GET", base, nil)
		ts.Expect(t, http.StatusNotFound, olga, "GET", base+"/"+p.Id, nil)
		ts.Expect(t, http.StatusNotFound, olga, "DELETE", base+"/"+p.Id, nil)
		// A provider of another organization is not found through this one.
		ts.Expect(t, http.StatusNotFound, olga, "GET", "/orgs/"+other.Id+"/saml/"+p.Id, nil)
		ts.Expect(t, http.StatusNoContent, olga, "DELETE", "/orgs/"+other.Id+"/saml/"+p.Id, nil)
		ts.Expect(t, http.StatusOK, alice, "GET", base+"/"+p.Id, nil)
		ts.Expect(t, http.StatusUnauthorized, nil, "GET", base, nil)
		var logins gen.SSOProviderLoginList
		// An unknown organization lists no login: outsiders learn nothing of which ids exist.
		ts.Expect(t, http.StatusOK, nil, "GET", "/orgs/nosuchorganization000/sso", nil).Decode(t, &logins)
		if len(logins.Items) != 0 {
			t.Fatalf("an unknown organization lists %s", mustJSONText(t, logins))
		}
		ts.Expect(t, http.StatusOK, olga, "GET", "/orgs/"+other.Id+"/sso", nil).Decode(t, &logins)
		if len(logins.Items) != 0 {
			t.Fatalf("another organization lists %s", mustJSONText(t, logins))
		}
	})
	t.Run("Delete", func(t *testing.T) {
		q := ts.MustCreateSAMLProvider(t, alice, org.Id, providerBody(idp, "Doomed"))
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", base+"/"+q.Id, nil)
		ts.Expect(t, http.StatusNotFound, alice, "GET", base+"/"+q.Id, nil)
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", base+"/"+q.Id, nil) // absent: 204 too
		if status, _ := ts.postACS(t, q, "x", ""); status != http.StatusNotFound {
			t.Fatalf("the ACS URL of a deleted provider answered %d", status)
		}
	})
	t.Run("DeletedTeamLeavesNoDefault", func(t *testing.T) {
		var doomed gen.Team
		ts.Expect(t, http.StatusCreated, alice, "PUT", "/orgs/"+org.Id+"/teams", map[string]any{"title": "Doomed"}).Decode(t, &doomed)
		body := providerBody(idp, "Teamless")
		body["defaultTeam"] = doomed.Id
		q := ts.MustCreateSAMLProvider(t, alice, org.Id, body)
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", "/orgs/"+org.Id+"/teams/"+doomed.Id, nil)
		var got gen.SAMLProvider
		ts.Expect(t, http.StatusOK, alice, "GET", base+"/"+q.Id, nil).Decode(t, &got)
		if got.DefaultTeam != nil {
			t.Fatalf("the deleted team is still the default: %s", mustJSONText(t, got))
		}
		ts.Expect(t, http.StatusNoContent, alice, "DELETE", base+"/"+q.Id, nil)
	})
}

func memberRoleOf(r interface {
	IsNull() bool
	Get() (gen.MemberRoleOrGuest, error)
}) string {
	if r.IsNull() {
		return ""
	}
	v, _ := r.Get()
	return string(v)
}
