package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// structWorld is the cast of the site structure tests: contentWorld's organization and people,
// and a site of the organization with spaces to put in it.
type structWorld struct {
	*contentWorld
	site string
}

func newStructWorld(t *testing.T) *structWorld {
	t.Helper()
	w := &structWorld{contentWorld: newContentWorld(t)}
	w.site = w.mustSite(t, w.admin, w.org.Id, "Docs")
	return w
}

// mustSite creates a site without spaces in an organization and returns its id.
func (w *structWorld) mustSite(t *testing.T, u *testUser, orgID, title string) string {
	t.Helper()
	var site gen.Site
	w.Expect(t, http.StatusCreated, u, "POST", "/orgs/"+orgID+"/sites", map[string]any{"title": title}).Decode(t, &site)
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
	var ss gen.SiteSpace
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/site-spaces"), body).Decode(t, &ss)
	return ss
}

func (w *structWorld) siteSpaces(t *testing.T, query string) gen.SiteSpaceList {
	t.Helper()
	var l gen.SiteSpaceList
	w.Expect(t, http.StatusOK, w.admin, "GET", w.path("/site-spaces"+query), nil).Decode(t, &l)
	return l
}

func (w *structWorld) addSection(t *testing.T, body map[string]any) gen.SiteSection {
	t.Helper()
	var sec gen.SiteSection
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/sections"), body).Decode(t, &sec)
	return sec
}

func (w *structWorld) sections(t *testing.T, query string) gen.SiteSectionList {
	t.Helper()
	var l gen.SiteSectionList
	w.Expect(t, http.StatusOK, w.admin, "GET", w.path("/sections"+query), nil).Decode(t, &l)
	return l
}

func (w *structWorld) addGroup(t *testing.T, body map[string]any) gen.SiteSectionGroup {
	t.Helper()
	var g gen.SiteSectionGroup
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/section-groups"), body).Decode(t, &g)
	return g
}

func (w *structWorld) groups(t *testing.T, query string) gen.SiteSectionGroupList {
	t.Helper()
	var l gen.SiteSectionGroupList
	w.Expect(t, http.StatusOK, w.admin, "GET", w.path("/section-groups"+query), nil).Decode(t, &l)
	return l
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

func siteSpaceIDs(items []gen.SiteSpace) []string {
	out := []string{}
	for _, ss := range items {
		out = append(out, ss.Id)
	}
	return out
}

func sectionIDs(items []gen.SiteSection) []string {
	out := []string{}
	for _, sec := range items {
		out = append(out, sec.Id)
	}
	return out
}

// defaults returns the ids of the default site spaces (or sections) of a list.
func defaultSiteSpaces(items []gen.SiteSpace) []string {
	out := []string{}
	for _, ss := range items {
		if ss.Default {
			out = append(out, ss.Id)
		}
	}
	return out
}

func defaultSections(items []gen.SiteSection) []string {
	out := []string{}
	for _, sec := range items {
		if sec.Default {
			out = append(out, sec.Id)
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
	w.wantIDs(t, "site spaces", siteSpaceIDs(all.Items), first.Id, second.Id, third.Id)
	if all.Count != 3 || all.Next != nil {
		t.Fatalf("count %d next %v", all.Count, all.Next)
	}
	t.Run("DefaultFilter", func(t *testing.T) {
		l := w.siteSpaces(t, "?default=true")
		w.wantIDs(t, "default site spaces", siteSpaceIDs(l.Items), first.Id)
		if l.Count != 1 {
			t.Fatalf("count %d, want 1", l.Count)
		}
		l = w.siteSpaces(t, "?default=false")
		w.wantIDs(t, "other site spaces", siteSpaceIDs(l.Items), second.Id, third.Id)
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
		w.wantIDs(t, "page 2", siteSpaceIDs(p2.Items), third.Id)
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
		w.wantMessage(t, r, "spaceId")
		foreign := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "").Id
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": foreign})
		gone := w.newSpace(t, "Gone")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone, nil)
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": gone})
		r = w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": beta, "sectionId": "nope"})
		w.wantMessage(t, r, "sectionId")
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{})
	})
}

