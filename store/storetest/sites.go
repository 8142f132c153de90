package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// sites: a site is made of live spaces of its own organization, the first its default; the
// default moves when asked; a space of another organization is refused; a deleted site is gone.
func sites(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	a, b := w.space("Guides"), w.space("Reference")
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public", Spaces: []string{a.ID}})
	if err != nil {
		t.Fatal(err)
	}
	added, err := w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SpaceID: b.ID})
	if err != nil || added.Space == nil || added.Space.ID != b.ID || added.Default {
		t.Fatalf("adding a second site space: %+v, %v", added, err)
	}
	root := func() []*store.SiteSpace {
		t.Helper()
		st, err := w.st.FindSiteStructure(ctx, site.ID)
		if err != nil || len(st.RootSiteSpaces) != 2 {
			t.Fatalf("structure: %+v, %v", st, err)
		}
		return st.RootSiteSpaces
	}
	if r := root(); r[0].Space.ID != a.ID || !r[0].Default || r[1].Default {
		t.Fatalf("the first space is not the default: %+v %+v", r[0], r[1])
	}
	if err := w.st.SetDefaultSiteSpace(ctx, site.ID, added.ID); err != nil {
		t.Fatal(err)
	}
	if r := root(); r[0].Default || !r[1].Default {
		t.Fatalf("the default did not move: %+v %+v", r[0], r[1])
	}
	if l, err := w.st.FindSiteSpaces(ctx, site.ID, store.SiteSpaceFilter{}, store.Page{Limit: 1}); err != nil || l.Count != 2 || len(l.Items) != 1 || l.Next == "" {
		t.Fatalf("a page of site spaces: %+v, %v", l, err)
	}

	host := "docs.example.test"
	if _, err := w.st.UpdateSite(ctx, site.ID, store.SiteUpdate{SetHostname: true, Hostname: &host}); err != nil {
		t.Fatal(err)
	}
	if got, err := w.st.FindSiteByHostname(ctx, host); err != nil || got.ID != site.ID {
		t.Fatalf("site by hostname: %+v, %v", got, err)
	}
	_, err = w.st.FindSiteByHostname(ctx, "other.example.test")
	wantCode(t, err, store.ENOTFOUND)

	elsewhere, err := w.st.CreateOrganization(ctx, "Elsewhere", w.user)
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := w.st.CreateSpace(ctx, elsewhere.ID, w.user, store.SpaceCreate{Title: "Foreign"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SpaceID: foreign.ID})
	wantCode(t, err, store.EINVALID)
	if err := w.st.DeleteSite(ctx, site.ID); err != nil {
		t.Fatal(err)
	}
	_, err = w.st.FindSite(ctx, site.ID)
	wantCode(t, err, store.ENOTFOUND)
}
