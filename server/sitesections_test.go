package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestSiteSectionAdd(t *testing.T) {
	t.Parallel()
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
	wantIDs(t, "gathered site spaces", idsOf(wrap.SiteSpaces), a.Id, b.Id)
	wantIDs(t, "defaults", defaultsOf(wrap.SiteSpaces), a.Id)
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
	t.Parallel()
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
	wantMessage(t, r, "path", one.Path)

	t.Run("Condition", func(t *testing.T) {
		sec := patch(t, http.StatusOK, map[string]any{"condition": "visitor.claims.beta === true"})
		if sec.Condition == nil || *sec.Condition != "visitor.claims.beta === true" {
			t.Fatal("condition not saved")
		}
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+two.Id), map[string]any{"condition": "visitor.claims.beta ==="})
		wantMessage(t, r, "condition")
		sec = patch(t, http.StatusOK, map[string]any{"condition": nil})
		if sec.Condition != nil {
			t.Fatal("null did not remove the condition")
		}
	})
	t.Run("DefaultSiteSpace", func(t *testing.T) {
		other := w.addSiteSpace(t, w.newSpace(t, "Two B"), two.Id)
		sec := patch(t, http.StatusOK, map[string]any{"defaultSiteSpace": other.Id})
		wantIDs(t, "defaults", defaultsOf(sec.SiteSpaces), other.Id)
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.path("/sections/"+two.Id),
			map[string]any{"defaultSiteSpace": one.SiteSpaces[0].Id})
		wantMessage(t, r, "defaultSiteSpace")
		// The section's default site space is the one deleted: the next takes over.
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/site-spaces/"+other.Id), nil)
		wantIDs(t, "defaults", defaultsOf(w.section(t, two.Id).SiteSpaces), two.SiteSpaces[0].Id)
	})
	w.Expect(t, http.StatusNotFound, w.admin, "PATCH", w.path("/sections/nope"), map[string]any{"title": "Nope"})
}

