package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// siteNavigation: external links need a site with sections, are kept whole, share their
// parent's order with sections and groups, follow a deleted group to its place, and every item
// sorts next to another (into that one's parent); wrong pointers are refused and change nothing.
func siteNavigation(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public", Spaces: []string{w.space("Root").ID}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.AddSiteExternalLink(ctx, site.ID, store.SiteExternalLinkCreate{Title: "Blog", URL: "https://example.com"})
	wantCode(t, err, store.EINVALID)
	a, err := w.st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{SpaceID: w.space("Alpha").ID})
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.st.AddSiteSection(ctx, site.ID, store.SiteSectionCreate{SpaceID: w.space("Beta").ID})
	if err != nil {
		t.Fatal(err)
	}
	desc, icon, cond := "News", "rss", "visitor.claims.beta === true"
	l, err := w.st.AddSiteExternalLink(ctx, site.ID, store.SiteExternalLinkCreate{Title: "Blog", URL: "https://example.com/blog",
		Description: &desc, Icon: &icon, Condition: &cond, Draft: true, LocalizedTitle: store.Localized{"fr": "Le blog"}})
	if err != nil || l.Title != "Blog" || l.URL != "https://example.com/blog" || *l.Description != desc || *l.Icon != icon ||
		*l.Condition != cond || !l.Draft || l.LocalizedTitle["fr"] != "Le blog" || l.GroupID != nil {
		t.Fatalf("added: %+v, %v", l, err)
	}
	g, err := w.st.AddSiteSectionGroup(ctx, site.ID, store.SiteSectionGroupCreate{Title: "G", Sections: []string{b.ID}})
	if err != nil {
		t.Fatal(err)
	}
	order := func(group *string) []string {
		t.Helper()
		st, err := w.st.FindSiteStructure(ctx, site.ID)
		if err != nil {
			t.Fatal(err)
		}
		type item struct {
			id  string
			pos float64
		}
		var items []item
		for _, s := range st.Sections {
			if store.EqualPtr(s.GroupID, group) {
				items = append(items, item{"s:" + s.ID, s.Position})
			}
		}
		for _, x := range st.Groups {
			if store.EqualPtr(x.ParentID, group) {
				items = append(items, item{"g:" + x.ID, x.Position})
			}
		}
		for _, x := range st.ExternalLinks {
			if store.EqualPtr(x.GroupID, group) {
				items = append(items, item{"l:" + x.ID, x.Position})
			}
		}
		for i := range items {
			for j := i + 1; j < len(items); j++ {
				if items[j].pos < items[i].pos {
					items[i], items[j] = items[j], items[i]
				}
			}
		}
		out := []string{}
		for _, it := range items {
			out = append(out, it.id)
		}
		return out
	}
	want := func(got []string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("order %v, want %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("order %v, want %v", got, want)
			}
		}
	}
	root := order(nil)
	def := root[0]
	want(root, def, "s:"+a.ID, "l:"+l.ID, "g:"+g.ID)

	// Update: into the group, fields replaced or removed.
	url, title, draft := "https://blog.example.com", "Our blog", false
	upd, err := w.st.UpdateSiteExternalLink(ctx, site.ID, l.ID, store.SiteExternalLinkUpdate{Title: &title, URL: &url, Draft: &draft,
		SetIcon: true, SetCondition: true, SetGroup: true, GroupID: &g.ID, SetLocalizedTitle: true})
	if err != nil || upd.Title != title || upd.URL != url || upd.Draft || upd.Icon != nil || upd.Condition != nil ||
		upd.GroupID == nil || *upd.GroupID != g.ID || upd.LocalizedTitle != nil || *upd.Description != desc {
		t.Fatalf("updated: %+v, %v", upd, err)
	}
	want(order(&g.ID), "s:"+b.ID, "l:"+l.ID)
	nope := "nope"
	_, err = w.st.UpdateSiteExternalLink(ctx, site.ID, l.ID, store.SiteExternalLinkUpdate{SetGroup: true, GroupID: &nope})
	wantCode(t, err, store.EINVALID)
	_, err = w.st.UpdateSiteExternalLink(ctx, site.ID, "nope", store.SiteExternalLinkUpdate{Title: &title})
	wantCode(t, err, store.ENOTFOUND)

	// Sorting.
	ref := func(k store.SiteItemKind, id string) *store.SiteItemRef { return &store.SiteItemRef{Kind: k, ID: id} }
	if err := w.st.SortSiteStructure(ctx, site.ID, *ref(store.SiteItemExternalLink, l.ID), store.SiteItemMove{Before: ref(store.SiteItemSection, a.ID)}); err != nil {
		t.Fatal(err)
	}
	want(order(nil), def, "l:"+l.ID, "s:"+a.ID, "g:"+g.ID)
	want(order(&g.ID), "s:"+b.ID)
	if err := w.st.SortSiteStructure(ctx, site.ID, *ref(store.SiteItemSection, a.ID), store.SiteItemMove{After: ref(store.SiteItemSection, b.ID)}); err != nil {
		t.Fatal(err)
	}
	want(order(&g.ID), "s:"+b.ID, "s:"+a.ID)
	if err := w.st.SortSiteStructure(ctx, site.ID, *ref(store.SiteItemGroup, g.ID), store.SiteItemMove{}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.SortSiteStructure(ctx, site.ID, *ref(store.SiteItemGroup, g.ID), store.SiteItemMove{Before: ref(store.SiteItemExternalLink, l.ID)}); err != nil {
		t.Fatal(err)
	}
	want(order(nil), def, "g:"+g.ID, "l:"+l.ID)
	for _, bad := range []struct {
		item store.SiteItemRef
		m    store.SiteItemMove
		code string
	}{
		{*ref(store.SiteItemGroup, g.ID), store.SiteItemMove{After: ref(store.SiteItemSection, a.ID)}, store.EINVALID},
		{*ref(store.SiteItemSection, a.ID), store.SiteItemMove{After: ref(store.SiteItemSection, "nope")}, store.EINVALID},
		{*ref(store.SiteItemSection, a.ID), store.SiteItemMove{After: ref(store.SiteItemSpace, "nope")}, store.EINVALID},
		{*ref(store.SiteItemSection, a.ID), store.SiteItemMove{After: ref(store.SiteItemSection, b.ID), Before: ref(store.SiteItemSection, b.ID)}, store.EINVALID},
		{*ref(store.SiteItemSection, "nope"), store.SiteItemMove{}, store.ENOTFOUND},
		{*ref("page", a.ID), store.SiteItemMove{}, store.EINVALID},
	} {
		wantCode(t, w.st.SortSiteStructure(ctx, site.ID, bad.item, bad.m), bad.code)
	}
	want(order(nil), def, "g:"+g.ID, "l:"+l.ID)

	// A deleted group's link takes its place; a deleted link is gone once.
	if _, err := w.st.UpdateSiteExternalLink(ctx, site.ID, l.ID, store.SiteExternalLinkUpdate{SetGroup: true, GroupID: &g.ID}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.DeleteSiteSectionGroup(ctx, site.ID, g.ID); err != nil {
		t.Fatal(err)
	}
	want(order(nil), def, "s:"+b.ID, "s:"+a.ID, "l:"+l.ID)
	if gone, err := w.st.DeleteSiteExternalLink(ctx, site.ID, l.ID); err != nil || !gone {
		t.Fatalf("delete: %v %v", gone, err)
	}
	if gone, _ := w.st.DeleteSiteExternalLink(ctx, site.ID, l.ID); gone {
		t.Fatal("deleted twice")
	}
}
