package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
)

// TestSiteShareLinks: a share link's key opens the share-link site (the web, and the API's
// published reads) while the link is active; disabled or deleted, it opens nothing, even for a
// visitor who already holds its cookie. The site's own key is not affected.
func TestSiteShareLinks(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/orgs/" + w.org.Id + "/sites/" + w.secret.Id
	var link gen.ShareLink
	r := w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/share-links", map[string]any{"name": "Partners"})
	r.Decode(t, &link)
	if !link.Active || link.Name != "Partners" || !strings.HasPrefix(link.Urls.Published, testBaseURL+"/s/"+w.secret.Id+"?share=") {
		t.Fatalf("share link: %+v", link)
	}
	key := strings.TrimPrefix(link.Urls.Published, testBaseURL+"/s/"+w.secret.Id+"?share=")
	if key == w.shareKey {
		t.Fatal("the link has the site's own key")
	}
	site := "/s/" + w.secret.Id
	cookieName := "quire_share_" + w.secret.Id
	open := func(want int) {
		t.Helper()
		res := w.expect(t, http.StatusSeeOther, site+"/?share="+key)
		if want != http.StatusOK {
			t.Fatalf("a %d link still set its cookie", want)
		}
		w.expect(t, want, site+"/", "Cookie", cookieName+"="+cookieOf(res, cookieName))
	}
	open(http.StatusOK)
	published := base + "/published?shareKey=" + key
	w.Expect(t, http.StatusOK, w.reader, "GET", published, nil)

	// Off: the key in the address, a cookie holding it and the API all refuse it.
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/share-links/"+link.Id, map[string]any{"active": false}).Decode(t, &link)
	if link.Active || link.Name != "Partners" {
		t.Fatalf("disabled: %+v", link)
	}
	w.expect(t, http.StatusNotFound, site+"/?share="+key)
	w.expect(t, http.StatusNotFound, site+"/", "Cookie", cookieName+"="+key)
	w.Expect(t, http.StatusNotFound, w.reader, "GET", published, nil)
	own := w.expect(t, http.StatusSeeOther, site+"/?share="+w.shareKey)
	w.expect(t, http.StatusOK, site+"/", "Cookie", cookieName+"="+cookieOf(own, cookieName))

	// On again, then deleted.
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/share-links/"+link.Id, map[string]any{"active": true, "name": "Friends"})
	open(http.StatusOK)
	list := getJSON[gen.ShareLinkList](t, w.testServer, w.admin, base+"/share-links?search=friend")
	wantList(t, "share links", list, 1, link.Id)
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", base+"/share-links/"+link.Id, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", base+"/share-links/"+link.Id, nil)
	w.expect(t, http.StatusNotFound, site+"/", "Cookie", cookieName+"="+key)
	w.Expect(t, http.StatusNotFound, w.reader, "GET", published, nil)

	// Bad input changes nothing; readers may not see the keys.
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", base+"/share-links", map[string]any{"name": strings.Repeat("x", 51)})
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", base+"/share-links", map[string]any{})
	other := sendJSON[gen.ShareLink](t, w.testServer, http.StatusCreated, w.admin, "POST", base+"/share-links", map[string]any{"name": "Other"})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base+"/share-links/"+other.Id, map[string]any{})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base+"/share-links/"+other.Id, map[string]any{"active": "no"})
	w.Expect(t, http.StatusNotFound, w.admin, "PATCH", base+"/share-links/nope", map[string]any{"active": false})
	w.Expect(t, http.StatusForbidden, w.reader, "GET", base+"/share-links", nil)
	if got := getJSON[gen.ShareLinkList](t, w.testServer, w.admin, base+"/share-links"); got.Count != 1 || !got.Items[0].Active || got.Items[0].Name != "Other" {
		t.Fatalf("after bad input: %+v", got)
	}
}

