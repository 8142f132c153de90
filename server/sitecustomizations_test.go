package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// dig reads a field of a decoded JSON document by its path.
func dig(m map[string]any, path ...string) any {
	var v any = m
	for _, k := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// TestSiteCustomization: a site's customization answers the defaults until put; a put replaces
// it whole (what it leaves out goes back to its default) and is what the site's published
// content carries; a site space's overrides lie over the site's, a null drops one, and deleting
// them shows the site's again. Bad input is refused and changes nothing.
func TestSiteCustomization(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Guide", "")
	s := w.createSite(t, map[string]any{"title": "Docs", "spaces": []string{sp.Id}})
	base := w.sitesPath(s.Id)
	w.Expect(t, http.StatusOK, w.admin, "POST", base+"/publish", nil)
	var spaces gen.SiteSpaceList
	w.Expect(t, http.StatusOK, w.admin, "GET", base+"/site-spaces", nil).Decode(t, &spaces)
	ss := base + "/site-spaces/" + spaces.Items[0].Id + "/customization"

	got := w.Expect(t, http.StatusOK, w.reader, "GET", base+"/customization", nil).Map(t)
	if got["title"] != "Docs" || dig(got, "styling", "primaryColor", "light") != "#346DDB" || got["updatedAt"] != nil {
		t.Fatalf("defaults: %v", got)
	}

	put := map[string]any{
		"title":   "Branded",
		"styling": map[string]any{"primaryColor": map[string]any{"light": "#112233", "dark": "#445566"}, "tint": map[string]any{"color": map[string]any{"light": "#000000", "dark": "#FFFFFF"}}},
		"favicon": map[string]any{"emoji": "1f680"},
		"header": map[string]any{
			"logo":   map[string]any{"light": "https://example.com/logo.png", "dark": "https://example.com/logo-dark.png"},
			"preset": "bold", "links": []any{map[string]any{"title": "Blog", "to": map[string]any{"kind": "url", "url": "https://example.com/blog"}, "links": []any{}}},
		},
		"footer":     map[string]any{"copyright": "© Acme", "groups": []any{map[string]any{"title": "More", "links": []any{map[string]any{"title": "Status", "to": map[string]any{"kind": "url", "url": "https://status.example.com"}}}}}},
		"themes":     map[string]any{"default": "dark", "toggeable": false},
		"pagination": map[string]any{"enabled": false},
	}
	got = w.Expect(t, http.StatusOK, w.admin, "PUT", base+"/customization", put).Map(t)
	check := func(got map[string]any) {
		t.Helper()
		if got["title"] != "Branded" || dig(got, "styling", "primaryColor", "dark") != "#445566" || dig(got, "styling", "tint", "color", "light") != "#000000" ||
			dig(got, "styling", "corners") != "rounded" || dig(got, "favicon", "emoji") != "1f680" ||
			dig(got, "header", "logo", "light") != "https://example.com/logo.png" || dig(got, "footer", "copyright") != "© Acme" ||
			dig(got, "themes", "default") != "dark" || dig(got, "pagination", "enabled") != false || dig(got, "trademark", "enabled") != true ||
			got["updatedAt"] == nil {
			t.Fatalf("customization: %v", got)
		}
	}
	check(got)
	check(w.Expect(t, http.StatusOK, w.reader, "GET", base+"/customization", nil).Map(t))
	pub := w.Expect(t, http.StatusOK, w.admin, "GET", base+"/published", nil).Map(t)
	if dig(pub, "customizations", "site", "title") != "Branded" || dig(pub, "customizations", "site", "themes", "default") != "dark" {
		t.Fatalf("published customizations: %v", dig(pub, "customizations"))
	}

	// Refused, and nothing changes: a colour that is not one, a theme quire does not know.
	w.Expect(t, http.StatusBadRequest, w.admin, "PUT", base+"/customization", map[string]any{"styling": map[string]any{"primaryColor": map[string]any{"light": "red", "dark": "#000"}}})
	w.Expect(t, http.StatusBadRequest, w.admin, "PUT", base+"/customization", map[string]any{"themes": map[string]any{"default": "sepia"}})
	w.Expect(t, http.StatusForbidden, w.reader, "PUT", base+"/customization", map[string]any{"title": "Nope"})
	check(w.Expect(t, http.StatusOK, w.admin, "GET", base+"/customization", nil).Map(t))

	// A site space: the site's until overridden.
	if got := w.Expect(t, http.StatusOK, w.reader, "GET", ss, nil).Map(t); got["title"] != "Branded" {
		t.Fatalf("site space before overrides: %v", got)
	}
	got = w.Expect(t, http.StatusOK, w.admin, "PATCH", ss, map[string]any{"title": "Version 2", "styling": map[string]any{"primaryColor": map[string]any{"light": "#ABCDEF", "dark": "#ABCDEF"}}}).Map(t)
	if got["title"] != "Version 2" || dig(got, "styling", "primaryColor", "light") != "#ABCDEF" || dig(got, "styling", "tint", "color", "light") != "#000000" {
		t.Fatalf("overridden: %v", got)
	}
	got = w.Expect(t, http.StatusOK, w.admin, "PATCH", ss, map[string]any{"title": nil}).Map(t)
	if got["title"] != "Branded" || dig(got, "styling", "primaryColor", "light") != "#ABCDEF" {
		t.Fatalf("a null drops only its override: %v", got)
	}
	pub = w.Expect(t, http.StatusOK, w.admin, "GET", base+"/published", nil).Map(t)
	if dig(pub, "customizations", "siteSpaces", spaces.Items[0].Id, "styling", "primaryColor", "light") != "#ABCDEF" {
		t.Fatalf("published site space customizations: %v", dig(pub, "customizations", "siteSpaces"))
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", ss, map[string]any{"themes": map[string]any{"default": "sepia"}})
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", ss, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", ss, nil)
	if got := w.Expect(t, http.StatusOK, w.reader, "GET", ss, nil).Map(t); dig(got, "styling", "primaryColor", "light") != "#112233" {
		t.Fatalf("after delete: %v", got)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", base+"/site-spaces/nope/customization", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "PATCH", base+"/site-spaces/nope/customization", map[string]any{"title": "Other"})

	// Put again with less: what it leaves out is back to its default.
	got = w.Expect(t, http.StatusOK, w.admin, "PUT", base+"/customization", map[string]any{"title": "Plain"}).Map(t)
	if got["title"] != "Plain" || dig(got, "styling", "primaryColor", "light") != "#346DDB" || dig(got, "pagination", "enabled") != true {
		t.Fatalf("replaced: %v", got)
	}
}

// TestSiteCustomizationOnPages: the published pages show the title, logo, favicon, header and
// footer links and the theme a customization sets, take the primary colour from a stylesheet of
// the site's own (the CSP allows no inline style), and drop the pager when pagination is off; a
// site space's overrides show on its pages.
func TestSiteCustomizationOnPages(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/orgs/" + w.org.Id + "/sites/" + w.site.Id
	site := "/s/" + w.site.Id
	before := w.expect(t, http.StatusOK, site+"/")
	if !strings.Contains(before.Body, `class="pager"`) || strings.Contains(before.Body, "~theme.css") {
		t.Fatalf("an uncustomized page: %s", before.Body)
	}
	w.Expect(t, http.StatusOK, w.admin, "PUT", base+"/customization", map[string]any{
		"title":   "Acme Handbook",
		"styling": map[string]any{"primaryColor": map[string]any{"light": "#112233", "dark": "#445566"}},
		"favicon": map[string]any{"icon": map[string]any{"light": "https://example.com/icon.png", "dark": "https://example.com/icon.png"}},
		"header": map[string]any{"preset": "default",
			"logo":  map[string]any{"light": "https://example.com/logo.png", "dark": "https://example.com/logo-dark.png"},
			"links": []any{map[string]any{"title": "Blog", "to": map[string]any{"kind": "url", "url": "https://example.com/blog"}, "links": []any{}}}},
		"footer":     map[string]any{"copyright": "© Acme Inc", "groups": []any{map[string]any{"title": "Company", "links": []any{map[string]any{"title": "Status", "to": map[string]any{"kind": "url", "url": "https://status.example.com"}}}}}},
		"themes":     map[string]any{"default": "dark", "toggeable": true},
		"pagination": map[string]any{"enabled": false},
	})
	page := w.expect(t, http.StatusOK, site+"/")
	for _, want := range []string{`<html lang="en" class="theme-dark">`, `<link rel="icon" href="https://example.com/icon.png">`,
		`<img class="logo" src="https://example.com/logo.png" alt="Acme Handbook">`, `srcset="https://example.com/logo-dark.png"`,
		`<a href="https://example.com/blog" rel="noopener noreferrer">Blog</a>`, `<h2>Company</h2>`,
		`<a href="https://status.example.com" rel="noopener noreferrer">Status</a>`, `© Acme Inc`, `| Acme Handbook</title>`} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page.Body, `class="pager"`) || strings.Contains(page.Body, "style=") {
		t.Errorf("pager or inline style on the page: %s", page.Body)
	}
	i := strings.Index(page.Body, site+"/~theme.css?v=")
	if i < 0 {
		t.Fatalf("no theme stylesheet: %s", page.Body)
	}
	href := page.Body[i:]
	href = strings.ReplaceAll(href[:strings.Index(href, `"`)], "&amp;", "&")
	css := w.expect(t, http.StatusOK, href)
	if !strings.Contains(css.Body, "--primary: #112233;") || !strings.Contains(css.Body, "--primary: #445566;") ||
		!strings.HasPrefix(css.Header.Get("Content-Type"), "text/css") {
		t.Fatalf("theme stylesheet: %v %s", css.Header, css.Body)
	}

	// The Guide's site space overrides the colour: its pages use a stylesheet of their own.
	var spaces gen.SiteSpaceList
	w.Expect(t, http.StatusOK, w.admin, "GET", base+"/site-spaces", nil).Decode(t, &spaces)
	var ssID string
	for _, ss := range spaces.Items {
		if ss.Space.Id == w.guide.Id {
			ssID = ss.Id
		}
	}
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/site-spaces/"+ssID+"/customization", map[string]any{
		"styling": map[string]any{"primaryColor": map[string]any{"light": "#ABCDEF", "dark": "#ABCDEF"}}})
	css = w.expect(t, http.StatusOK, site+"/~theme.css?ss="+ssID)
	if !strings.Contains(css.Body, "--primary: #ABCDEF;") {
		t.Fatalf("the site space's stylesheet: %s", css.Body)
	}
	if page := w.expect(t, http.StatusOK, site+"/"); !strings.Contains(page.Body, "&amp;ss="+ssID) {
		t.Fatalf("the Guide's page does not use its site space's stylesheet")
	}
}