func TestSiteSectionDelete(t *testing.T) {
	t.Parallel()
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
	wantIDs(t, "sections", idsOf(l.Items), two.Id, three.Id)
	wantIDs(t, "default sections", defaultsOf(l.Items), two.Id)
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
	wantIDs(t, "sections", idsOf(w.sections(t, "").Items), four.Id, three.Id, two.Id)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/sections/"+two.Id), nil)
	wantIDs(t, "default sections", defaultsOf(w.sections(t, "").Items), four.Id)

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

// fourSections adds four sections to the site, each of a new space, and returns their ids in order.
func (w *structWorld) fourSections(t *testing.T) (one, two, three, four string) {
	t.Helper()
	var ids []string
	for _, title := range []string{"One", "Two", "Three", "Four"} {
		ids = append(ids, w.addSection(t, map[string]any{"spaceId": w.newSpace(t, title)}).Id)
	}
	return ids[0], ids[1], ids[2], ids[3]
}

func TestSiteSectionMove(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	one, two, three, four := w.fourSections(t)
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
	wantIDs(t, "order", idsOf(w.sections(t, "").Items), three, one, two, four)
	move(t, http.StatusOK, three, "after", four)
	wantIDs(t, "order", idsOf(w.sections(t, "").Items), one, two, four, three)

	r := move(t, http.StatusBadRequest, one, "after", one)
	wantMessage(t, r, "itself")
	move(t, http.StatusBadRequest, two, "after", one) // already there
	move(t, http.StatusNotFound, "nope", "after", one)

	// Sections in a group are not siblings of sections at the root.
	w.addGroup(t, map[string]any{"title": "Group", "sections": []string{four}})
	r = move(t, http.StatusBadRequest, one, "before", four)
	wantMessage(t, r, "position.before", "sibling")
	move(t, http.StatusBadRequest, four, "after", one)
	// The group sits where it was added among the root's sections, and moves go around it.
	wantIDs(t, "order", idsOf(w.sections(t, "").Items), one, two, three, four)
	move(t, http.StatusOK, three, "before", one)
	wantIDs(t, "order", idsOf(w.sections(t, "").Items), three, one, two, four)
}

func TestSiteSectionGroups(t *testing.T) {
	t.Parallel()
	w := newStructWorld(t)
	one, two, three, four := w.fourSections(t)

	outer := w.addGroup(t, map[string]any{"title": strings.Repeat("T", 100), "icon": "folder", "sections": []string{two, one, two}})
	if outer.Title != strings.Repeat("T", 100) || outer.Icon == nil || *outer.Icon != "folder" || outer.SectionGroup != nil {
		t.Fatalf("group = %+v", outer)
	}
	wantIDs(t, "children", childIDs(t, outer), "site-section:"+two, "site-section:"+one)
	wantIDs(t, "sections", idsOf(outer.Sections), two, one)
	if got := w.section(t, one); got.SectionGroup == nil || *got.SectionGroup != outer.Id {
		t.Fatalf("section's group = %v", got.SectionGroup)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": strings.Repeat("T", 101)})
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": ""})
	r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": "Bad", "sections": []string{three, "nope"}})
	wantMessage(t, r, "sections[1]")
	r = w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups"), map[string]any{"title": "Bad", "parent": "nope"})
	wantMessage(t, r, "parent")

	// Nesting: a subgroup is a child of its parent, its sections in the parent's flat list.
	inner := w.addGroup(t, map[string]any{"title": "Inner", "parent": outer.Id, "sections": []string{three}})
	if inner.SectionGroup == nil || *inner.SectionGroup != outer.Id {
		t.Fatalf("subgroup parent = %v", inner.SectionGroup)
	}
	l := w.groups(t, "")
	if l.Count != 2 || l.Items[0].Id != outer.Id || l.Items[1].Id != inner.Id {
		t.Fatalf("groups = %+v", l)
	}
	wantIDs(t, "children", childIDs(t, l.Items[0]), "site-section:"+two, "site-section:"+one, "site-section-group:"+inner.Id)
	wantIDs(t, "flat sections", idsOf(l.Items[0].Sections), two, one, three)
	// A new group goes at the end of its parent: four, then the group's sections, depth first.
	wantIDs(t, "structure order", idsOf(w.sections(t, "").Items), four, two, one, three)
	p1 := w.groups(t, "?limit=1")
	if len(p1.Items) != 1 || p1.Next == nil {
		t.Fatal("groups do not page")
	}
	if p2 := w.groups(t, "?limit=1&page="+p1.Next.Page); len(p2.Items) != 1 || p2.Items[0].Id != inner.Id || p2.Next != nil {
		t.Fatalf("page 2 = %+v", p2)
	}

	t.Run("AddAndRemoveSection", func(t *testing.T) {
		g := sendJSON[gen.SiteSectionGroup](t, w.testServer, http.StatusCreated, w.admin, "POST", w.path("/section-groups/"+inner.Id+"/sections"), map[string]any{"sectionId": four})
		wantIDs(t, "children", childIDs(t, g), "site-section:"+three, "site-section:"+four)
		w.Expect(t, http.StatusCreated, w.admin, "POST", w.path("/section-groups/"+inner.Id+"/sections"), map[string]any{"sectionId": three}).Decode(t, &g)
		wantIDs(t, "children (already in)", childIDs(t, g), "site-section:"+three, "site-section:"+four)
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.path("/section-groups/"+inner.Id+"/sections"), map[string]any{"sectionId": "nope"})
		w.Expect(t, http.StatusNotFound, w.admin, "POST", w.path("/section-groups/nope/sections"), map[string]any{"sectionId": four})

		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+inner.Id+"/sections/"+four), nil)
		if got := w.section(t, four); got.SectionGroup != nil {
			t.Fatal("a removed section is still in a group")
		}
		wantIDs(t, "structure order", idsOf(w.sections(t, "").Items), two, one, three, four)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/"+inner.Id+"/sections/"+four), nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.path("/section-groups/nope/sections/"+four), nil)
	})
	t.Run("Update", func(t *testing.T) {
		g := sendJSON[gen.SiteSectionGroup](t, w.testServer, http.StatusOK, w.admin, "PATCH", w.path("/section-groups/"+outer.Id), map[string]any{"title": "Outer", "icon": nil})
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
		wantIDs(t, "structure order", idsOf(w.sections(t, "").Items), two, one, three, four)
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
