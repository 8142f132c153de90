package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// quire's own pages show a reusable content where a page includes it, as the page's revision
// holds it, sanitized as any page; one the revision does not hold shows a note, not an error.
func TestWebRendersReusableContents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ww := &webWorld{world: w}
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Seed")
	warn := w.apply(t, w.admin, sp.Id, cr.Id,
		insertReusable("Warning", "**Mind** the gap.\n\n<script>alert(1)</script><img src=x onerror=alert(2)>\n", "warn")).Refs["warn"]
	w.merged(t, sp.Id, cr.Id)
	cr = w.create(t, w.admin, sp.Id, "Page")
	w.apply(t, w.admin, sp.Id, cr.Id, insertMarkdown("Home", "Before.\n\n{% include \""+warn+"\" %}\n\nBetween.\n\n{% include \"nope\" %}\n\nAfter.\n", "home"))
	first := w.merged(t, sp.Id, cr.Id)
	site := ww.createWebSite(t, "Docs site", "public", sp.Id)
	w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+w.org.Id+"/sites/"+site.Id+"/publish", nil)

	r := ww.expect(t, http.StatusOK, "/s/"+site.Id+"/")
	wantIn(t, "site page", r.Body, `<div class="reusable-content"><p><strong>Mind</strong> the gap.</p>`,
		`This reusable content is not available.`, `<p>Before.</p>`, `<p>Between.</p>`, `<p>After.</p>`)
	wantNotIn(t, "site page", r.Body, "<script", "onerror", "{%", "quireblock")
	if i, j, k := strings.Index(r.Body, "Before."), strings.Index(r.Body, "the gap"), strings.Index(r.Body, "Between."); i < 0 || j < i || k < j {
		t.Error("the reusable content is not where the page includes it")
	}

	// Edited on main: the site shows the new text, the older revision's view the old one.
	cr = w.create(t, w.admin, sp.Id, "Edit")
	w.apply(t, w.admin, sp.Id, cr.Id, map[string]any{"operation": "update_reusable_content", "reusableContent": warn,
		"document": markdownDoc("Mind the *step*.\n")})
	w.merged(t, sp.Id, cr.Id)
	r = ww.expect(t, http.StatusOK, "/s/"+site.Id+"/")
	wantIn(t, "site page after the edit", r.Body, `<div class="reusable-content"><p>Mind the <em>step</em>.</p>`)
	admin := ww.appLogin(t, w.admin)
	app := ww.expect(t, http.StatusOK, "/app/s/"+sp.Id+"/home", "Cookie", admin)
	wantIn(t, "app page", app.Body, `Mind the <em>step</em>.`, `This reusable content is not available.`)
	old := ww.expect(t, http.StatusOK, "/app/s/"+sp.Id+"/revisions/"+first+"/home", "Cookie", admin)
	wantIn(t, "the first revision's page", old.Body, `<strong>Mind</strong> the gap.`)
	wantNotIn(t, "the first revision's page", old.Body, "step", "<script")
}
