package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// siteCustomizations: a site's document and a site space's overrides are kept whole, replaced,
// deleted once, and go with their site space.
func siteCustomizations(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Other", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := w.st.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{SpaceID: w.space("Guide").ID})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.FindSiteCustomization(ctx, site.ID, "")
	wantCode(t, err, store.ENOTFOUND)
	for _, doc := range []string{`{"title":"One"}`, `{"title":"Two","themes":{"default":"dark"}}`} {
		if err := w.st.PutSiteCustomization(ctx, &store.SiteCustomization{SiteID: site.ID, Settings: []byte(doc)}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := w.st.FindSiteCustomization(ctx, site.ID, "")
	if err != nil || string(got.Settings) != `{"title":"Two","themes":{"default":"dark"}}` || got.UpdatedAt.IsZero() {
		t.Fatalf("site document: %+v, %v", got, err)
	}
	_, err = w.st.FindSiteCustomization(ctx, other.ID, "")
	wantCode(t, err, store.ENOTFOUND)

	err = w.st.PutSiteCustomization(ctx, &store.SiteCustomization{SiteID: other.ID, SiteSpaceID: ss.ID, Settings: []byte(`{}`)})
	wantCode(t, err, store.ENOTFOUND)
	if err := w.st.PutSiteCustomization(ctx, &store.SiteCustomization{SiteID: site.ID, SiteSpaceID: ss.ID, Settings: []byte(`{"title":"Space"}`)}); err != nil {
		t.Fatal(err)
	}
	if got, err := w.st.FindSiteCustomization(ctx, site.ID, ss.ID); err != nil || string(got.Settings) != `{"title":"Space"}` {
		t.Fatalf("site space document: %+v, %v", got, err)
	}
	if all, err := w.st.FindSiteSpaceCustomizations(ctx, site.ID); err != nil || len(all) != 1 || all[ss.ID] == nil {
		t.Fatalf("site space documents: %+v, %v", all, err)
	}
	if all, _ := w.st.FindSiteSpaceCustomizations(ctx, other.ID); len(all) != 0 {
		t.Fatalf("other site's documents: %+v", all)
	}
	if deleted, err := w.st.DeleteSiteCustomization(ctx, site.ID, ss.ID); err != nil || !deleted {
		t.Fatalf("delete: %v, %v", deleted, err)
	}
	if deleted, _ := w.st.DeleteSiteCustomization(ctx, site.ID, ss.ID); deleted {
		t.Fatal("deleted twice")
	}
	// The site's own document stays; a removed site space takes its overrides with it.
	if _, err := w.st.FindSiteCustomization(ctx, site.ID, ""); err != nil {
		t.Fatal(err)
	}
	if err := w.st.PutSiteCustomization(ctx, &store.SiteCustomization{SiteID: site.ID, SiteSpaceID: ss.ID, Settings: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.DeleteSiteSpace(ctx, site.ID, ss.ID); err != nil {
		t.Fatal(err)
	}
	if all, _ := w.st.FindSiteSpaceCustomizations(ctx, site.ID); len(all) != 0 {
		t.Fatalf("a removed site space's overrides stay: %+v", all)
	}
}