func TestSiteSpaceUpdate(t *testing.T) {
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
		w.wantMessage(t, r, "path", `"alpha"`)
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
		w.wantMessage(t, r, "condition", "column")
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
		w.wantMessage(t, r, "spaceId")
	})
	t.Run("Unknown", func(t *testing.T) {
		patch(t, http.StatusNotFound, "nope", map[string]any{"path": "x"})
		patch(t, http.StatusBadRequest, a.Id, map[string]any{"unknown": 1})
	})
}

func TestSiteSpaceDefaults(t *testing.T) {
	w := newStructWorld(t)
	a := w.addSiteSpace(t, w.newSpace(t, "A"), "")
	b := w.addSiteSpace(t, w.newSpace(t, "B"), "")
	c := w.addSiteSpace(t, w.newSpace(t, "C"), "")

	// The default goes: the next one by position takes over.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+a.Id), nil)
	w.wantIDs(t, "defaults", defaultSiteSpaces(w.siteSpaces(t, "").Items), b.Id)
	// A default that is last gives way to the first.
	d := w.addSiteSpace(t, w.newSpace(t, "D"), "")
	w.Expect(t, http.StatusOK, w.admin, "POST", w.path("/site-spaces/"+b.Id+"/move"),
		map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-space", "siteSpace": d.Id}}})
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+b.Id), nil)
	w.wantIDs(t, "defaults", defaultSiteSpaces(w.siteSpaces(t, "").Items), c.Id)
	// A site space that is not the default goes alone; a missing one is no error.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+d.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+d.Id), nil)
	w.wantIDs(t, "defaults", defaultSiteSpaces(w.siteSpaces(t, "").Items), c.Id)
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
	w.wantIDs(t, "order", siteSpaceIDs(w.siteSpaces(t, "").Items), c.Id, a.Id, b.Id)
	move(t, http.StatusOK, a.Id, "after", b.Id)
	w.wantIDs(t, "order", siteSpaceIDs(w.siteSpaces(t, "").Items), c.Id, b.Id, a.Id)
	w.wantIDs(t, "defaults", defaultSiteSpaces(w.siteSpaces(t, "").Items), a.Id) // moving keeps the default

	r := move(t, http.StatusBadRequest, a.Id, "before", a.Id)
	w.wantMessage(t, r, "itself")
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
	w.wantMessage(t, r, "position.before", "sibling")
}

func TestSiteSectionAdd(t *testing.T) {
	w := newStructWorld(t)
	a := w.addSiteSpace(t, w.newSpace(t, "Alpha"), "")
	b := w.addSiteSpace(t, w.newSpace(t, "Beta"), "")

	// The first section of a site with root site spaces: they are gathered into a default section
	// titled after the site, and the new section comes after it.
	guides := w.newSpace(t, "Guides")
	sec := w.addSection(t, map[string]any{"spaceId": guides, "icon": "book"})
	if sec.Title != "Guides" || sec.Path != "guides" || sec.Default || sec.Icon == nil || *sec.Icon != "book" {
		t.Fatalf("new section = %+v", sec)
	}
	if len(sec.SiteSpaces) != 1 || !sec.SiteSpaces[0].Default || sec.SiteSpaces[0].Space.Id != guides ||
		sec.SiteSpaces[0].Section == nil || *sec.SiteSpaces[0].Section != sec.Id {
		t.Fatalf("section site spaces = %+v", sec.SiteSpaces)
	}
	all := w.sections(t, "")
	if all.Count != 2 {
		t.Fatalf("%d sections, want 2", all.Count)
	}
	wrap := all.Items[0]
	if wrap.Title != "Docs" || wrap.Path != "docs" || !wrap.Default {
		t.Fatalf("gathering section = %+v", wrap)
	}
	w.wantIDs(t, "gathered site spaces", siteSpaceIDs(wrap.SiteSpaces), a.Id, b.Id)
	w.wantIDs(t, "defaults", defaultSiteSpaces(wrap.SiteSpaces), a.Id)
	for _, ss := range w.siteSpaces(t, "").Items {
		if ss.Section == nil {
			t.Fatalf("site space %s left at the root of a site with sections", ss.Id)
		}
	}

	// New site spaces go to the default section unless told otherwise.
	c := w.addSiteSpace(t, w.newSpace(t, "Gamma"), "")
	if c.Section == nil || *c.Section != wrap.Id || c.Default {
		t.Fatalf("site space without sectionId = %+v", c)
	}
	d := w.addSiteSpace(t, w.newSpace(t, "Delta"), sec.Id)
	if d.Section == nil || *d.Section != sec.Id || d.Default {
		t.Fatalf("site space with sectionId = %+v", d)
	}

	// Titles: given, or the space's; paths derived and unique in the site.
	titled := w.addSection(t, map[string]any{"spaceId": guides, "title": "Docs", "icon": nil})
	if titled.Title != "Docs" || titled.Path != "docs-2" || titled.Icon != nil {
		t.Fatalf("titled section = %+v", titled)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), map[string]any{"spaceId": guides, "title": "X"})
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), map[string]any{"spaceId": "nope"})
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), map[string]any{"title": "No space"})
	if n := w.sections(t, "").Count; n != 3 {
		t.Fatalf("%d sections after failed adds, want 3", n)
	}

	t.Run("FirstSectionOfEmptySite", func(t *testing.T) {
		w.site = w.mustSite(t, w.admin, w.org.Id, "Empty")
		first := w.addSection(t, map[string]any{"spaceId": guides, "title": "Start"})
		if !first.Default || first.Path != "start" {
			t.Fatalf("first section = %+v", first)
		}
		if n := w.sections(t, "").Count; n != 1 {
			t.Fatalf("%d sections, want 1", n)
		}
	})
}

