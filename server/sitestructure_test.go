package server_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// structWorld is the world with a site of the organization with spaces to put in it.
type structWorld struct {
	*world
	site string
}

func newStructWorld(t *testing.T) *structWorld {
	t.Helper()
	w := &structWorld{world: newWorld(t)}
	w.site = w.mustSite(t, w.admin, w.org.Id, "Docs")
	return w
}

// mustSite creates a site without spaces in an organization and returns its id.
func (w *structWorld) mustSite(t *testing.T, u *testUser, orgID, title string) string {
	t.Helper()
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, u, "POST", "/orgs/"+orgID+"/sites", map[string]any{"title": title})
	return site.Id
}

// path is the API path of the site, followed by rest.
func (w *structWorld) path(rest string) string {
	return "/orgs/" + w.org.Id + "/sites/" + w.site + rest
}

func (w *structWorld) newSpace(t *testing.T, title string) string {
	t.Helper()
	return w.MustCreateSpace(t, w.admin, w.org.Id, title, "").Id
}

// addSiteSpace adds a space to the site (to a section unless sectionID is "").
func (w *structWorld) addSiteSpace(t *testing.T, spaceID, sectionID string) gen.SiteSpace {
	t.Helper()
	body := map[string]any{"spaceId": spaceID}
	if sectionID != "" {
		body["sectionId"] = sectionID
	}
	return siteAdd[gen.SiteSpace](t, w, "/site-spaces", body)
}

// The site's lists and additions, one typed wrapper per operation, as the admin.
func (w *structWorld) siteSpaces(t *testing.T, query string) gen.SiteSpaceList {
	return siteList[gen.SiteSpaceList](t, w, "/site-spaces", query)
}
func (w *structWorld) sections(t *testing.T, query string) gen.SiteSectionList {
	return siteList[gen.SiteSectionList](t, w, "/sections", query)
}
func (w *structWorld) groups(t *testing.T, query string) gen.SiteSectionGroupList {
	return siteList[gen.SiteSectionGroupList](t, w, "/section-groups", query)
}
func (w *structWorld) addSection(t *testing.T, body map[string]any) gen.SiteSection {
	return siteAdd[gen.SiteSection](t, w, "/sections", body)
}
func (w *structWorld) addGroup(t *testing.T, body map[string]any) gen.SiteSectionGroup {
	return siteAdd[gen.SiteSectionGroup](t, w, "/section-groups", body)
}

// siteList reads a list of the site's (what is its path under the site) with a query.
func siteList[L any](t *testing.T, w *structWorld, what, query string) L {
	t.Helper()
	return getJSON[L](t, w.testServer, w.admin, w.path(what+query))
}

// siteAdd adds to a list of the site's, which must answer 201.
func siteAdd[T any](t *testing.T, w *structWorld, what string, body any) T {
	t.Helper()
	return sendJSON[T](t, w.testServer, http.StatusCreated, w.admin, "POST", w.path(what), body)
}

// section finds a section of the site by id in the list of all sections.
func (w *structWorld) section(t *testing.T, id string) gen.SiteSection {
	t.Helper()
	for _, sec := range w.sections(t, "?limit=1000").Items {
		if sec.Id == id {
			return sec
		}
	}
	t.Fatalf("no section %s in the site", id)
	return gen.SiteSection{}
}

// defaultsOf returns the ids of the items of a list (site spaces or sections) marked default.
func defaultsOf[T any](items []T) []string {
	out := []string{}
	for _, it := range items {
		if v := reflect.ValueOf(it); v.FieldByName("Default").Bool() {
			out = append(out, v.FieldByName("Id").String())
		}
	}
	return out
}

// childIDs returns the ids of a group's children, in order.
func childIDs(t *testing.T, g gen.SiteSectionGroup) []string {
	t.Helper()
	out := []string{}
	for _, c := range g.Children {
		m := map[string]any{}
		raw, err := c.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m["object"].(string)+":"+m["id"].(string))
	}
	return out
}

