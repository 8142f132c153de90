package server_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crewjam/saml"

	"github.com/quire-docs/quire/gen"
)

// ssoWorld is an organization with a team and a SAML provider of a test identity provider.
type ssoWorld struct {
	ts    *testServer
	admin *testUser
	org   gen.Organization
	team  gen.Team
	idp   *testIdP
	prov  gen.SAMLProvider
}

func newSSOWorld(t *testing.T) *ssoWorld {
	ts := newTestServer(t)
	w := &ssoWorld{ts: ts, admin: ts.MustCreateUser(t, "alice@acme.test", "Alice")}
	w.org = ts.MustCreateOrg(t, w.admin, "Acme")
	ts.Expect(t, http.StatusCreated, w.admin, "PUT", "/orgs/"+w.org.Id+"/teams", map[string]any{"title": "Staff"}).Decode(t, &w.team)
	w.idp = newTestIdP(t, "https://idp.example/metadata")
	body := providerBody(w.idp, "Okta")
	body["defaultTeam"], body["defaultRole"] = w.team.Id, "edit"
	w.prov = ts.MustCreateSAMLProvider(t, w.admin, w.org.Id, body)
	return w
}

// members counts the organization's members and the store's users by email.
func (w *ssoWorld) memberCount(t *testing.T) int {
	var list gen.MemberList
	w.ts.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/members", nil).Decode(t, &list)
	return list.Count
}

