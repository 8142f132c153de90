package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// Header and footer links to pages show with the page's published URL; a page the site does not
// show is left out.
func TestCustomizationPageLinksOnPages(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	site := "/s/" + w.site.Id
	page := func(title, id, space string) map[string]any {
		to := map[string]any{"kind": "page", "page": id}
		if space != "" {
			to["space"] = space
		}
		return map[string]any{"title": title, "to": to}
	}
	w.Expect(t, http.StatusOK, w.admin, "PUT", "/orgs/"+w.org.Id+"/sites/"+w.site.Id+"/customization", map[string]any{
		"header": map[string]any{"preset": "default", "links": []any{withLinks(page("Install now", w.pages["install"], "")), withLinks(page("Gone", "nope", ""))}},
		"footer": map[string]any{"groups": []any{map[string]any{"title": "Docs", "links": []any{
			page("Linux", w.pages["linux"], w.guide.Id), page("Staff", w.pages["install"], w.staff.Id)}}}},
	})
	got := w.expect(t, http.StatusOK, site+"/")
	for _, want := range []string{`<a href="` + site + `/install">Install now</a>`, `<a href="` + site + `/install/linux">Linux</a>`} {
		if !strings.Contains(got.Body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	for _, not := range []string{">Gone<", ">Staff<"} {
		if strings.Contains(got.Body, not) {
			t.Errorf("the page shows %s", not)
		}
	}
	if t.Failed() {
		t.Log(got.Body)
	}
}

// withLinks gives a header item its (empty) dropdown.
func withLinks(item map[string]any) map[string]any {
	item["links"] = []any{}
	return item
}
