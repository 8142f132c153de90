package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func ptr(kind, id string) map[string]any { return map[string]any{"type": kind, "id": id} }

func TestSortSiteStructure(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	one, two, three, four := w.fourSections(t)
	g := w.addGroup(t, map[string]any{"title": "Group", "sections": []string{three}})
	var link gen.SiteExternalLink
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/external-links"), map[string]any{"title": "Blog", "url": "https://example.com"}).Decode(t, &link)
	sec := func(id string) string { return "site-section:" + id }
	grp, lnk := "site-section-group:"+g.Id, "site-external-link:"+link.Id
	wantIDs(t, "start", w.structureIDs(t), sec(one), sec(two), sec(four), grp, lnk)

	sort := func(want int, item map[string]any, position map[string]any) *response {
		t.Helper()
		return w.Expect(t, want, w.admin, "PATCH", w.path("/structure/sort"), map[string]any{"item": item, "position": position})
	}
	var moved gen.SiteSection
	sort(http.StatusOK, ptr("site-section", four), map[string]any{"before": ptr("site-section", one)}).Decode(t, &moved)
	if moved.Id != four || moved.Object != gen.SiteSectionObjectSiteSection {
		t.Fatalf("moved = %+v", moved)
	}
	wantIDs(t, "four first", w.structureIDs(t), sec(four), sec(one), sec(two), grp, lnk)
	sort(http.StatusOK, ptr("site-external-link", link.Id), map[string]any{"after": ptr("site-section", four)})
	wantIDs(t, "link second", w.structureIDs(t), sec(four), lnk, sec(one), sec(two), grp)
	// Next to a section of the group: into the group.
	sort(http.StatusOK, ptr("site-section", one), map[string]any{"after": ptr("site-section", three)})
	wantIDs(t, "one in the group", w.structureIDs(t), sec(four), lnk, sec(two), grp)
	wantIDs(t, "group", childIDs(t, w.groups(t, "").Items[0]), sec(three), sec(one))
	// No position: the end of its parent.
	sort(http.StatusOK, ptr("site-section", four), map[string]any{})
	wantIDs(t, "four last", w.structureIDs(t), lnk, sec(two), grp, sec(four))
	// With return=minimal, nothing is answered.
	if r := w.doPrefer(t, "PATCH", w.path("/structure/sort"), "return=minimal", map[string]any{"item": ptr("site-section-group", g.Id),
		"position": map[string]any{"before": ptr("site-external-link", link.Id)}}); r.Status != http.StatusNoContent {
		t.Fatalf("minimal sort: %d %s", r.Status, r.Body)
	}
	wantIDs(t, "group first", w.structureIDs(t), grp, lnk, sec(two), sec(four))

	// Refused, changing nothing.
	wantMessage(t, sort(http.StatusBadRequest, ptr("site-section-group", g.Id), map[string]any{"after": ptr("site-section", three)}), "itself")
	sort(http.StatusBadRequest, ptr("site-section", two), map[string]any{"after": ptr("site-section", two)})
	sort(http.StatusBadRequest, ptr("site-section", two), map[string]any{"after": ptr("site-section", "nope")})
	sort(http.StatusBadRequest, ptr("site-section", two), map[string]any{"after": ptr("site-section", one), "before": ptr("site-section", four)})
	ss := w.section(t, two).SiteSpaces[0].Id
	sort(http.StatusBadRequest, ptr("site-section", two), map[string]any{"after": ptr("site-space", ss)})
	sort(http.StatusBadRequest, ptr("site-space", ss), map[string]any{"after": ptr("site-section", one)})
	sort(http.StatusNotFound, ptr("site-section", "nope"), map[string]any{"after": ptr("site-section", one)})
	wantIDs(t, "unchanged", w.structureIDs(t), grp, lnk, sec(two), sec(four))

	// Site spaces move within their section.
	v2 := w.addSiteSpace(t, w.newSpace(t, "Two v2"), two)
	var movedSS gen.SiteSpace
	sort(http.StatusOK, ptr("site-space", v2.Id), map[string]any{"before": ptr("site-space", ss)}).Decode(t, &movedSS)
	if movedSS.Id != v2.Id {
		t.Fatalf("moved = %+v", movedSS)
	}
	wantIDs(t, "variants", idsOf(w.section(t, two).SiteSpaces), v2.Id, ss)
	other := w.section(t, four).SiteSpaces[0].Id
	wantMessage(t, sort(http.StatusBadRequest, ptr("site-space", v2.Id), map[string]any{"before": ptr("site-space", other)}), "another section")
}

func TestMoveSiteSectionGroup(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	one, two, three, _ := w.fourSections(t)
	g := w.addGroup(t, map[string]any{"title": "Group", "sections": []string{three}})
	inner := w.addGroup(t, map[string]any{"title": "Inner", "parent": g.Id})
	move := func(want int, id string, body any) *response {
		t.Helper()
		return w.Expect(t, want, w.admin, "POST", w.path("/section-groups/"+id+"/move"), body)
	}
	var moved gen.SiteSectionGroup
	move(http.StatusOK, g.Id, map[string]any{"position": map[string]any{"before": ptr("site-section", one)}}).Decode(t, &moved)
	if moved.Id != g.Id || len(moved.Children) != 2 {
		t.Fatalf("moved = %+v", moved)
	}
	ids := w.structureIDs(t)
	if ids[0] != "site-section-group:"+g.Id || ids[1] != "site-section:"+one {
		t.Fatalf("structure = %v", ids)
	}
	// Out of its group, next to a root section; then to the end (no body).
	move(http.StatusOK, inner.Id, map[string]any{"position": map[string]any{"after": ptr("site-section", two)}})
	ids = w.structureIDs(t)
	if ids[3] != "site-section-group:"+inner.Id {
		t.Fatalf("structure = %v", ids)
	}
	move(http.StatusOK, g.Id, nil)
	ids = w.structureIDs(t)
	if ids[len(ids)-1] != "site-section-group:"+g.Id {
		t.Fatalf("structure = %v", ids)
	}
	move(http.StatusBadRequest, g.Id, map[string]any{"position": map[string]any{"after": ptr("site-section", three)}})
	move(http.StatusNotFound, "nope", map[string]any{"position": map[string]any{"after": ptr("site-section", one)}})
}