func TestSiteSectionUpdate(t *testing.T) {
	w := newStructWorld(t)
	one := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "One")})
	two := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "Two")})
	patch := func(t *testing.T, want int, body map[string]any) gen.SiteSection {
		t.Helper()
		r := w.Expect(t, want, w.admin, "PATCH", w.path("/sections/"+two.Id), body)
		var sec gen.SiteSection
		if want == http.StatusOK {
			r.Decode(t, &sec)
		}
		return sec
	}
	sec := patch(t, http.StatusOK, map[string]any{"title": "Second", "path": "second", "icon": "star", "description": "The second."})
	if sec.Title != "Second" || sec.Path != "second" || *sec.Icon != "star" || *sec.Description != "The second." {
		t.Fatalf("updated section = %+v", sec)
	}
	sec = patch(t, http.StatusOK, map[string]any{"icon": nil, "description": nil})
	if sec.Icon != nil || sec.Description != nil || sec.Title != "Second" {
		t.Fatalf("null icon and description = %+v", sec)
	}
	patch(t, http.StatusOK, map[string]any{"path": strings.Repeat("s", 100)})
	patch(t, http.StatusBadRequest, map[string]any{"path": strings.Repeat("s", 101)})
	patch(t, http.StatusBadRequest, map[string]any{"path": "no spaces"})
	r := w.Expect(t, http.StatusConflict, w.admin, "PATCH", w.path("/sections/"+two.Id), map[string]any{"path": one.Path})
	w.wantMessage(t, r, "path", one.Path)

	t.Run("Condition", func(t *testing.T) {
		sec := patch(t, http.StatusOK, map[string]any{"condition": "visitor.claims.beta === true"})
		if sec.Condition == nil || *sec.Condition != "visitor.claims.beta === true" {
			t.Fatal("condition not saved")
		}
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+two.Id), map[string]any{"condition": "visitor.claims.beta ==="})
		w.wantMessage(t, r, "condition")
		sec = patch(t, http.StatusOK, map[string]any{"condition": nil})
		if sec.Condition != nil {
			t.Fatal("null did not remove the condition")
		}
	})
	t.Run("DefaultSiteSpace", func(t *testing.T) {
		other := w.addSiteSpace(t, w.newSpace(t, "Two B"), two.Id)
		sec := patch(t, http.StatusOK, map[string]any{"defaultSiteSpace": other.Id})
		w.wantIDs(t, "defaults", defaultSiteSpaces(sec.SiteSpaces), other.Id)
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+two.Id),
			map[string]any{"defaultSiteSpace": one.SiteSpaces[0].Id})
		w.wantMessage(t, r, "defaultSiteSpace")
		// The section's default site space is the one deleted: the next takes over.
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+other.Id), nil)
		w.wantIDs(t, "defaults", defaultSiteSpaces(w.section(t, two.Id).SiteSpaces), two.SiteSpaces[0].Id)
	})
	w.Expect(t, http.StatusNotFound, w.admin, "PATCH", w.path("/sections/nope"), map[string]any{"title": "Nope"})
}