// startLogin follows quire's start URL to the identity provider, which reads and checks the
// AuthnRequest (its query signature against quire's metadata) and answers the request it got.
// query, when given, is the start URL's query (return=/app… for a login from the app).
func (w *ssoWorld) startLogin(t *testing.T, query ...string) *saml.IdpAuthnRequest {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	u, _ := url.Parse(w.prov.Service.StartURL)
	u.RawQuery = strings.Join(query, "&")
	res, err := client.Get(w.ts.URL + u.RequestURI())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("start answered %d", res.StatusCode)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Scheme+"://"+loc.Host+loc.Path != w.idp.ssoURL {
		t.Fatalf("start sends the browser to %s, not the provider's ssoURL", loc)
	}
	q := loc.Query()
	if q.Get("SAMLRequest") == "" || q.Get("RelayState") == "" || q.Get("SigAlg") == "" || q.Get("Signature") == "" {
		t.Fatalf("the redirect lacks a signed AuthnRequest: %s", loc.RawQuery)
	}
	idp := w.idp.idp(w.ts.Clock.Now())
	idp.ServiceProviderProvider = fixedSP{meta: w.ts.spMetadata(t, w.prov)}
	req, err := saml.NewIdpAuthnRequest(idp, httpGet(loc.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Validate(); err != nil {
		t.Fatalf("the identity provider refuses quire's AuthnRequest: %v", err)
	}
	if req.Request.AssertionConsumerServiceURL != w.prov.Service.AcsURL || req.Request.Issuer.Value != w.prov.Service.EntityID {
		t.Fatalf("AuthnRequest ACS %q issuer %q", req.Request.AssertionConsumerServiceURL, req.Request.Issuer.Value)
	}
	return req
}

func httpGet(u string) *http.Request {
	r, _ := http.NewRequest("GET", u, nil)
	return r
}

func TestSAMLLogin(t *testing.T) {
	t.Parallel()
	w := newSSOWorld(t)
	ts := w.ts
	var firstUser string
	t.Run("FirstLoginCreatesTheMember", func(t *testing.T) {
		req := w.startLogin(t)
		a := ts.loginFor(w.prov, "dana@acme.test", "Dana Scully")
		a.requestID, a.relayState = req.Request.ID, req.RelayState
		status, body := ts.postACS(t, w.prov, w.idp.response(t, a), a.relayState)
		if status != http.StatusOK {
			t.Fatalf("ACS answered %d: %v", status, body)
		}
		token, _ := body["token"].(string)
		user, _ := body["user"].(map[string]any)
		if !strings.HasPrefix(token, "gb_api_") || body["created"] != true || body["organization"] != w.org.Id ||
			user["email"] != "dana@acme.test" || user["displayName"] != "Dana Scully" {
			t.Fatalf("ACS answered %v", body)
		}
		firstUser, _ = user["id"].(string)
		dana := &testUser{ID: firstUser, Email: "dana@acme.test", Token: token}
		// The token works, and is the new user's.
		var me gen.User
		ts.Expect(t, http.StatusOK, dana, "GET", "/user", nil).Decode(t, &me)
		if me.Id != firstUser {
			t.Fatalf("the token is %s's, not %s's", me.Id, firstUser)
		}
		m := memberGet(t, ts, w.admin, w.org.Id, firstUser)
		if !m.Sso || memberRole(m) != "edit" || m.Teams != 1 {
			t.Fatalf("member %s", mustJSONText(t, m))
		}
		var teams gen.MemberTeamList
		ts.Expect(t, http.StatusOK, dana, "GET", "/orgs/"+w.org.Id+"/members/"+firstUser+"/teams", nil).Decode(t, &teams)
		if len(teams.Items) != 1 || teams.Items[0].Team.Id != w.team.Id {
			t.Fatalf("teams %s", mustJSONText(t, teams))
		}
		// The sign-in that made the member is in the organization's audit log, as theirs.
		var log gen.AuditEventList
		ts.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events?action=organization.member.sso-signed-in", nil).Decode(t, &log)
		if log.Count != 1 || log.Items[0].Actor.Id != firstUser || log.Items[0].Target.Id != firstUser || log.Items[0].Source != "ui" {
			t.Fatalf("audit log of the sign-in: %s", mustJSONText(t, log))
		}
	})
	t.Run("SecondLoginReusesIt", func(t *testing.T) {
		before := w.memberCount(t)
		// IdP-initiated this time: no request, no RelayState.
		status, body := ts.postACS(t, w.prov, w.idp.response(t, ts.loginFor(w.prov, "DANA@acme.test", "")), "")
		if status != http.StatusOK {
			t.Fatalf("ACS answered %d: %v", status, body)
		}
		user, _ := body["user"].(map[string]any)
		if body["created"] != false || user["id"] != firstUser {
			t.Fatalf("a second login made another user: %v", body)
		}
		if after := w.memberCount(t); after != before {
			t.Fatalf("members %d -> %d", before, after)
		}
		ts.Expect(t, http.StatusOK, &testUser{Token: body["token"].(string)}, "GET", "/user", nil)
	})
	t.Run("NullDefaultRoleMakesGuests", func(t *testing.T) {
		path := "/orgs/" + w.org.Id + "/saml/" + w.prov.Id
		ts.Expect(t, http.StatusOK, w.admin, "PATCH", path, []byte(`{"defaultRole":null}`))
		defer ts.Expect(t, http.StatusOK, w.admin, "PATCH", path, map[string]any{"defaultRole": "edit"})
		status, body := ts.postACS(t, w.prov, w.idp.response(t, ts.loginFor(w.prov, "gail@acme.test", "Gail")), "")
		user, _ := body["user"].(map[string]any)
		if status != http.StatusOK || user["id"] == nil {
			t.Fatalf("ACS answered %d: %v", status, body)
		}
		m := memberGet(t, ts, w.admin, w.org.Id, user["id"].(string))
		if !m.Role.IsNull() || !m.Sso {
			t.Fatalf("member %s, want a guest", mustJSONText(t, m))
		}
	})
	t.Run("EncryptedAssertion", func(t *testing.T) {
		meta := ts.spMetadata(t, w.prov)
		a := ts.loginFor(w.prov, "hank@acme.test", "Hank")
		a.encryptTo = &meta.SPSSODescriptors[0]
		raw := w.idp.response(t, a)
		if xml, _ := decodeB64(raw); !strings.Contains(xml, "EncryptedAssertion") || strings.Contains(xml, "hank@acme.test") {
			t.Fatal("the test IdP did not encrypt the assertion")
		}
		status, body := ts.postACS(t, w.prov, raw, "")
		user, _ := body["user"].(map[string]any)
		if status != http.StatusOK || user["email"] != "hank@acme.test" {
			t.Fatalf("ACS answered %d: %v", status, body)
		}
	})
	t.Run("AccountOutsideTheOrganizationIsNotTakenOver", func(t *testing.T) {
		eve := ts.MustCreateUser(t, "eve@elsewhere.test", "Eve")
		before := w.memberCount(t)
		status, body := ts.postACS(t, w.prov, w.idp.response(t, ts.loginFor(w.prov, "eve@elsewhere.test", "Eve")), "")
		e, _ := body["error"].(map[string]any)
		if msg, _ := e["message"].(string); status != http.StatusForbidden || !strings.HasPrefix(msg, "email:") {
			t.Fatalf("ACS answered %d: %v", status, body)
		}
		if after := w.memberCount(t); after != before {
			t.Fatalf("members %d -> %d", before, after)
		}
		ts.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/members/"+eve.ID, nil)
	})
	t.Run("ExistingMemberIsLinkedByEmail", func(t *testing.T) {
		eve := ts.MustCreateUser(t, "eve@acme.test", "Eve")
		ts.MustAddMember(t, w.admin, w.org.Id, eve, "read")
		status, body := ts.postACS(t, w.prov, w.idp.response(t, ts.loginFor(w.prov, "Eve@Acme.test", "Eve")), "")
		user, _ := body["user"].(map[string]any)
		if status != http.StatusOK || body["created"] != false || user["id"] != eve.ID {
			t.Fatalf("ACS answered %d: %v", status, body)
		}
		m := memberGet(t, ts, w.admin, w.org.Id, eve.ID)
		if !m.Sso || memberRole(m) != "read" {
			t.Fatalf("member %s", mustJSONText(t, m))
		}
		var me gen.User
		ts.Expect(t, http.StatusOK, &testUser{Token: body["token"].(string)}, "GET", "/user", nil).Decode(t, &me)
		if me.Id != eve.ID {
			t.Fatalf("the token is %s's", me.Id)
		}
	})
	t.Run("ExistingMemberKeepsTheirRole", func(t *testing.T) {
		frank := ts.MustCreateUser(t, "frank@acme.test", "Frank")
		ts.MustAddMember(t, w.admin, w.org.Id, frank, "admin")
		status, body := ts.postACS(t, w.prov, w.idp.response(t, ts.loginFor(w.prov, "frank@acme.test", "")), "")
		if status != http.StatusOK {
			t.Fatalf("ACS answered %d: %v", status, body)
		}
		m := memberGet(t, ts, w.admin, w.org.Id, frank.ID)
		if !m.Sso || memberRole(m) != "admin" {
			t.Fatalf("member %s", mustJSONText(t, m))
		}
	})
}

func TestSAMLLoginRefusals(t *testing.T) {
	t.Parallel()
	w := newSSOWorld(t)
	ts := w.ts
	impostor := newTestIdP(t, w.idp.entityID) // same entity id, another key
	good := func() assertionFor { return ts.loginFor(w.prov, "mallory@acme.test", "Mallory") }
	replayed := w.idp.response(t, good())
	if status, body := ts.postACS(t, w.prov, replayed, ""); status != http.StatusOK {
		t.Fatalf("the first use answered %d: %v", status, body)
	}
	req := w.startLogin(t)
	cases := []struct {
		name     string
		response func() string
		relay    string
		check    string
	}{
		{"Unsigned", func() string { a := good(); a.unsigned = true; return w.idp.response(t, a) }, "", "signature"},
		{"WronglySigned", func() string { return impostor.response(t, good()) }, "", "signature"},
		{"Tampered", func() string {
			raw := w.idp.response(t, good())
			xml, _ := decodeB64(raw)
			return encodeB64(strings.Replace(xml, "mallory@acme.test", "alice@acme.test", -1))
		}, "", "signature"},
		{"Expired", func() string { a := good(); a.now = a.now.Add(-10 * time.Minute); return w.idp.response(t, a) }, "", "expired"},
		{"NotYetValid", func() string { a := good(); a.now = a.now.Add(time.Hour); return w.idp.response(t, a) }, "", "expired"},
		{"PastNotOnOrAfter", func() string {
			a := good()
			a.mutate = func(as *saml.Assertion) { as.Conditions.NotOnOrAfter = a.now.Add(-5 * time.Minute) }
			return w.idp.response(t, a)
		}, "", "expired"},
		{"Replayed", func() string { return replayed }, "", "replay"},
		{"WrongAudience", func() string {
			a := good()
			a.audience = "https://other-sp.example/metadata"
			return w.idp.response(t, a)
		}, "", "audience"},
		{"WrongDestination", func() string { a := good(); a.acsURL = "https://other-sp.example/acs"; return w.idp.response(t, a) }, "", "destination"},
		{"WrongIssuer", func() string {
			other := *w.idp
			other.entityID = "https://evil.example/metadata"
			return other.response(t, good())
		}, "", "issuer"},
		{"AnswersAnotherRequest", func() string { a := good(); a.requestID = "id-not-ours"; return w.idp.response(t, a) }, "", "request"},
		{"ForgedRelayState", func() string { a := good(); a.requestID = "id-forged"; return w.idp.response(t, a) }, "id-forged.AAAAAAAAAAAAAAAAAAAAAA", "request"},
		{"RelayStateOfAnotherRequest", func() string { a := good(); a.requestID = "id-other"; return w.idp.response(t, a) }, req.RelayState, "request"},
		{"NotBase64", func() string { return "%%%not base64%%%" }, "", "malformed"},
		{"NotXML", func() string { return encodeB64("<Response") }, "", "malformed"},
		{"NotAResponse", func() string { return encodeB64("<hello/>") }, "", "malformed"},
		{"Empty", func() string { return "" }, "", "malformed"},
		{"NoEmail", func() string {
			a := good()
			a.email = "not-an-address"
			return w.idp.response(t, a)
		}, "", "email"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			members := w.memberCount(t)
			status, body := ts.postACS(t, w.prov, c.response(), c.relay)
			e, _ := body["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if status != http.StatusForbidden || !strings.HasPrefix(msg, c.check+":") {
				t.Fatalf("answered %d %v, want 403 naming %s", status, body, c.check)
			}
			if code, _ := e["code"].(float64); int(code) != status {
				t.Fatalf("error code %v, status %d", e["code"], status)
			}
			if after := w.memberCount(t); after != members {
				t.Fatalf("a refused Response changed the members: %d -> %d", members, after)
			}
		})
	}
	// Refused logins created nobody: mallory exists once (the first, good login), alice is untouched.
	var list gen.MemberList
	ts.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/members", nil).Decode(t, &list)
	if list.Count != 2 {
		t.Fatalf("members after the refusals: %s", mustJSONText(t, list))
	}
	for _, m := range list.Items {
		if e := *m.User.Email; e != "alice@acme.test" && e != "mallory@acme.test" {
			t.Fatalf("a refused login made %s a member", e)
		}
	}
}

func TestSAMLProviderWithBrokenCertificate(t *testing.T) {
	t.Parallel()
	w := newSSOWorld(t)
	ts := w.ts
	// A certificate stored before it stopped parsing (not through the API, which refuses it).
	if _, err := ts.Store.UpdateSAMLProvider(context.Background(), w.org.Id, w.prov.Id,
		storeProviderCertificate("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")); err != nil {
		t.Fatal(err)
	}
	status, body := ts.postACS(t, w.prov, w.idp.response(t, ts.loginFor(w.prov, "gina@acme.test", "")), "")
	e, _ := body["error"].(map[string]any)
	if msg, _ := e["message"].(string); status != http.StatusForbidden || !strings.HasPrefix(msg, "certificate:") {
		t.Fatalf("answered %d %v", status, body)
	}
	u, _ := url.Parse(w.prov.Service.StartURL)
	res, err := http.Get(ts.URL + u.Path)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("start answered %d", res.StatusCode)
	}
}
