package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The fields 0.202.0's clients set on a site's structure (issue 25): drafts, hidden site spaces,
// a site space's own title and home page, localized titles, moving sections and groups by field,
// and the site's default level. What the published site makes of them is in
// sitedrafts_web_test.go.

// pageIDOf is a site space's pageId ("" when it has none).
func pageIDOf(ss gen.SiteSpace) string {
	if v, err := ss.PageId.Get(); err == nil {
		return v
	}
	return ""
}

// group finds a section group of the site by id in the list of all groups.
func (w *structWorld) group(t *testing.T, id string) gen.SiteSectionGroup {
	t.Helper()
	for _, g := range w.groups(t, "?limit=1000").Items {
		if g.Id == id {
			return g
		}
	}
	t.Fatalf("no section group %s in the site", id)
	return gen.SiteSectionGroup{}
}

func TestSiteSpaceDraftHiddenTitleAndPage(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	guide, other := w.newSpace(t, "Guide"), w.newSpace(t, "Other")
	pages := w.seed(t, guide, "Welcome", "Hello.", "Start here", "Begin.")
	otherPages := w.seed(t, other, "Elsewhere", "Not the guide.")
	w.addSiteSpace(t, other, "")

	t.Run("AddedWithThem", func(t *testing.T) {
		ss := siteAdd[gen.SiteSpace](t, w, "/site-spaces", map[string]any{"spaceId": guide, "draft": true, "title": "The Guide", "pageId": pages["Start here"]})
		if !ss.Draft || ss.Title != "The Guide" || ss.Path != "the-guide" || pageIDOf(ss) != pages["Start here"] || ss.Hidden == nil || *ss.Hidden {
			t.Fatalf("added %+v", ss)
		}
		if got := w.siteSpaces(t, "?limit=1000").Items; len(got) != 2 || !reflect.DeepEqual(got[1], ss) {
			t.Fatalf("listed %+v, added %+v", got, ss)
		}
		// A site space without them: live, its space's title, no page.
		plain := w.addSiteSpace(t, guide, "")
		if plain.Draft || plain.Title != "Guide" || plain.PageId.IsSpecified() {
			t.Fatalf("added %+v", plain)
		}
	})

	t.Run("BadValuesAreRefusedAndAddNothing", func(t *testing.T) {
		before := w.siteSpaces(t, "").Count
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"),
			map[string]any{"spaceId": guide, "pageId": otherPages["Elsewhere"]}), "pageId", "no page")
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": guide, "title": "x"})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": guide, "title": nil})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"), map[string]any{"spaceId": guide, "draft": "yes"})
		if after := w.siteSpaces(t, "").Count; after != before {
			t.Fatalf("%d site spaces, %d before the refusals", after, before)
		}
	})

	t.Run("Updated", func(t *testing.T) {
		ss := w.addSiteSpace(t, guide, "")
		patch := func(body map[string]any) gen.SiteSpace {
			t.Helper()
			return sendJSON[gen.SiteSpace](t, w.testServer, http.StatusOK, w.admin, "PATCH", w.path("/site-spaces/"+ss.Id), body)
		}
		got := patch(map[string]any{"hidden": true, "draft": true, "pageId": pages["Start here"]})
		if !*got.Hidden || !got.Draft || pageIDOf(got) != pages["Start here"] {
			t.Fatalf("patched %+v", got)
		}
		// Absent fields stay; false and null change them back.
		if got = patch(map[string]any{"path": "guide-again"}); !*got.Hidden || !got.Draft || pageIDOf(got) != pages["Start here"] {
			t.Fatalf("patched the path only: %+v", got)
		}
		if got = patch(map[string]any{"hidden": false, "draft": false, "pageId": nil}); *got.Hidden || got.Draft || got.PageId.IsSpecified() {
			t.Fatalf("patched back: %+v", got)
		}
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/site-spaces/"+ss.Id),
			map[string]any{"pageId": "nope", "hidden": true}), "pageId")
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/site-spaces/"+ss.Id), map[string]any{"hidden": nil})
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/site-spaces/"+ss.Id), map[string]any{"draft": nil})
		if got = getJSON[gen.SiteSpaceList](t, w.testServer, w.admin, w.path("/site-spaces?limit=1000")).Items[3]; got.Id != ss.Id || *got.Hidden {
			t.Fatalf("a refused patch changed %+v", got)
		}
		// Another space drops the page of the former one, unless a page of the new one comes with it.
		patch(map[string]any{"pageId": pages["Welcome"]})
		if got = patch(map[string]any{"spaceId": other}); got.PageId.IsSpecified() {
			t.Fatalf("the page stayed with another space: %+v", got)
		}
		if got = patch(map[string]any{"spaceId": guide, "pageId": pages["Welcome"]}); pageIDOf(got) != pages["Welcome"] {
			t.Fatalf("space and page together: %+v", got)
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/site-spaces/"+ss.Id), map[string]any{"spaceId": other, "pageId": pages["Welcome"]})
	})
}

