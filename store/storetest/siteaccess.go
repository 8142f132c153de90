package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// siteShareLinks: share links get distinct keys, are found by key on their own site only, listed
// oldest first and by name, updated, and deleted once.
func siteShareLinks(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "share-link"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Other", Visibility: "share-link"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.st.CreateSiteShareLink(ctx, site.ID, "Partners")
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.st.CreateSiteShareLink(ctx, site.ID, "Press")
	if err != nil {
		t.Fatal(err)
	}
	if a.Key == b.Key || a.Key == "" || !a.Active {
		t.Fatalf("share links: %+v %+v", a, b)
	}
	if got, err := w.st.FindSiteShareLinkByKey(ctx, site.ID, a.Key); err != nil || got.ID != a.ID {
		t.Fatalf("by key: %+v, %v", got, err)
	}
	_, err = w.st.FindSiteShareLinkByKey(ctx, other.ID, a.Key)
	wantCode(t, err, store.ENOTFOUND)
	l, err := w.st.FindSiteShareLinks(ctx, site.ID, nil, store.Page{})
	if err != nil || l.Count != 2 || l.Items[0].ID != a.ID || l.Items[1].ID != b.ID {
		t.Fatalf("list: %+v, %v", l, err)
	}
	if l, _ := w.st.FindSiteShareLinks(ctx, site.ID, str("PRE"), store.Page{}); l.Count != 1 || l.Items[0].ID != b.ID {
		t.Fatalf("search: %+v", l)
	}
	off := false
	got, err := w.st.UpdateSiteShareLink(ctx, site.ID, a.ID, store.SiteShareLinkUpdate{Active: &off})
	if err != nil || got.Active || got.Name != "Partners" {
		t.Fatalf("update: %+v, %v", got, err)
	}
	if got, _ := w.st.FindSiteShareLinkByKey(ctx, site.ID, a.Key); got.Active {
		t.Fatal("the disabled link reads active")
	}
	_, err = w.st.UpdateSiteShareLink(ctx, other.ID, a.ID, store.SiteShareLinkUpdate{Active: &off})
	wantCode(t, err, store.ENOTFOUND)
	if deleted, err := w.st.DeleteSiteShareLink(ctx, site.ID, a.ID); err != nil || !deleted {
		t.Fatalf("delete: %v %v", deleted, err)
	}
	if deleted, err := w.st.DeleteSiteShareLink(ctx, site.ID, a.ID); err != nil || deleted {
		t.Fatalf("delete again: %v %v", deleted, err)
	}
}

// sitePublishingAuth: the settings are made on first read with a key, kept on update, and the
// key changes when regenerated.
func sitePublishingAuth(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "visitor-auth"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.st.SitePublishingAuth(ctx, site.ID)
	if err != nil || a.Backend != "custom" || len(a.PrivateKey) < 32 {
		t.Fatalf("first read: %+v, %v", a, err)
	}
	if again, _ := w.st.SitePublishingAuth(ctx, site.ID); again.PrivateKey != a.PrivateKey {
		t.Fatal("a second read made another key")
	}
	u, err := w.st.UpdateSitePublishingAuth(ctx, site.ID, store.SitePublishingAuthUpdate{SetFallbackURL: true, FallbackURL: str("https://login.example.com")})
	if err != nil || u.PrivateKey != a.PrivateKey || u.FallbackURL == nil || *u.FallbackURL != "https://login.example.com" || u.LogoutURL != nil {
		t.Fatalf("update: %+v, %v", u, err)
	}
	r, err := w.st.RegenerateSitePublishingAuth(ctx, site.ID)
	if err != nil || r.PrivateKey == a.PrivateKey || r.FallbackURL == nil {
		t.Fatalf("regenerate: %+v, %v", r, err)
	}
	if got, _ := w.st.SitePublishingAuth(ctx, site.ID); got.PrivateKey != r.PrivateKey {
		t.Fatal("the regenerated key was not kept")
	}
}

// siteHostnameChecks: the last check of a site's hostname is kept, and only for that hostname.
func siteHostnameChecks(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.FindSiteHostnameCheck(ctx, site.ID, "docs.acme.test")
	wantCode(t, err, store.ENOTFOUND)
	for _, status := range []string{"dns_no_cname", "dns_passed"} {
		if err := w.st.RecordSiteHostnameCheck(ctx, &store.SiteHostnameCheck{SiteID: site.ID, Hostname: "docs.acme.test", Status: status}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := w.st.FindSiteHostnameCheck(ctx, site.ID, "docs.acme.test")
	if err != nil || c.Status != "dns_passed" || c.CheckedAt.IsZero() {
		t.Fatalf("check: %+v, %v", c, err)
	}
	_, err = w.st.FindSiteHostnameCheck(ctx, site.ID, "help.acme.test")
	wantCode(t, err, store.ENOTFOUND)
}
