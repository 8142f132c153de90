package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// What the published site makes of a structure's drafts, hidden site spaces, site space titles
// and home pages, and localized titles: drafts (and what is in a draft group) are not published,
// neither in the pages nor in the published-content API; a hidden site space is published but
// left out of the variant switcher; a site space's home page is read at its root; tabs read in
// the language of the variant being read.
func TestWebDraftsHiddenAndHomePages(t *testing.T) {
	t.Parallel()
	sw := newStructWorld(t)
	w := &webWorld{world: sw.world}
	guide, guideFR, api, beta, secret := sw.newSpace(t, "Guide"), sw.newSpace(t, "Guide FR"), sw.newSpace(t, "API"), sw.newSpace(t, "Beta"), sw.newSpace(t, "Secret")
	pages := w.seed(t, guide, "Welcome", "Hello there.", "Start here", "Begin with this.")
	w.seed(t, guideFR, "Bienvenue", "Bonjour.")
	w.seed(t, api, "Endpoints", "Every endpoint.")
	w.seed(t, beta, "Beta notes", "Not yet.")
	w.seed(t, secret, "Secret plans", "Nobody knows.")
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+guideFR, map[string]any{"language": "fr"})

	guideSec := sw.addSection(t, map[string]any{"spaceId": guide, "title": "Guide"})
	fr := sw.addSiteSpace(t, guideFR, guideSec.Id)
	fr = sendJSON[gen.SiteSpace](t, w.testServer, http.StatusOK, w.admin, "PATCH", sw.path("/site-spaces/"+fr.Id), map[string]any{"path": "fr"})
	sw.addSection(t, map[string]any{"spaceId": api, "title": "API"})
	apiSec := sw.section(t, sw.sections(t, "?limit=1000").Items[1].Id)
	sendJSON[gen.SiteSection](t, w.testServer, http.StatusOK, w.admin, "PATCH", sw.path("/sections/"+apiSec.Id), map[string]any{"localizedTitle": map[string]any{"fr": "Reference FR"}})
	betaSec := sw.addSection(t, map[string]any{"spaceId": beta, "title": "Beta", "draft": true})
	later := sw.addGroup(t, map[string]any{"title": "Later", "draft": true})
	sw.addSection(t, map[string]any{"spaceId": secret, "title": "Secret", "siteSectionGroupId": later.Id})
	w.Expect(t, http.StatusOK, w.admin, "POST", sw.path("/publish"), nil)
	base := "/s/" + sw.site

	home := w.expect(t, http.StatusOK, base+"/")
	wantIn(t, "home", home.Body, "<title>Welcome | Docs</title>", ">Guide</a>", ">API</a>", ">Guide FR</a>")
	wantNotIn(t, "home", home.Body, ">Beta</a>", ">Secret</a>", ">Later<", "Reference FR")
	w.expect(t, http.StatusNotFound, base+"/beta/")
	w.expect(t, http.StatusNotFound, base+"/secret/")
	published := getJSON[gen.PublishedContentSite](t, w.testServer, w.admin, sw.path("/published"))
	if got := len(published.Structure.Structure); got != 2 {
		t.Fatalf("the published structure has %d entries, want Guide and API: %+v", got, published.Structure.Structure)
	}

	// The French variant: its tabs in French where a section has a French title.
	frPage := w.expect(t, http.StatusOK, base+"/fr/")
	wantIn(t, "fr", frPage.Body, "<title>Bienvenue | Docs</title>", ">Reference FR</a>")

	// A hidden variant leaves the switcher (but for itself) and stays readable; an own title
	// names it there.
	sendJSON[gen.SiteSpace](t, w.testServer, http.StatusOK, w.admin, "PATCH", sw.path("/site-spaces/"+fr.Id), map[string]any{"hidden": true})
	wantNotIn(t, "home, French hidden", w.expect(t, http.StatusOK, base+"/").Body, ">Guide FR</a>")
	wantIn(t, "fr, hidden", w.expect(t, http.StatusOK, base+"/fr/").Body, ">Guide FR</a>", "<title>Bienvenue | Docs</title>")

	// The guide's own home page is read at its root.
	guideSS := guideSec.SiteSpaces[0]
	sendJSON[gen.SiteSpace](t, w.testServer, http.StatusOK, w.admin, "PATCH", sw.path("/site-spaces/"+guideSS.Id), map[string]any{"pageId": pages["Start here"]})
	wantIn(t, "home with a home page", w.expect(t, http.StatusOK, base+"/").Body, "<title>Start here | Docs</title>", "Begin with this.")

	// Made live, the draft section is published; a draft site space is not.
	sendJSON[gen.SiteSection](t, w.testServer, http.StatusOK, w.admin, "PATCH", sw.path("/sections/"+betaSec.Id), map[string]any{"draft": false})
	wantIn(t, "beta", w.expect(t, http.StatusOK, base+"/beta/").Body, "<title>Beta notes | Docs</title>")
	sendJSON[gen.SiteSpace](t, w.testServer, http.StatusOK, w.admin, "PATCH", sw.path("/site-spaces/"+betaSec.SiteSpaces[0].Id), map[string]any{"draft": true})
	w.expect(t, http.StatusNotFound, base+"/beta/")
	sendJSON[gen.SiteSectionGroup](t, w.testServer, http.StatusOK, w.admin, "PATCH", sw.path("/section-groups/"+later.Id), map[string]any{"draft": false})
	wantIn(t, "secret", w.expect(t, http.StatusOK, base+"/secret/").Body, "<title>Secret plans | Docs</title>")
}