func TestSiteSectionDraftGroupPageAndLocalized(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	guide, api := w.newSpace(t, "Guide"), w.newSpace(t, "API")
	pages := w.seed(t, guide, "Welcome", "Hello.", "Start here", "Begin.")
	g1 := w.addGroup(t, map[string]any{"title": "Docs"})
	g2 := w.addGroup(t, map[string]any{"title": "More"})

	sec := w.addSection(t, map[string]any{"spaceId": guide, "title": "Guide", "draft": true, "siteSectionGroupId": g1.Id, "pageId": pages["Start here"]})
	if !sec.Draft || sec.SectionGroup == nil || *sec.SectionGroup != g1.Id || len(sec.SiteSpaces) != 1 || pageIDOf(sec.SiteSpaces[0]) != pages["Start here"] {
		t.Fatalf("added %+v", sec)
	}
	if got := w.section(t, sec.Id); !reflect.DeepEqual(got, sec) {
		t.Fatalf("listed %+v, added %+v", got, sec)
	}
	if g := w.group(t, g1.Id); !reflect.DeepEqual(childIDs(t, g), []string{"site-section:" + sec.Id}) {
		t.Fatalf("group children %v", childIDs(t, g))
	}

	t.Run("BadValuesAddNothing", func(t *testing.T) {
		before := w.sections(t, "").Count
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"),
			map[string]any{"spaceId": api, "title": "API", "siteSectionGroupId": "nope"}), "siteSectionGroupId")
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"),
			map[string]any{"spaceId": api, "title": "API", "pageId": pages["Welcome"]}), "pageId")
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), map[string]any{"spaceId": api, "pageId": nil})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), map[string]any{"spaceId": api, "siteSectionGroupId": nil})
		if after := w.sections(t, "").Count; after != before {
			t.Fatalf("%d sections, %d before", after, before)
		}
	})

	patch := func(id string, body map[string]any) gen.SiteSection {
		t.Helper()
		return sendJSON[gen.SiteSection](t, w.testServer, http.StatusOK, w.admin, "PATCH", w.path("/sections/"+id), body)
	}
	t.Run("DraftAndLocalized", func(t *testing.T) {
		got := patch(sec.Id, map[string]any{"draft": false, "localizedTitle": map[string]any{"fr": "Le guide", "de": "Anleitung"},
			"localizedDescription": map[string]any{"fr": "Pour commencer."}})
		if got.Draft || got.LocalizedTitle == nil || !reflect.DeepEqual(map[string]string(*got.LocalizedTitle), map[string]string{"fr": "Le guide", "de": "Anleitung"}) ||
			got.LocalizedDescription == nil || (*got.LocalizedDescription)["fr"] != "Pour commencer." {
			t.Fatalf("patched %+v", got)
		}
		if got := w.section(t, sec.Id); got.LocalizedTitle == nil || (*got.LocalizedTitle)["de"] != "Anleitung" || got.Draft {
			t.Fatalf("listed %+v", got)
		}
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+sec.Id),
			map[string]any{"localizedTitle": map[string]any{"klingon": "x"}, "draft": true}), "localizedTitle.klingon")
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+sec.Id), map[string]any{"localizedTitle": map[string]any{"fr": strings.Repeat("x", 129)}})
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+sec.Id), map[string]any{"localizedDescription": map[string]any{"fr": strings.Repeat("x", 257)}})
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+sec.Id), map[string]any{"localizedTitle": nil})
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+sec.Id), map[string]any{"draft": nil})
		if got := w.section(t, sec.Id); got.Draft || (*got.LocalizedTitle)["fr"] != "Le guide" {
			t.Fatalf("a refused patch changed %+v", got)
		}
		// An empty object removes them.
		if got := patch(sec.Id, map[string]any{"localizedTitle": map[string]any{}}); got.LocalizedTitle != nil || got.LocalizedDescription == nil {
			t.Fatalf("cleared %+v", got)
		}
	})

	t.Run("MovedByGroupField", func(t *testing.T) {
		other := w.addSection(t, map[string]any{"spaceId": api, "title": "API"})
		// The field and the group operation give the same result: each at the end of the group.
		if got := patch(sec.Id, map[string]any{"siteSectionGroupId": g2.Id}); got.SectionGroup == nil || *got.SectionGroup != g2.Id {
			t.Fatalf("moved %+v", got)
		}
		w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/section-groups/"+g2.Id+"/sections"), map[string]any{"sectionId": other.Id})
		g := w.group(t, g2.Id)
		if want := []string{"site-section:" + sec.Id, "site-section:" + other.Id}; !reflect.DeepEqual(childIDs(t, g), want) {
			t.Fatalf("group children %v, want %v", childIDs(t, g), want)
		}
		// null moves to the root, as removing from the group does; both go to its end.
		if got := patch(sec.Id, map[string]any{"siteSectionGroupId": nil}); got.SectionGroup != nil {
			t.Fatalf("moved to the root: %+v", got)
		}
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+g2.Id+"/sections/"+other.Id), nil)
		list := w.sections(t, "?limit=1000").Items
		if ids := idsOf(list); !reflect.DeepEqual(ids[len(ids)-2:], []string{sec.Id, other.Id}) {
			t.Fatalf("sections %v end with %s, %s", ids, sec.Id, other.Id)
		}
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+sec.Id),
			map[string]any{"siteSectionGroupId": "nope", "title": "Renamed"}), "siteSectionGroupId")
		if got := w.section(t, sec.Id); got.SectionGroup != nil || got.Title != "Guide" {
			t.Fatalf("a refused move changed %+v", got)
		}
	})
}