func TestSiteSpaceAddAndList(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	alpha, beta := w.newSpace(t, "Alpha Guide"), w.newSpace(t, "Beta")
	alpha2 := w.newSpace(t, "Alpha  guide!")

	first := w.addSiteSpace(t, alpha, "")
	if !first.Default || first.Path != "alpha-guide" || first.Title != "Alpha Guide" || first.Space.Id != alpha || first.Section != nil {
		t.Fatalf("first site space = %+v", first)
	}
	if first.Urls.Published != nil {
		t.Fatalf("an unpublished site's site space has a published URL: %s", *first.Urls.Published)
	}
	if !first.Space.Permissions.Admin {
		t.Fatal("the space of a site space does not carry the caller's permissions")
	}
	second := w.addSiteSpace(t, beta, "")
	third := w.addSiteSpace(t, alpha2, "")
	if second.Default || third.Default {
		t.Fatal("only the first site space is the default")
	}
	if third.Path != "alpha-guide-2" {
		t.Fatalf("derived path of a clash = %q, want alpha-guide-2", third.Path)
	}

	all := w.siteSpaces(t, "")
	wantIDs(t, "site spaces", idsOf(all.Items), first.Id, second.Id, third.Id)
	if all.Count != 3 || all.Next != nil {
		t.Fatalf("count %d next %v", all.Count, all.Next)
	}
	t.Run("DefaultFilter", func(t *testing.T) {
		l := w.siteSpaces(t, "?default=true")
		wantIDs(t, "default site spaces", idsOf(l.Items), first.Id)
		if l.Count != 1 {
			t.Fatalf("count %d, want 1", l.Count)
		}
		l = w.siteSpaces(t, "?default=false")
		wantIDs(t, "other site spaces", idsOf(l.Items), second.Id, third.Id)
		if l.Count != 2 {
			t.Fatalf("count %d, want 2", l.Count)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		p1 := w.siteSpaces(t, "?limit=2")
		if len(p1.Items) != 2 || p1.Count != 3 || p1.Next == nil {
			t.Fatalf("page 1: %d items, count %d, next %v", len(p1.Items), p1.Count, p1.Next)
		}
		p2 := w.siteSpaces(t, "?limit=2&page="+p1.Next.Page)
		wantIDs(t, "page 2", idsOf(p2.Items), third.Id)
		if p2.Next != nil {
			t.Fatal("the last page has a next page")
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", w.path("/site-spaces?page=nonsense"), nil)
	})
	t.Run("ShareKeyAccepted", func(t *testing.T) {
		l := w.siteSpaces(t, "?shareKey=anything")
		if l.Count != 3 {
			t.Fatalf("count %d", l.Count)
		}
	})
	t.Run("InvalidSpaces", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": "nope"})
		wantMessage(t, r, "spaceId")
		foreign := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "").Id
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": foreign})
		gone := w.newSpace(t, "Gone")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone, nil)
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": gone})
		r = w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": beta, "sectionId": "nope"})
		wantMessage(t, r, "sectionId")
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{})
	})
}

