package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// structureIDs lists the top level of a site's structure as object:id, in order.
func (w *structWorld) structureIDs(t *testing.T) []string {
	t.Helper()
	st := getJSON[gen.SiteStructure](t, w.testServer, w.admin, w.path("/structure"))
	return entryIDs(t, st.Structure)
}

func entryIDs(t *testing.T, entries []gen.SiteStructureEntry) []string {
	t.Helper()
	out := []string{}
	for _, e := range entries {
		raw, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m["object"].(string)+":"+m["id"].(string))
	}
	return out
}

// doPrefer sends a JSON request as the admin with a Prefer header, checked against the spec.
func (w *structWorld) doPrefer(t *testing.T, method, path, prefer string, body any) *response {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(method, w.URL+"/v1"+path, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+w.admin.Token)
	req.Header.Set("Prefer", prefer)
	res, out := readResponse(t)(http.DefaultClient.Do(req))
	checkResponse(t, req, res, out)
	return &response{Status: res.StatusCode, Header: res.Header, Body: out}
}

func TestSiteExternalLinks(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	add := func(want int, body map[string]any) *response {
		t.Helper()
		return w.Expect(t, want, w.admin, "POST", w.path("/external-links"), body)
	}
	// A site whose spaces are at its root has no navigation for links.
	w.addSiteSpace(t, w.newSpace(t, "Root"), "")
	wantMessage(t, add(http.StatusBadRequest, map[string]any{"title": "Blog", "url": "https://example.com/blog"}), "section")

	one, two, _, _ := w.fourSections(t)
	r := add(http.StatusCreated, map[string]any{"title": "Blog", "url": "https://example.com/blog", "icon": "rss",
		"description": "News", "localizedTitle": map[string]any{"fr": "Le blog"}})
	var blog gen.SiteExternalLink
	r.Decode(t, &blog)
	if blog.Title != "Blog" || blog.Url != "https://example.com/blog" || blog.Draft || blog.Icon == nil || *blog.Icon != "rss" ||
		blog.Description == nil || *blog.Description != "News" || blog.LocalizedTitle == nil || (*blog.LocalizedTitle)["fr"] != "Le blog" {
		t.Fatalf("link = %+v", blog)
	}
	if loc := r.Header.Get("Location"); !strings.HasSuffix(loc, w.path("/external-links/"+blog.Id)) {
		t.Fatalf("Location = %q", loc)
	}
	ids := w.structureIDs(t)
	if last := ids[len(ids)-1]; last != "site-external-link:"+blog.Id {
		t.Fatalf("structure = %v", ids)
	}

	// Bad input changes nothing.
	add(http.StatusBadRequest, map[string]any{"title": "Bad", "url": "javascript:alert(1)"})
	add(http.StatusBadRequest, map[string]any{"title": "Bad", "url": "https://example.com", "parent": "nope"})
	add(http.StatusBadRequest, map[string]any{"title": "Bad", "url": "https://example.com", "condition": "visitor.claims.x ==="})
	add(http.StatusBadRequest, map[string]any{"title": "Bad", "url": "https://example.com", "localizedTitle": map[string]any{"xx-nope": "x"}})
	if got := w.structureIDs(t); len(got) != len(ids) {
		t.Fatalf("bad input changed the structure: %v", got)
	}

	// Into a group, out again, and the other fields.
	g := w.addGroup(t, map[string]any{"title": "More", "sections": []string{two}})
	var upd gen.SiteExternalLink
	w.Expect(t, http.StatusOK, w.admin, "PATCH", w.path("/external-links/"+blog.Id), map[string]any{"parent": g.Id, "title": "Our blog",
		"url": "https://blog.example.com", "draft": true, "condition": "visitor.claims.beta === true", "icon": nil}).Decode(t, &upd)
	if upd.SectionGroup == nil || *upd.SectionGroup != g.Id || upd.Title != "Our blog" || upd.Url != "https://blog.example.com" ||
		!upd.Draft || upd.Condition == nil || upd.Icon != nil {
		t.Fatalf("updated = %+v", upd)
	}
	wantIDs(t, "group", childIDs(t, w.groups(t, "").Items[0]), "site-section:"+two, "site-external-link:"+blog.Id)
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/external-links/"+blog.Id), map[string]any{"url": "ftp://example.com"})
	w.Expect(t, http.StatusNotFound, w.admin, "PATCH", w.path("/external-links/nope"), map[string]any{"title": "Nope"})
	if r := w.doPrefer(t, "PATCH", w.path("/external-links/"+blog.Id), "return=minimal", map[string]any{"parent": nil, "draft": false}); r.Status != http.StatusNoContent ||
		r.Header.Get("Preference-Applied") != "return=minimal" {
		t.Fatalf("minimal update: %d %v", r.Status, r.Header)
	}
	ids = w.structureIDs(t)
	if ids[1] != "site-section:"+one || ids[len(ids)-1] != "site-external-link:"+blog.Id {
		t.Fatalf("structure = %v", ids)
	}
	// Deleting the group puts its link in its place.
	w.Expect(t, http.StatusOK, w.admin, "PATCH", w.path("/external-links/"+blog.Id), map[string]any{"parent": g.Id})
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+g.Id), nil)
	ids = w.structureIDs(t)
	if ids[len(ids)-1] != "site-external-link:"+blog.Id {
		t.Fatalf("after the group went: %v", ids)
	}

	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", w.path("/external-links/"+blog.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/external-links/"+blog.Id), nil)
	for _, id := range w.structureIDs(t) {
		if strings.HasPrefix(id, "site-external-link:") {
			t.Fatalf("the link stayed: %v", id)
		}
	}
}

