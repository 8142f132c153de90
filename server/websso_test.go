package server_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// postACSFromBrowser posts a Response to the ACS as the browser does, without following the
// redirect, and answers the response with its body.
func (w *ssoWorld) postACSFromBrowser(t *testing.T, samlResponse, relayState string) (*http.Response, string) {
	t.Helper()
	res, err := noRedirects.PostForm(w.ts.URL+acsPath(t, w.prov), url.Values{"SAMLResponse": {samlResponse}, "RelayState": {relayState}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res, string(raw)
}

func (w *ssoWorld) getPage(t *testing.T, path, cookie string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", w.ts.URL+path, nil)
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw)
}

// A SAML login started from the app's sign-in page opens an app session and returns to the app;
// one started by an API client still answers the JSON token (TestSAMLLogin).
func TestSAMLLoginFromTheApp(t *testing.T) {
	t.Parallel()
	w := newSSOWorld(t)
	ts := w.ts
	orgPage := "/app/o/" + w.org.Id
	provider := strings.TrimSuffix(strings.TrimPrefix(acsPath(t, w.prov), "/sso/saml/"), "/acs")

	t.Run("TheSignInPageOffersTheProviders", func(t *testing.T) {
		status, body := w.getPage(t, "/app/login?org="+w.org.Id+"&next="+url.QueryEscape(orgPage), "")
		if status != http.StatusOK {
			t.Fatalf("sign-in page: %d", status)
		}
		wantIn(t, "sign-in page", body, `<a href="/sso/saml/`+provider+`/start?return=%2Fapp%2Fo%2F`+w.org.Id+`">Sign in with Okta</a>`)
		_, body = w.getPage(t, "/app/login?org=nosuchorg", "")
		wantIn(t, "unknown organization", body, "That organization has no single sign-on.")
		wantNotIn(t, "unknown organization", body, "Sign in with")
	})
	t.Run("ReturnMustBeAnAppPath", func(t *testing.T) {
		for _, bad := range []string{"https://evil.example/app", "//evil.example/app", "/v1/user", "/appx", "/app" + strings.Repeat("/x", 300)} {
			status, body := w.getPage(t, "/sso/saml/"+provider+"/start?return="+url.QueryEscape(bad), "")
			if status != http.StatusBadRequest || !strings.Contains(body, "return") {
				t.Errorf("return=%.40q: %d %s", bad, status, body)
			}
		}
	})

	t.Run("ReturnToTheAppFitsTheRelayStateLimit", func(t *testing.T) {
		// SAML's redirect binding allows 80 bytes of RelayState.
		if r := w.startLogin(t, "return=/app").RelayState; len(r) > 80 || !strings.HasSuffix(r, "./app") {
			t.Fatalf("RelayState %q (%d bytes)", r, len(r))
		}
	})

	var session string
	t.Run("TheACSOpensASessionAndReturns", func(t *testing.T) {
		req := w.startLogin(t, "return="+url.QueryEscape(orgPage))
		a := ts.loginFor(w.prov, "dana@acme.test", "Dana Scully")
		a.requestID, a.relayState = req.Request.ID, req.RelayState
		signed := w.idp.response(t, a)
		res, body := w.postACSFromBrowser(t, signed, a.relayState)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != orgPage {
			t.Fatalf("ACS answered %d to %q: %s", res.StatusCode, res.Header.Get("Location"), body)
		}
		if strings.Contains(body, "gb_api_") {
			t.Fatal("the ACS showed the browser an API token")
		}
		for _, c := range res.Cookies() {
			if c.Name == "quire_session" && c.HttpOnly && c.SameSite == http.SameSiteLaxMode && c.Path == "/app" {
				session = "quire_session=" + c.Value
			}
		}
		if session == "" {
			t.Fatal("no HttpOnly SameSite session cookie")
		}
		status, page := w.getPage(t, orgPage, session)
		if status != http.StatusOK {
			t.Fatalf("the org page with the SSO session: %d", status)
		}
		wantIn(t, "org page", page, "<h1>Acme</h1>", "Dana Scully", "Sign out")

		// The same Response again is a replay: refused as an app page, no session.
		res, body = w.postACSFromBrowser(t, signed, a.relayState)
		if res.StatusCode != http.StatusForbidden || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("replay: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		wantIn(t, "replay", body, "Single sign-on failed", "replay: this assertion was already used")
		for _, c := range res.Cookies() {
			if c.Name == "quire_session" {
				t.Fatal("a refused login set a session cookie")
			}
		}
	})
	t.Run("AnAccountOutsideTheOrganizationIsRefusedAsAPage", func(t *testing.T) {
		ts.MustCreateUser(t, "otto@acme.test", "Otto")
		req := w.startLogin(t, "return=/app")
		a := ts.loginFor(w.prov, "otto@acme.test", "")
		a.requestID, a.relayState = req.Request.ID, req.RelayState
		res, body := w.postACSFromBrowser(t, w.idp.response(t, a), a.relayState)
		if res.StatusCode != http.StatusForbidden || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || len(res.Cookies()) > 0 {
			t.Fatalf("outside account: %d %s %v", res.StatusCode, res.Header.Get("Content-Type"), res.Cookies())
		}
		wantIn(t, "outside account", body, "Single sign-on failed", "Nobody was signed in.")
	})
	t.Run("ATamperedReturnIsRefused", func(t *testing.T) {
		req := w.startLogin(t, "return="+url.QueryEscape(orgPage))
		a := ts.loginFor(w.prov, "dana@acme.test", "")
		a.requestID = req.Request.ID
		a.relayState = strings.Replace(req.RelayState, orgPage, "/app/o/"+w.org.Id+"x", 1)
		if a.relayState == req.RelayState {
			t.Fatalf("the relay state %q does not carry the return path", req.RelayState)
		}
		res, body := w.postACSFromBrowser(t, w.idp.response(t, a), a.relayState)
		if res.StatusCode != http.StatusForbidden || len(res.Cookies()) > 0 {
			t.Fatalf("tampered return: %d %v %s", res.StatusCode, res.Cookies(), body)
		}
	})
	t.Run("RevokingTheLoginsTokenEndsTheSession", func(t *testing.T) {
		toks, err := ts.Store.FindTokens(context.Background(), "dana@acme.test")
		if err != nil || len(toks) != 1 || toks[0].Name != "sso:Okta" {
			t.Fatalf("dana's tokens: %+v (%v)", toks, err)
		}
		if err := ts.Store.RevokeToken(context.Background(), toks[0].ID); err != nil {
			t.Fatal(err)
		}
		if status, _ := w.getPage(t, orgPage, session); status != http.StatusSeeOther {
			t.Fatalf("after revoking the SSO login's token: %d", status)
		}
	})
}