func TestSiteSpaceUpdate(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	a := w.addSiteSpace(t, w.newSpace(t, "Alpha"), "")
	b := w.addSiteSpace(t, w.newSpace(t, "Beta"), "")
	patch := func(t *testing.T, want int, id string, body map[string]any) *response {
		t.Helper()
		return w.Expect(t, want, w.admin, "PATCH", w.path("/site-spaces/"+id), body)
	}
	t.Run("Path", func(t *testing.T) {
		var ss gen.SiteSpace
		long := strings.Repeat("p", 100)
		patch(t, http.StatusOK, b.Id, map[string]any{"path": long}).Decode(t, &ss)
		if ss.Path != long {
			t.Fatalf("path = %q", ss.Path)
		}
		patch(t, http.StatusBadRequest, b.Id, map[string]any{"path": long + "p"})
		patch(t, http.StatusBadRequest, b.Id, map[string]any{"path": ""})
		r := patch(t, http.StatusConflict, b.Id, map[string]any{"path": "alpha"})
		wantMessage(t, r, "path", `"alpha"`)
		patch(t, http.StatusOK, a.Id, map[string]any{"path": "alpha"}) // its own path is no clash
		patch(t, http.StatusOK, b.Id, map[string]any{"path": "v2/beta"})
	})
	t.Run("Condition", func(t *testing.T) {
		cond := `visitor.claims.x === "` + strings.Repeat("a", 1001) + `"`
		if len(cond) != 1024 {
			t.Fatalf("condition of %d characters", len(cond))
		}
		var ss gen.SiteSpace
		patch(t, http.StatusOK, b.Id, map[string]any{"condition": cond}).Decode(t, &ss)
		if ss.Condition == nil || *ss.Condition != cond {
			t.Fatal("condition not saved")
		}
		patch(t, http.StatusBadRequest, b.Id, map[string]any{"condition": cond + " "})
		r := patch(t, http.StatusBadRequest, b.Id, map[string]any{"condition": "visitor.claims.beta == true"})
		wantMessage(t, r, "condition", "column")
		patch(t, http.StatusBadRequest, b.Id, map[string]any{"condition": "window.alert(1)"})
		patch(t, http.StatusOK, b.Id, map[string]any{"path": "beta"}).Decode(t, &ss)
		if ss.Condition == nil {
			t.Fatal("a condition left out of an update was removed")
		}
		var removed gen.SiteSpace // a fresh value: decoding leaves fields the body omits alone
		patch(t, http.StatusOK, b.Id, map[string]any{"condition": nil}).Decode(t, &removed)
		if removed.Condition != nil {
			t.Fatal("null did not remove the condition")
		}
		patch(t, http.StatusOK, b.Id, map[string]any{"condition": `visitor.claims.unsigned.beta === true && !(visitor.claims.plan !== "pro")`})
	})
	t.Run("SpaceId", func(t *testing.T) {
		gamma := w.newSpace(t, "Gamma")
		var ss gen.SiteSpace
		patch(t, http.StatusOK, b.Id, map[string]any{"spaceId": gamma}).Decode(t, &ss)
		if ss.Space.Id != gamma || ss.Title != "Gamma" || ss.Path != "beta" {
			t.Fatalf("site space after spaceId = %+v", ss)
		}
		r := patch(t, http.StatusBadRequest, b.Id, map[string]any{"spaceId": "nope"})
		wantMessage(t, r, "spaceId")
	})
	t.Run("Unknown", func(t *testing.T) {
		patch(t, http.StatusNotFound, "nope", map[string]any{"path": "x"})
		patch(t, http.StatusBadRequest, a.Id, map[string]any{"unknown": 1})
	})
}

func TestSiteSpaceDefaults(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	a := w.addSiteSpace(t, w.newSpace(t, "A"), "")
	b := w.addSiteSpace(t, w.newSpace(t, "B"), "")
	c := w.addSiteSpace(t, w.newSpace(t, "C"), "")

	// The default goes: the next one by position takes over.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+a.Id), nil)
	wantIDs(t, "defaults", defaultsOf(w.siteSpaces(t, "").Items), b.Id)
	// A default that is last gives way to the first.
	d := w.addSiteSpace(t, w.newSpace(t, "D"), "")
	w.Expect(t, http.StatusOK, w.admin, "POST", w.path("/site-spaces/"+b.Id+"/move"),
		map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": d.Id}}})
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+b.Id), nil)
	wantIDs(t, "defaults", defaultsOf(w.siteSpaces(t, "").Items), c.Id)
	// A site space that is not the default goes alone; a missing one is no error.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+d.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+d.Id), nil)
	wantIDs(t, "defaults", defaultsOf(w.siteSpaces(t, "").Items), c.Id)
	// The last one goes: the site keeps working, with an empty structure.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+c.Id), nil)
	if l := w.siteSpaces(t, ""); l.Count != 0 || len(l.Items) != 0 {
		t.Fatalf("site spaces left: %d", l.Count)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/sites/"+w.site, nil)
	e := w.addSiteSpace(t, w.newSpace(t, "E"), "")
	if !e.Default {
		t.Fatal("the first site space of an emptied site is not the default")
	}
}