func TestSiteSectionGroupDraftLocalizedAndParent(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	top := w.addGroup(t, map[string]any{"title": "Top", "draft": true})
	if !top.Draft {
		t.Fatalf("added %+v", top)
	}
	sub := w.addGroup(t, map[string]any{"title": "Sub", "parent": top.Id})
	other := w.addGroup(t, map[string]any{"title": "Other"})
	patch := func(id string, body map[string]any) gen.SiteSectionGroup {
		t.Helper()
		return sendJSON[gen.SiteSectionGroup](t, w.testServer, http.StatusOK, w.admin, "PATCH", w.path("/section-groups/"+id), body)
	}
	got := patch(top.Id, map[string]any{"draft": false, "localizedTitle": map[string]any{"es": "Arriba"}})
	if got.Draft || got.LocalizedTitle == nil || (*got.LocalizedTitle)["es"] != "Arriba" {
		t.Fatalf("patched %+v", got)
	}
	// Nested under another group by field, and back to the root.
	if got = patch(other.Id, map[string]any{"parentSectionGroupId": sub.Id}); got.SectionGroup == nil || *got.SectionGroup != sub.Id {
		t.Fatalf("nested %+v", got)
	}
	if s := w.group(t, sub.Id); !reflect.DeepEqual(childIDs(t, s), []string{"site-section-group:" + other.Id}) {
		t.Fatalf("sub's children %v", childIDs(t, s))
	}
	// A group cannot go into itself or under its own subgroups; an unknown parent is refused.
	for _, parent := range []string{top.Id, sub.Id, other.Id} {
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/section-groups/"+top.Id),
			map[string]any{"parentSectionGroupId": parent, "title": "Moved"}), "parentSectionGroupId")
	}
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/section-groups/"+top.Id),
		map[string]any{"parentSectionGroupId": "nope"}), "parentSectionGroupId", "no section group")
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/section-groups/"+top.Id), map[string]any{"title": nil})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/section-groups/"+top.Id), map[string]any{"draft": nil})
	if got = w.group(t, top.Id); got.Title != "Top" || got.SectionGroup != nil {
		t.Fatalf("a refused move changed %+v", got)
	}
	if got = patch(other.Id, map[string]any{"parentSectionGroupId": nil}); got.SectionGroup != nil {
		t.Fatalf("back at the root: %+v", got)
	}
	list := w.groups(t, "?limit=1000").Items
	if ids := idsOf(list); !reflect.DeepEqual(ids, []string{top.Id, sub.Id, other.Id}) {
		t.Fatalf("groups %v", ids)
	}
}

