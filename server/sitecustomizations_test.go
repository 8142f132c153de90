package server_test

import (
	"net/http"
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
			"logo":  map[string]any{"light": "https://example.com/logo.png", "dark": "https://example.com/logo-dark.png"},
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
