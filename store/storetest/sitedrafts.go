package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/store"
)

// siteStructureFields: a site's default level, and the drafts, hidden site spaces, own titles
// and home pages, localized texts and moves by field of its structure, are stored and read back
// by every read of the structure; a page that is not the space's, a group that is not the
// site's and a group moved under itself are invalid and change nothing.
func siteStructureFields(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	guide, other := w.space("Guide"), w.space("Other")
	refs := w.commit(guide.ID, insert("start", "Start here", "Begin."))
	otherRefs := w.commit(other.ID, insert("else", "Elsewhere", "Not the guide."))
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	if site.DefaultLevel != store.LevelInherit {
		t.Fatalf("a new site's level %q", site.DefaultLevel)
	}
	for _, level := range []store.Role{store.RoleEdit, store.RoleGuest, store.LevelInherit} {
		got, err := w.st.UpdateSite(ctx, site.ID, store.SiteUpdate{SetDefaultLevel: true, DefaultLevel: level})
		if err != nil || got.DefaultLevel != level {
			t.Fatalf("level %q: %+v, %v", level, got, err)
		}
	}

	// Sections: in a group, draft, with a home page; localized; moved by field.
	group, err := w.st.AddSiteSectionGroup(ctx, site.ID, store.SiteSectionGroupCreate{Title: "Docs", Draft: true})
	if err != nil || !group.Draft {
		t.Fatalf("draft group: %+v, %v", group, err)
	}
	title := "Guide"
	_, err = w.st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{SpaceID: guide.ID, Title: &title, PageID: str(otherRefs["else"])})
	wantCode(t, err, store.EINVALID)
	_, err = w.st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{SpaceID: guide.ID, Title: &title, GroupID: str("nope")})
	wantCode(t, err, store.EINVALID)
	sec, err := w.st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{SpaceID: guide.ID, Title: &title, GroupID: &group.ID,
		Draft: true, PageID: str(refs["start"])})
	if err != nil || !sec.Draft || !store.EqualPtr(sec.GroupID, &group.ID) || len(sec.SiteSpaces) != 1 || !store.EqualPtr(sec.SiteSpaces[0].PageID, str(refs["start"])) {
		t.Fatalf("section: %+v, %v", sec, err)
	}
	if st, err := w.st.FindSiteStructure(ctx, site.ID); err != nil || len(st.Sections) != 1 {
		t.Fatalf("structure: %+v, %v (the refused sections were added)", st, err)
	}
	fr := store.Localized{"fr": "Le guide"}
	sec, err = w.st.UpdateSiteSection(ctx, site.ID, sec.ID, store.SiteSectionUpdate{Draft: ptr(false), LocalizedTitle: fr,
		LocalizedDescription: store.Localized{"de": "Zum Anfang"}, SetGroup: true})
	if err != nil || sec.Draft || sec.GroupID != nil || !reflect.DeepEqual(sec.LocalizedTitle, fr) || sec.LocalizedDescription["de"] != "Zum Anfang" {
		t.Fatalf("updated section: %+v, %v", sec, err)
	}
	_, err = w.st.UpdateSiteSection(ctx, site.ID, sec.ID, store.SiteSectionUpdate{SetGroup: true, GroupID: str("nope"), Title: str("Renamed")})
	wantCode(t, err, store.EINVALID)
	sec, err = w.st.UpdateSiteSection(ctx, site.ID, sec.ID, store.SiteSectionUpdate{SetGroup: true, GroupID: &group.ID, LocalizedTitle: store.Localized{}})
	if err != nil || sec.Title != "Guide" || !store.EqualPtr(sec.GroupID, &group.ID) || sec.LocalizedTitle != nil || sec.LocalizedDescription == nil {
		t.Fatalf("moved into the group: %+v, %v", sec, err)
	}

	// Groups: localized, live, nested by field; not under themselves.
	sub, err := w.st.AddSiteSectionGroup(ctx, site.ID, store.SiteSectionGroupCreate{Title: "Sub", Parent: &group.ID})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.UpdateSiteSectionGroup(ctx, site.ID, group.ID, store.SiteSectionGroupUpdate{SetParent: true, Parent: &sub.ID, Title: str("Moved")})
	wantCode(t, err, store.EINVALID)
	g, err := w.st.UpdateSiteSectionGroup(ctx, site.ID, group.ID, store.SiteSectionGroupUpdate{Draft: ptr(false), LocalizedTitle: fr})
	if err != nil || g.Draft || g.Title != "Docs" || !reflect.DeepEqual(g.LocalizedTitle, fr) {
		t.Fatalf("updated group: %+v, %v", g, err)
	}
	if g, err = w.st.UpdateSiteSectionGroup(ctx, site.ID, sub.ID, store.SiteSectionGroupUpdate{SetParent: true}); err != nil || g.ParentID != nil {
		t.Fatalf("group to the root: %+v, %v", g, err)
	}

	// Site spaces: own title, home page, draft, hidden; another space drops the page.
	_, err = w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SpaceID: guide.ID, SectionID: &sec.ID, PageID: str(otherRefs["else"])})
	wantCode(t, err, store.EINVALID)
	ss, err := w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SpaceID: guide.ID, SectionID: &sec.ID, Title: str("Guide, again"),
		PageID: str(refs["start"]), Draft: true})
	if err != nil || !ss.Draft || ss.Hidden || !store.EqualPtr(ss.Title, str("Guide, again")) || ss.Path != "guide-again" || !store.EqualPtr(ss.PageID, str(refs["start"])) {
		t.Fatalf("site space: %+v, %v", ss, err)
	}
	_, err = w.st.UpdateSiteSpace(ctx, site.ID, ss.ID, store.SiteSpaceUpdate{SetPageID: true, PageID: str(otherRefs["else"]), Hidden: ptr(true)})
	wantCode(t, err, store.EINVALID)
	if ss, err = w.st.UpdateSiteSpace(ctx, site.ID, ss.ID, store.SiteSpaceUpdate{Hidden: ptr(true), Draft: ptr(false)}); err != nil || !ss.Hidden || ss.Draft || ss.PageID == nil {
		t.Fatalf("updated site space: %+v, %v", ss, err)
	}
	if ss, err = w.st.UpdateSiteSpace(ctx, site.ID, ss.ID, store.SiteSpaceUpdate{SpaceID: &other.ID}); err != nil || ss.PageID != nil {
		t.Fatalf("the page stayed with another space: %+v, %v", ss, err)
	}
	if ss, err = w.st.UpdateSiteSpace(ctx, site.ID, ss.ID, store.SiteSpaceUpdate{SetPageID: true, PageID: str(otherRefs["else"])}); err != nil || !store.EqualPtr(ss.PageID, str(otherRefs["else"])) {
		t.Fatalf("a page of the new space: %+v, %v", ss, err)
	}

	// The structure reads them all back.
	st, err := w.st.FindSiteStructure(ctx, site.ID)
	if err != nil || len(st.Groups) != 2 || len(st.Sections) != 1 || len(st.Sections[0].SiteSpaces) != 2 {
		t.Fatalf("structure: %+v, %v", st, err)
	}
	if got := st.Sections[0]; got.Draft || got.LocalizedDescription["de"] != "Zum Anfang" || !store.EqualPtr(got.SiteSpaces[0].PageID, str(refs["start"])) {
		t.Fatalf("structure's section: %+v", got)
	}
	if got := st.Sections[0].SiteSpaces[1]; !got.Hidden || !store.EqualPtr(got.Title, str("Guide, again")) || got.Space.ID != other.ID {
		t.Fatalf("structure's site space: %+v", got)
	}
	if got := st.Groups[0]; got.ID != group.ID || !reflect.DeepEqual(got.LocalizedTitle, fr) {
		t.Fatalf("structure's group: %+v", got)
	}
}