func TestSiteDefaultLevel(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	reader, creator := w.memberWith(t, "read"), w.memberWith(t, "create")
	space := w.newSpace(t, "Guide")
	level := func(s gen.Site) string {
		if v, err := s.DefaultLevel.Get(); err == nil {
			return string(v)
		}
		return "null"
	}
	if s := w.getSite(t, w.admin, w.site); level(s) != "inherit" {
		t.Fatalf("a new site's level %s", level(s))
	}
	// Only an admin gives it: it raises every member's role on the site.
	w.wantError(t, http.StatusForbidden, creator, "PATCH", w.sitesPath(w.site), map[string]any{"defaultLevel": "create"},
		"Setting defaultLevel needs the admin role on the site.")
	w.Expect(t, http.StatusForbidden, reader, "POST", w.path("/sections"), map[string]any{"spaceId": space, "title": "Guide"})
	if s := w.patchSite(t, w.site, map[string]any{"defaultLevel": "create"}); level(s) != "create" {
		t.Fatalf("patched level %s", level(s))
	}
	if s := w.getSite(t, reader, w.site); !s.Permissions.Create || !s.Permissions.Edit || s.Permissions.Admin {
		t.Fatalf("the reader's permissions on the site: %+v", s.Permissions)
	}
	w.Expect(t, http.StatusCreated, reader, "POST", w.path("/sections"), map[string]any{"spaceId": space, "title": "Guide"})
	// It raises, never lowers: the admin stays admin.
	if s := w.getSite(t, w.admin, w.site); !s.Permissions.Admin {
		t.Fatalf("the admin's permissions: %+v", s.Permissions)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(w.site), map[string]any{"defaultLevel": "owner"})
	if s := w.patchSite(t, w.site, map[string]any{"defaultLevel": nil}); level(s) != "null" {
		t.Fatalf("patched level %s", level(s))
	}
	// null takes the members' access away (issue 28): the site is not shown to the reader.
	w.Expect(t, http.StatusNotFound, reader, "POST", w.path("/sections"), map[string]any{"spaceId": space, "title": "Guide 2"})
	w.Expect(t, http.StatusNotFound, reader, "GET", w.sitesPath(w.site), nil)
}

// spaceId null creates the space a new section or site space publishes: titled after the
// request's title, or after a built-in template whose pages fill it.
func TestSiteStructureNewSpaces(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	existing := w.newSpace(t, "Guide")
	spacesNow := func() int {
		t.Helper()
		return getJSON[gen.SpaceList](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/spaces?limit=1000").Count
	}
	before := spacesNow()

	sec := w.addSection(t, map[string]any{"spaceId": nil, "template": map[string]any{"id": "api-reference"}})
	sp := sec.SiteSpaces[0].Space
	if sec.Title != "API reference" || sp.Title != "API reference" || sp.Id == existing {
		t.Fatalf("section with a new space: %+v", sec)
	}
	if pages := outline(w.mainPages(t, sp.Id)); len(pages) != 8 || !strings.HasSuffix(pages[0], " API reference") || !strings.HasSuffix(pages[7], " Projects") {
		t.Fatalf("the template's pages: %q", pages)
	}

	ss := siteAdd[gen.SiteSpace](t, w, "/site-spaces", map[string]any{"spaceId": nil, "title": "Release notes", "sectionId": sec.Id})
	if ss.Title != "Release notes" || ss.Space.Title != "Release notes" || len(outline(w.mainPages(t, ss.Space.Id))) != 0 {
		t.Fatalf("site space with a new space: %+v", ss)
	}
	plain := siteAdd[gen.SiteSpace](t, w, "/site-spaces", map[string]any{"spaceId": nil, "sectionId": sec.Id, "template": map[string]any{"id": "product-guide"}})
	if plain.Title != "Product guide" || len(outline(w.mainPages(t, plain.Space.Id))) != 6 {
		t.Fatalf("site space from a template: %+v", plain)
	}
	if got := spacesNow(); got != before+3 {
		t.Fatalf("%d spaces, want %d", got, before+3)
	}

	// Refused, creating nothing: an unknown template, a template or a page the request's space
	// does not fit, files a new space does not have, a reader.
	sections := w.sections(t, "").Count
	for _, body := range []map[string]any{
		{"spaceId": nil, "title": "Nope", "template": map[string]any{"id": "no-such-template"}},
		{"spaceId": existing, "title": "Nope", "template": map[string]any{"id": "api-reference"}},
		{"spaceId": nil, "title": "Nope", "pageId": "somepage"},
		{"spaceId": nil, "title": "Nope", "template": map[string]any{"id": "product-guide", "params": map[string]any{"contentRefs": map[string]any{"logo": map[string]any{"kind": "file", "file": "f1"}}}}},
		{"title": "Nope"},
	} {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/sections"), body)
		if body["template"] != nil && body["spaceId"] == nil {
			wantMessage(t, r, "template.")
		}
	}
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/site-spaces"),
		map[string]any{"spaceId": nil, "pageId": "somepage"}), "pageId")
	reader := w.memberWith(t, "read")
	w.Expect(t, http.StatusForbidden, reader, "POST", w.path("/site-spaces"), map[string]any{"spaceId": nil})
	if got := spacesNow(); got != before+3 || w.sections(t, "").Count != sections {
		t.Fatalf("refusals created %d spaces, %d sections", got-before-3, w.sections(t, "").Count-sections)
	}
}