func TestSiteSpaceMove(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	a := w.addSiteSpace(t, w.newSpace(t, "A"), "")
	b := w.addSiteSpace(t, w.newSpace(t, "B"), "")
	c := w.addSiteSpace(t, w.newSpace(t, "C"), "")
	move := func(t *testing.T, want int, id, where, ref string) *response {
		t.Helper()
		return w.Expect(t, want, w.admin, "POST", w.path("/site-spaces/"+id+"/move"),
			map[string]any{"position": map[string]any{where: map[string]any{"type": "site-space", "siteSpace": ref}}})
	}
	var moved gen.SiteSpace
	move(t, http.StatusOK, c.Id, "before", a.Id).Decode(t, &moved)
	if moved.Id != c.Id {
		t.Fatalf("moved answered %s", moved.Id)
	}
	wantIDs(t, "order", idsOf(w.siteSpaces(t, "").Items), c.Id, a.Id, b.Id)
	move(t, http.StatusOK, a.Id, "after", b.Id)
	wantIDs(t, "order", idsOf(w.siteSpaces(t, "").Items), c.Id, b.Id, a.Id)
	wantIDs(t, "defaults", defaultsOf(w.siteSpaces(t, "").Items), a.Id) // moving keeps the default

	r := move(t, http.StatusBadRequest, a.Id, "before", a.Id)
	wantMessage(t, r, "itself")
	move(t, http.StatusBadRequest, a.Id, "after", b.Id) // already there
	move(t, http.StatusBadRequest, a.Id, "after", "nope")
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces/"+a.Id+"/move"),
		map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "site-space", "siteSpace": b.Id},
			"after":  map[string]any{"type": "site-space", "siteSpace": c.Id}}})
	move(t, http.StatusNotFound, "nope", "after", b.Id)

	// A site space of another section is not a sibling.
	sec := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "Other")})
	r = move(t, http.StatusBadRequest, a.Id, "before", sec.SiteSpaces[0].Id)
	wantMessage(t, r, "position.before", "sibling")
}

func TestSiteStructureSpaceDeletion(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	x, y := w.newSpace(t, "X"), w.newSpace(t, "Y")
	// A one-letter space title cannot title a section: the section needs its own.
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), map[string]any{"spaceId": x}), `"title"`)
	sec := w.addSection(t, map[string]any{"spaceId": x, "title": "Xylophones"})
	ys := w.addSiteSpace(t, y, sec.Id)
	other := w.mustSite(t, w.admin, w.org.Id, "Other")

	// A space published by two sites goes: its site spaces go from both, defaults promoted.
	sendJSON[gen.SiteSpace](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites/"+other+"/site-spaces", map[string]any{"spaceId": x})
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+x, nil)
	l := w.siteSpaces(t, "")
	wantIDs(t, "site spaces", idsOf(l.Items), ys.Id)
	wantIDs(t, "defaults", defaultsOf(l.Items), ys.Id)
	ol := getJSON[gen.SiteSpaceList](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/sites/"+other+"/site-spaces")
	if ol.Count != 0 {
		t.Fatalf("the other site still has %d site spaces", ol.Count)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/sites/"+other, nil)

	// Deleting a collection deletes its spaces, and so their site spaces; the section stays.
	col := w.MustCreateCollection(t, w.admin, w.org.Id, "Col", "")
	w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+y+"/move", map[string]any{"parent": col.Id})
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/collections/"+col.Id, nil)
	if l := w.siteSpaces(t, ""); l.Count != 0 {
		t.Fatalf("%d site spaces left", l.Count)
	}
	if got := w.section(t, sec.Id); len(got.SiteSpaces) != 0 {
		t.Fatal("the section still lists site spaces of deleted spaces")
	}
}