// siteNewSpaces: a section or site space may publish a space created with it, in the same
// write, filled with a template's pages, or a copy of a space; when the rest is refused, no space
// is left behind.
func siteNewSpaces(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	spaces := func() int {
		t.Helper()
		l, err := w.st.FindSpaces(ctx, w.org, false, nil, store.Page{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return l.Count
	}
	before := spaces()
	changes, err := store.TemplateChanges("product-guide", nil)
	if err != nil {
		t.Fatal(err)
	}
	sec, err := w.st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{NewSpace: &store.NewSiteSpace{CreatorID: w.user, Title: "Product guide", Changes: changes}})
	if err != nil || sec.Title != "Product guide" || len(sec.SiteSpaces) != 1 || sec.SiteSpaces[0].Space.Title != "Product guide" {
		t.Fatalf("section with a new space: %+v, %v", sec, err)
	}
	if pages := w.current(sec.SiteSpaces[0].Space.ID).Pages; len(pages) != len(changes) {
		t.Fatalf("the new space has %d pages, the template %d", len(pages), len(changes))
	}
	ss, err := w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SectionID: &sec.ID, NewSpace: &store.NewSiteSpace{CreatorID: w.user, Title: "Notes"}})
	if err != nil || ss.Space.Title != "Notes" || len(w.current(ss.Space.ID).Pages) != 0 {
		t.Fatalf("site space with a new space: %+v, %v", ss, err)
	}
	_, err = w.st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{NewSpace: &store.NewSiteSpace{CreatorID: w.user, Title: "Lost"}, GroupID: str("nope")})
	wantCode(t, err, store.EINVALID)
	_, err = w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SectionID: str("nope"), NewSpace: &store.NewSiteSpace{CreatorID: w.user, Title: "Lost"}})
	wantCode(t, err, store.EINVALID)
	if got := spaces(); got != before+2 {
		t.Fatalf("%d spaces, want %d: a refused addition left its space", got, before+2)
	}
	// A copy (duplicateSiteSpace): the copy of "Product guide", its pages shared, beside it.
	src := sec.SiteSpaces[0].Space
	cp, err := w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SectionID: &sec.ID, CopyOf: &store.SpaceCopy{SpaceID: src.ID, CreatorID: w.user}})
	if err != nil || cp.Space.ID == src.ID || cp.Space.Title != "Product guide (copy)" || len(w.current(cp.Space.ID).Pages) != len(changes) {
		t.Fatalf("site space with a copy: %+v, %v", cp, err)
	}
	_, err = w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SectionID: str("nope"), CopyOf: &store.SpaceCopy{SpaceID: src.ID, CreatorID: w.user}})
	wantCode(t, err, store.EINVALID)
	if got := spaces(); got != before+3 {
		t.Fatalf("%d spaces, want %d: a refused addition left its copy", got, before+3)
	}
}

func ptr[T any](v T) *T { return &v }