func TestSiteSectionDelete(t *testing.T) {
	w := newStructWorld(t)
	one := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "One")})
	two := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "Two")})
	three := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "Three")})
	extra := w.addSiteSpace(t, w.newSpace(t, "One B"), one.Id)
	if !one.Default || two.Default || three.Default {
		t.Fatal("the first section is not the only default")
	}

	// The default section goes with its site spaces; the next section is the default.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/sections/"+one.Id), nil)
	l := w.sections(t, "")
	w.wantIDs(t, "sections", sectionIDs(l.Items), two.Id, three.Id)
	w.wantIDs(t, "default sections", defaultSections(l.Items), two.Id)
	for _, ss := range w.siteSpaces(t, "").Items {
		if ss.Id == extra.Id || ss.Id == one.SiteSpaces[0].Id {
			t.Fatal("a deleted section's site space is still listed")
		}
	}
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/sections/"+one.Id), nil)

	// The last site space of a section goes: the section stays, empty.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+three.SiteSpaces[0].Id), nil)
	if got := w.section(t, three.Id); len(got.SiteSpaces) != 0 {
		t.Fatalf("%d site spaces left", len(got.SiteSpaces))
	}
	// A default section that is last in order gives way to the first.
	w.Expect(t, http.StatusOK, w.admin, "POST", w.path("/sections/"+two.Id+"/move"),
		map[string]any{"position": map[string]any{"after": map[string]any{"type": "site-section", "siteSection": three.Id}}})
	four := w.addSection(t, map[string]any{"spaceId": w.newSpace(t, "Four")})
	w.Expect(t, http.StatusOK, w.admin, "POST", w.path("/sections/"+four.Id+"/move"),
		map[string]any{"position": map[string]any{"before": map[string]any{"type": "site-section", "siteSection": three.Id}}})
	w.wantIDs(t, "sections", sectionIDs(w.sections(t, "").Items), four.Id, three.Id, two.Id)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/sections/"+two.Id), nil)
	w.wantIDs(t, "default sections", defaultSections(w.sections(t, "").Items), four.Id)

	// All sections go: an empty structure, and the next site space is at the root.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/sections/"+three.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/sections/"+four.Id), nil)
	if l := w.sections(t, ""); l.Count != 0 || len(l.Items) != 0 {
		t.Fatalf("%d sections left", l.Count)
	}
	if l := w.siteSpaces(t, ""); l.Count != 0 {
		t.Fatalf("%d site spaces left", l.Count)
	}
	ss := w.addSiteSpace(t, w.newSpace(t, "Root"), "")
	if ss.Section != nil || !ss.Default {
		t.Fatalf("site space of a site without sections = %+v", ss)
	}
}

func TestSiteSectionMove(t *testing.T) {
	w := newStructWorld(t)
	var secs []gen.SiteSection
	for _, title := range []string{"One", "Two", "Three", "Four"} {
		secs = append(secs, w.addSection(t, map[string]any{"spaceId": w.newSpace(t, title)}))
	}
	one, two, three, four := secs[0].Id, secs[1].Id, secs[2].Id, secs[3].Id
	move := func(t *testing.T, want int, id, where, ref string) *response {
		t.Helper()
		return w.Expect(t, want, w.admin, "POST", w.path("/sections/"+id+"/move"),
			map[string]any{"position": map[string]any{where: map[string]any{"type": "site-section", "siteSection": ref}}})
	}
	var moved gen.SiteSection
	move(t, http.StatusOK, three, "before", one).Decode(t, &moved)
	if moved.Id != three || len(moved.SiteSpaces) != 1 {
		t.Fatalf("moved = %+v", moved)
	}
	w.wantIDs(t, "order", sectionIDs(w.sections(t, "").Items), three, one, two, four)
	move(t, http.StatusOK, three, "after", four)
	w.wantIDs(t, "order", sectionIDs(w.sections(t, "").Items), one, two, four, three)

	r := move(t, http.StatusBadRequest, one, "after", one)
	w.wantMessage(t, r, "itself")
	move(t, http.StatusBadRequest, two, "after", one) // already there
	move(t, http.StatusNotFound, "nope", "after", one)

	// Sections in a group are not siblings of sections at the root.
	w.addGroup(t, map[string]any{"title": "Group", "sections": []string{four}})
	r = move(t, http.StatusBadRequest, one, "before", four)
	w.wantMessage(t, r, "position.before", "sibling")
	move(t, http.StatusBadRequest, four, "after", one)
	// The group sits where it was added among the root's sections, and moves go around it.
	w.wantIDs(t, "order", sectionIDs(w.sections(t, "").Items), one, two, three, four)
	move(t, http.StatusOK, three, "before", one)
	w.wantIDs(t, "order", sectionIDs(w.sections(t, "").Items), three, one, two, four)
}