func TestExternalLinksOnPages(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/orgs/" + w.org.Id + "/sites/" + w.site.Id
	site := "/s/" + w.site.Id
	// One section the visitor sees: no tab bar.
	if page := w.expect(t, http.StatusOK, site+"/"); strings.Contains(page.Body, `class="tabs"`) {
		t.Fatalf("a tab bar with one section: %s", page.Body)
	}
	var live, draft, pro gen.SiteExternalLink
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/external-links", map[string]any{"title": "Status page", "url": "https://status.example.com/"}).Decode(t, &live)
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/external-links", map[string]any{"title": "Unfinished", "url": "https://draft.example.com/", "draft": true}).Decode(t, &draft)
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/external-links", map[string]any{"title": "Pro forum", "url": "https://pro.example.com/",
		"condition": `visitor.claims.plan === "pro"`}).Decode(t, &pro)
	page := w.expect(t, http.StatusOK, site+"/")
	tabs := page.Body[strings.Index(page.Body, `class="tabs"`):]
	tabs = tabs[:strings.Index(tabs, "</nav>")]
	if !strings.Contains(tabs, `<a href="https://status.example.com/" rel="noopener noreferrer" class="external">Status page</a>`) ||
		!strings.Contains(tabs, `>Guide</a>`) {
		t.Fatalf("tabs: %s", tabs)
	}
	if strings.Contains(tabs, "Unfinished") || strings.Contains(tabs, "Pro forum") {
		t.Fatalf("a draft or conditional link shows: %s", tabs)
	}
	// The order follows the structure: the link moved first comes first.
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/structure/sort", map[string]any{
		"item": map[string]any{"type": "site-external-link", "id": live.Id}, "position": map[string]any{"before": map[string]any{"type": "site-section", "id": w.guideSection.Id}}})
	page = w.expect(t, http.StatusOK, site+"/")
	if i, j := strings.Index(page.Body, "Status page</a>"), strings.Index(page.Body, ">Guide</a>"); i < 0 || j < 0 || i > j {
		t.Fatalf("the link is not before the Guide: %s", page.Body)
	}
}
