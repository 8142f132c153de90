package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// TestSiteOpsInABrowser: in a real browser, a redirect of the site is followed to its page, a
// moved page's old address leads to it, and a share link opens its site until it is turned off.
func TestSiteOpsInABrowser(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	w := newWebWorld(t)
	api := "/orgs/" + w.org.Id + "/sites/"
	w.Expect(t, http.StatusCreated, w.admin, "POST", api+w.site.Id+"/redirects", map[string]any{"source": "/get-started", "permanent": true,
		"destination": map[string]any{"kind": "site-page", "siteSpaceId": w.guideSection.SiteSpaces[0].Id, "pageId": w.pages["install"]}})
	base := w.URL + "/s/" + w.site.Id
	if st := b.open(base + "/get-started"); st != 200 {
		t.Fatalf("the redirect answered %d in the end", st)
	}
	if got, loc := b.text("main h1"), b.location(); got != "Install" || !strings.HasSuffix(loc, "/install") {
		t.Fatalf("after the redirect: h1 %q at %s", got, loc)
	}

	cr := w.create(t, w.admin, w.guide.Id, "Move")
	w.apply(t, w.admin, w.guide.Id, cr.Id, movePage(w.pages["linux"], ""))
	w.merge(t, w.admin, w.guide.Id, cr.Id)
	b.open(base + "/install/linux")
	if got, loc := b.text("main h1"), b.location(); got != "Linux" || !strings.HasSuffix(loc, "/linux") {
		t.Fatalf("the moved page's old address: h1 %q at %s", got, loc)
	}

	link := sendJSON[gen.ShareLink](t, w.testServer, http.StatusCreated, w.admin, "POST", api+w.secret.Id+"/share-links", map[string]any{"name": "Browser"})
	published := strings.Replace(link.Urls.Published, testBaseURL, w.URL, 1)
	if st := b.open(published); st != 200 {
		t.Fatalf("the share link answered %d", st)
	}
	if got := b.text("main h1"); got != "Introduction" {
		t.Fatalf("through the share link: h1 %q", got)
	}
	secret := w.URL + "/s/" + w.secret.Id
	if st := b.open(secret + "/install"); st != 200 {
		t.Fatalf("the next page (the link's cookie) answered %d", st)
	}
	w.Expect(t, http.StatusOK, w.admin, "PATCH", api+w.secret.Id+"/share-links/"+link.Id, map[string]any{"active": false})
	if st := b.open(secret + "/install"); st != 404 {
		t.Fatalf("after the link was turned off the site answered %d", st)
	}
	b.screenshot("share-link-revoked")
}