func TestSiteSectionGroups(t *testing.T) {
	w := newStructWorld(t)
	var secs []gen.SiteSection
	for _, title := range []string{"One", "Two", "Three", "Four"} {
		secs = append(secs, w.addSection(t, map[string]any{"spaceId": w.newSpace(t, title)}))
	}
	one, two, three, four := secs[0].Id, secs[1].Id, secs[2].Id, secs[3].Id

	outer := w.addGroup(t, map[string]any{"title": strings.Repeat("T", 100), "icon": "folder", "sections": []string{two, one, two}})
	if outer.Title != strings.Repeat("T", 100) || outer.Icon == nil || *outer.Icon != "folder" || outer.SectionGroup != nil {
		t.Fatalf("group = %+v", outer)
	}
	w.wantIDs(t, "children", childIDs(t, outer), "site-section:"+two, "site-section:"+one)
	w.wantIDs(t, "sections", sectionIDs(outer.Sections), two, one)
	if got := w.section(t, one); got.SectionGroup == nil || *got.SectionGroup != outer.Id {
		t.Fatalf("section's group = %v", got.SectionGroup)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": strings.Repeat("T", 101)})
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": ""})
	r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": "Bad", "sections": []string{three, "nope"}})
	w.wantMessage(t, r, "sections[1]")
	r = w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": "Bad", "parent": "nope"})
	w.wantMessage(t, r, "parent")

	// Nesting: a subgroup is a child of its parent, its sections in the parent's flat list.
	inner := w.addGroup(t, map[string]any{"title": "Inner", "parent": outer.Id, "sections": []string{three}})
	if inner.SectionGroup == nil || *inner.SectionGroup != outer.Id {
		t.Fatalf("subgroup parent = %v", inner.SectionGroup)
	}
	l := w.groups(t, "")
	if l.Count != 2 || l.Items[0].Id != outer.Id || l.Items[1].Id != inner.Id {
		t.Fatalf("groups = %+v", l)
	}
	w.wantIDs(t, "children", childIDs(t, l.Items[0]), "site-section:"+two, "site-section:"+one, "site-section-group:"+inner.Id)
	w.wantIDs(t, "flat sections", sectionIDs(l.Items[0].Sections), two, one, three)
	// A new group goes at the end of its parent: four, then the group's sections, depth first.
	w.wantIDs(t, "structure order", sectionIDs(w.sections(t, "").Items), four, two, one, three)
	p1 := w.groups(t, "?limit=1")
	if len(p1.Items) != 1 || p1.Next == nil {
		t.Fatal("groups do not page")
	}
	if p2 := w.groups(t, "?limit=1&page="+p1.Next.Page); len(p2.Items) != 1 || p2.Items[0].Id != inner.Id || p2.Next != nil {
		t.Fatalf("page 2 = %+v", p2)
	}

	t.Run("AddAndRemoveSection", func(t *testing.T) {
		var g gen.SiteSectionGroup
		w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/section-groups/"+inner.Id+"/sections"), map[string]any{"sectionId": four}).Decode(t, &g)
		w.wantIDs(t, "children", childIDs(t, g), "site-section:"+three, "site-section:"+four)
		w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/section-groups/"+inner.Id+"/sections"), map[string]any{"sectionId": three}).Decode(t, &g)
		w.wantIDs(t, "children (already in)", childIDs(t, g), "site-section:"+three, "site-section:"+four)
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups/"+inner.Id+"/sections"), map[string]any{"sectionId": "nope"})
		w.Expect(t, http.StatusNotFound, w.admin, "POST", w.path("/section-groups/nope/sections"), map[string]any{"sectionId": four})

		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+inner.Id+"/sections/"+four), nil)
		if got := w.section(t, four); got.SectionGroup != nil {
			t.Fatal("a removed section is still in a group")
		}
		w.wantIDs(t, "structure order", sectionIDs(w.sections(t, "").Items), two, one, three, four)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+inner.Id+"/sections/"+four), nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/nope/sections/"+four), nil)
	})
	t.Run("Update", func(t *testing.T) {
		var g gen.SiteSectionGroup
		w.Expect(t, http.StatusOK, w.admin, "PATCH", w.path("/section-groups/"+outer.Id), map[string]any{"title": "Outer", "icon": nil}).Decode(t, &g)
		if g.Title != "Outer" || g.Icon != nil || len(g.Children) != 3 {
			t.Fatalf("updated group = %+v", g)
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/section-groups/"+outer.Id), map[string]any{"title": strings.Repeat("T", 101)})
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", w.path("/section-groups/nope"), map[string]any{"title": "X"})
	})
	t.Run("Delete", func(t *testing.T) {
		// The outer group goes: its sections and subgroup take its place at the root, in order.
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+outer.Id), nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+outer.Id), nil)
		l := w.groups(t, "")
		if l.Count != 1 || l.Items[0].Id != inner.Id || l.Items[0].SectionGroup != nil {
			t.Fatalf("groups after delete = %+v", l)
		}
		w.wantIDs(t, "structure order", sectionIDs(w.sections(t, "").Items), two, one, three, four)
		if got := w.section(t, two); got.SectionGroup != nil {
			t.Fatal("a section of a deleted group is still in it")
		}
		st, err := w.Store.FindSiteStructure(context.Background(), w.site)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Groups) != 1 || len(st.Sections) != 4 || len(st.RootSiteSpaces) != 0 {
			t.Fatalf("structure: %d groups, %d sections, %d root site spaces", len(st.Groups), len(st.Sections), len(st.RootSiteSpaces))
		}
		for _, sec := range st.Sections {
			if len(sec.SiteSpaces) != 1 || sec.SiteSpaces[0].Space == nil {
				t.Fatalf("section %s site spaces not loaded with their spaces", sec.ID)
			}
		}
	})
}

