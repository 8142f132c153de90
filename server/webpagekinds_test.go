package server_test

import (
	"net/http"
	"testing"
)

// On a published site a group is a heading over its pages, a link an entry that opens its
// target (a URL, a page, a space the site shows); neither is a page of its own.
func TestWebGroupsAndLinks(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id
	cr := w.create(t, w.admin, w.guide.Id, "Kinds")
	w.apply(t, w.admin, w.guide.Id, cr.Id,
		insertGroup("Reference", "ref"),
		insertMarkdown("Glossary", "Words and what they mean.", "glossary", "into", "ref"),
		insertLink("Status", "status", urlTarget("https://status.example.com/"), "into", "ref"),
		insertLink("Setup (link)", "setup", map[string]any{"kind": "page", "page": w.pages["install"]}, "into", "ref"),
		insertLink("Version two", "v2", map[string]any{"kind": "space", "space": w.guide2.Id}, "into", "ref"),
		insertLink("Pro API", "api", map[string]any{"kind": "space", "space": w.api.Id}, "into", "ref"),
	)
	w.merged(t, w.guide.Id, cr.Id)

	home := w.expect(t, http.StatusOK, base+"/")
	wantIn(t, "sidebar", home.Body,
		`<li class="nav-group"><span class="nav-heading">Reference</span><ul>`,
		`<a href="`+base+`/reference/glossary">Glossary</a>`,
		`<a href="https://status.example.com/" rel="noopener noreferrer" class="external">Status</a>`,
		`<a href="`+base+`/install">Setup (link)</a>`,
		`<a href="`+base+`/guide-v2/">Version two</a>`)
	// The API section is not shown to this visitor: a link to its space leads nowhere.
	wantNotIn(t, "sidebar", home.Body, "Pro API")

	// Previous and next go from page to page, over the group heading and past the links.
	glossary := w.expect(t, http.StatusOK, base+"/reference/glossary")
	wantIn(t, "glossary", glossary.Body, "Words and what they mean.", `rel="prev" href="`+base+`/script-alert-title-script-tricky"`)
	wantNotIn(t, "glossary", glossary.Body, `rel="next"`)

	// A link has no page; a group's address leads to its first page.
	w.expect(t, http.StatusNotFound, base+"/reference/status")
	if r := w.get(t, base+"/reference"); r.Status != http.StatusFound || r.Header.Get("Location") != base+"/reference/glossary" {
		t.Fatalf("group address: %d %v", r.Status, r.Header)
	}

	// Search finds a link by its title and leads to its target.
	found := w.expect(t, http.StatusOK, base+"/~search?q=status")
	wantIn(t, "search", found.Body, `href="https://status.example.com/"`)

	// The sitemap lists pages only.
	sitemap := w.expect(t, http.StatusOK, base+"/sitemap.xml")
	wantIn(t, "sitemap", sitemap.Body, "/reference/glossary</loc>")
	wantNotIn(t, "sitemap", sitemap.Body, "/reference/status<", "/reference</loc>")
}