func TestSiteStructureURLs(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	one := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "One")})
	two := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "Two")})
	twoB := w.addSiteSpace(t, w.newSpace(t, "Two B"), two.Id)
	if one.Urls.Published != nil || twoB.Urls.Published != nil {
		t.Fatal("an unpublished site has published URLs")
	}
	w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+w.org.Id+"/sites/"+w.site+"/publish", nil)
	base := testBaseURL + "/s/" + w.site
	want := map[string]string{
		one.SiteSpaces[0].Id: base,
		two.SiteSpaces[0].Id: base + "/two",
		twoB.Id:              base + "/two/two-b",
	}
	for _, ss := range w.siteSpaces(t, "").Items {
		if ss.Urls.Published == nil || *ss.Urls.Published != want[ss.Id] {
			t.Fatalf("site space %s published at %v, want %s", ss.Path, ss.Urls.Published, want[ss.Id])
		}
	}
	for _, sec := range w.sections(t, "").Items {
		wantSec := base
		if !sec.Default {
			wantSec = base + "/" + sec.Path
		}
		if sec.Urls.Published == nil || *sec.Urls.Published != wantSec {
			t.Fatalf("section %s published at %v, want %s", sec.Path, sec.Urls.Published, wantSec)
		}
	}
	var site gen.Site
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id+"/sites/"+w.site, map[string]any{"visibility": "share-link"})
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/sites/"+w.site, nil).Decode(t, &site)
	ss := sendJSON[gen.SiteSpace](t, w.testServer, http.StatusOK, w.admin, "PATCH", w.path("/site-spaces/"+twoB.Id), map[string]any{"path": "bee"})
	if ss.Urls.Published == nil || !strings.HasPrefix(*ss.Urls.Published, base+"/two/bee?share=") {
		t.Fatalf("share-link site space published at %v", ss.Urls.Published)
	}
}

func TestSiteStructureAccess(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	sec := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "One")})
	g := w.addGroup(t, map[string]any{"title": "G"})
	ssID := sec.SiteSpaces[0].Id
	space := w.newSpace(t, "Two")
	writes := []struct {
		method, path string
		body         any
	}{
		{"POST", "/site-spaces", map[string]any{"spaceId": space}},
		{"PATCH", "/site-spaces/" + ssID, map[string]any{"path": "x"}},
		{"POST", "/site-spaces/" + ssID + "/move", map[string]any{}},
		{"DELETE", "/site-spaces/" + ssID, nil},
		{"POST", "/sections", map[string]any{"spaceId": space}},
		{"PATCH", "/sections/" + sec.Id, map[string]any{"title": "Xx"}},
		{"POST", "/sections/" + sec.Id + "/move", map[string]any{}},
		{"DELETE", "/sections/" + sec.Id, nil},
		{"POST", "/section-groups", map[string]any{"title": "G2"}},
		{"PATCH", "/section-groups/" + g.Id, map[string]any{"title": "G3"}},
		{"DELETE", "/section-groups/" + g.Id, nil},
		{"POST", "/section-groups/" + g.Id + "/sections", map[string]any{"sectionId": sec.Id}},
		{"DELETE", "/section-groups/" + g.Id + "/sections/" + sec.Id, nil},
	}
	reads := []string{"/site-spaces", "/sections", "/section-groups"}
	for _, path := range reads {
		w.Expect(t, http.StatusOK, w.reader, "GET", w.path(path), nil)
		w.Expect(t, http.StatusNotFound, w.guest, "GET", w.path(path), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", w.path(path), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", w.path(path), nil)
	}
	for _, op := range writes {
		w.Expect(t, http.StatusForbidden, w.reader, op.method, w.path(op.path), op.body)
		w.Expect(t, http.StatusNotFound, w.guest, op.method, w.path(op.path), op.body)
		w.Expect(t, http.StatusNotFound, w.outsider, op.method, w.path(op.path), op.body)
		w.Expect(t, http.StatusUnauthorized, nil, op.method, w.path(op.path), op.body)
	}
	// A site of another organization, named under this one's path, is not found.
	theirs := w.mustSite(t, w.outsider, w.other.Id, "Theirs")
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/sites/"+theirs+"/site-spaces", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "DELETE", "/orgs/"+w.org.Id+"/sites/"+theirs+"/sections/x", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/sites/nope/sections", nil)
	// Nothing changed.
	if got := w.section(t, sec.Id); got.Title != sec.Title || len(got.SiteSpaces) != 1 {
		t.Fatal("a refused write changed the section")
	}
	if l := w.groups(t, ""); l.Count != 1 {
		t.Fatal("a refused write changed the groups")
	}
}