func TestSiteStructureSpaceDeletion(t *testing.T) {
	w := newStructWorld(t)
	x, y := w.newSpace(t, "X"), w.newSpace(t, "Y")
	// A one-letter space title cannot title a section: the section needs its own.
	w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), map[string]any{"spaceId": x}), `"title"`)
	sec := w.addSection(t, map[string]any{"spaceId": x, "title": "Xylophones"})
	ys := w.addSiteSpace(t, y, sec.Id)
	other := w.mustSite(t, w.admin, w.org.Id, "Other")

	// A space published by two sites goes: its site spaces go from both, defaults promoted.
	var inOther gen.SiteSpace
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites/"+other+"/site-spaces", map[string]any{"spaceId": x}).Decode(t, &inOther)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+x, nil)
	l := w.siteSpaces(t, "")
	w.wantIDs(t, "site spaces", siteSpaceIDs(l.Items), ys.Id)
	w.wantIDs(t, "defaults", defaultSiteSpaces(l.Items), ys.Id)
	var ol gen.SiteSpaceList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/sites/"+other+"/site-spaces", nil).Decode(t, &ol)
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
	var ss gen.SiteSpace
	w.Expect(t, http.StatusOK, w.admin, "PATCH", w.path("/site-spaces/"+twoB.Id), map[string]any{"path": "bee"}).Decode(t, &ss)
	if ss.Urls.Published == nil || !strings.HasPrefix(*ss.Urls.Published, base+"/two/bee?share=") {
		t.Fatalf("share-link site space published at %v", ss.Urls.Published)
	}
}

func TestSiteStructureAccess(t *testing.T) {
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
		w.Expect(t, http.StatusForbidden, w.guest, "GET", w.path(path), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", w.path(path), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", w.path(path), nil)
	}
	for _, op := range writes {
		w.Expect(t, http.StatusForbidden, w.reader, op.method, w.path(op.path), op.body)
		w.Expect(t, http.StatusForbidden, w.guest, op.method, w.path(op.path), op.body)
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