// TestSitePublishingAuth: a visitor token signed with the site's key opens its visitor-auth site;
// after the key is regenerated, tokens signed with the old key are refused (in the address, in
// the cookie, and by the API). The fallback URL takes visitors without a token; the logout URL
// takes those signing out.
func TestSitePublishingAuth(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/orgs/" + w.org.Id + "/sites/" + w.members.Id
	auth := getJSON[gen.SitePublishingAuth](t, w.testServer, w.admin, base+"/publishing/auth")
	if auth.Backend != gen.VisitorAuthBackendCustom || len(auth.PrivateKey) < 32 || auth.FallbackURL != nil {
		t.Fatalf("auth: %+v", auth)
	}
	if again := getJSON[gen.SitePublishingAuth](t, w.testServer, w.admin, base+"/publishing/auth"); again.PrivateKey != auth.PrivateKey {
		t.Fatal("reading the settings again changed the key")
	}
	w.Expect(t, http.StatusForbidden, w.editor, "GET", base+"/publishing/auth", nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", base+"/publishing/auth", nil)

	sign := func(key string) string {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": w.Clock.Now().Add(time.Hour).Unix(), "plan": "pro"}).SignedString([]byte(key))
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	site := "/s/" + w.members.Id
	cookieName := "quire_visitor_" + w.members.Id
	old := sign(auth.PrivateKey)
	res := w.expect(t, http.StatusSeeOther, site+"/?jwt_token="+url.QueryEscape(old))
	if cookieOf(res, cookieName) != old {
		t.Fatal("the signed token was not kept")
	}
	signedIn := w.expect(t, http.StatusOK, site+"/", "Cookie", cookieName+"="+old)
	wantIn(t, "a signed-in visitor's page", signedIn.Body, `href="`+site+`/~logout"`)
	published := base + "/published?visitorToken="
	w.Expect(t, http.StatusOK, w.reader, "GET", published+old, nil)

	var fresh gen.SitePublishingAuth
	w.Expect(t, http.StatusOK, w.admin, "POST", base+"/publishing/auth/regenerate", nil).Decode(t, &fresh)
	if fresh.PrivateKey == auth.PrivateKey {
		t.Fatal("regenerating kept the key")
	}
	w.expect(t, http.StatusUnauthorized, site+"/", "Cookie", cookieName+"="+old)
	w.expect(t, http.StatusUnauthorized, site+"/?jwt_token="+url.QueryEscape(old))
	w.Expect(t, http.StatusForbidden, w.reader, "GET", published+old, nil)
	w.expect(t, http.StatusOK, site+"/", "Cookie", cookieName+"="+sign(fresh.PrivateKey))

	// Settings: bad URLs change nothing; the fallback and logout URLs are followed.
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "ftp://login.example.com"})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base+"/publishing/auth", map[string]any{"fallbackURL": "https://login.example.com"})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base+"/publishing/auth", map[string]any{"backend": "magic"})
	if got := getJSON[gen.SitePublishingAuth](t, w.testServer, w.admin, base+"/publishing/auth"); got.FallbackURL != nil || got.PrivateKey != fresh.PrivateKey {
		t.Fatalf("after bad input: %+v", got)
	}
	var set gen.SitePublishingAuth
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/publishing/auth", map[string]any{"backend": "custom",
		"fallbackURL": "https://login.example.com/start", "logoutURL": "https://login.example.com/bye"}).Decode(t, &set)
	if set.FallbackURL == nil || *set.FallbackURL != "https://login.example.com/start" || set.PrivateKey != fresh.PrivateKey {
		t.Fatalf("updated: %+v", set)
	}
	res = w.expect(t, http.StatusFound, site+"/install")
	if loc := res.Header.Get("Location"); loc != "https://login.example.com/start?location="+url.QueryEscape(testBaseURL+site+"/install") {
		t.Fatalf("a visitor without a token is sent to %q", loc)
	}
	res = w.expect(t, http.StatusFound, site+"/~logout", "Cookie", cookieName+"="+sign(fresh.PrivateKey))
	if res.Header.Get("Location") != "https://login.example.com/bye" || !strings.Contains(res.Header.Get("Set-Cookie"), cookieName+"=;") {
		t.Fatalf("logout: %q, %q", res.Header.Get("Location"), res.Header.Get("Set-Cookie"))
	}
	var removed gen.SitePublishingAuth
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": nil}).Decode(t, &removed)
	if removed.FallbackURL != nil || removed.LogoutURL == nil {
		t.Fatalf("fallback removed: %+v", removed)
	}
	w.expect(t, http.StatusUnauthorized, site+"/install")
}

// TestSitePublishingPreview: the preview address opens the site as a visitor with the claims
// given (Rison), at the site space or path asked; bad claims, site spaces and targets are refused.
func TestSitePublishingPreview(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/orgs/" + w.org.Id + "/sites/" + w.members.Id
	type preview struct{ Url string }
	p := getJSON[preview](t, w.testServer, w.admin, base+"/publishing/preview?target=%2Finstall&claims="+url.QueryEscape("(plan:pro,employee:!t)"))
	u, err := url.Parse(p.Url)
	if err != nil || u.Path != "/s/"+w.members.Id+"/install" || u.Query().Get("jwt_token") == "" {
		t.Fatalf("preview URL %q", p.Url)
	}
	res := w.expect(t, http.StatusSeeOther, u.RequestURI())
	cookieName := "quire_visitor_" + w.members.Id
	page := w.expect(t, http.StatusOK, "/s/"+w.members.Id+"/install", "Cookie", cookieName+"="+cookieOf(res, cookieName))
	wantIn(t, "previewed page", page.Body, "Installing takes a minute", "Employee handbook")

	w.Expect(t, http.StatusOK, w.admin, "POST", base+"/publishing/auth/regenerate", nil)
	w.expect(t, http.StatusUnauthorized, u.RequestURI())

	ss := getJSON[gen.SiteSpaceList](t, w.testServer, w.admin, base+"/site-spaces").Items[0].Id
	if p := getJSON[preview](t, w.testServer, w.admin, base+"/publishing/preview?siteSpace="+ss); !strings.HasPrefix(p.Url, testBaseURL+"/s/"+w.members.Id+"?jwt_token=") {
		t.Fatalf("preview of the default site space: %q", p.Url)
	}
	for _, q := range []string{"claims=(plan:", "claims=!t", "siteSpace=nope", "target=https%3A%2F%2Fevil.example%2F", "target=%2F%2Fevil.example"} {
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", base+"/publishing/preview?"+q, nil)
	}
	w.Expect(t, http.StatusForbidden, w.reader, "GET", base+"/publishing/preview", nil)
}
