package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// siteRedirectWrites: a source has at most one live and one draft redirect; lists filter by
// draft state and search, in the order asked; updates and bulk changes keep the key unique; a
// draft is published over the live redirect; deleting reports whether there was one.
func siteRedirectWrites(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Type: "basic", Title: "Docs", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	ext := func(u string) store.RedirectDestination {
		return store.RedirectDestination{DestinationKind: "external", URL: str(u)}
	}
	add := func(source string, draft bool, u string) *store.SiteRedirect {
		t.Helper()
		r := &store.SiteRedirect{SiteID: site.ID, Source: source, Draft: draft, RedirectDestination: ext(u)}
		if err := w.st.CreateSiteRedirect(ctx, r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	b := add("/b", false, "https://example.com/b")
	a := add("/a", false, "https://example.com/a")
	draftA := add("/a", true, "https://example.com/a2")
	wantCode(t, w.st.CreateSiteRedirect(ctx, &store.SiteRedirect{SiteID: site.ID, Source: "/a", Draft: true, RedirectDestination: ext("https://x.test")}), store.ECONFLICT)

	ids := func(f store.SiteRedirectFilter) []string {
		t.Helper()
		l, err := w.st.FindSiteRedirects(ctx, site.ID, f, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range l.Items {
			out = append(out, r.ID)
		}
		if l.Count != len(out) {
			t.Fatalf("count %d, %d items", l.Count, len(out))
		}
		return out
	}
	wantSame := func(what string, got []string, want ...string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: %v, want %v", what, got, want)
			}
		}
	}
	wantSame("by source", ids(store.SiteRedirectFilter{OrderBy: "source"}), a.ID, b.ID)
	wantSame("drafts", ids(store.SiteRedirectFilter{Draft: true}), draftA.ID)
	wantSame("search", ids(store.SiteRedirectFilter{Search: str("B")}), b.ID)

	// An update to another redirect's key is a conflict and changes nothing.
	_, err = w.st.UpdateSiteRedirect(ctx, site.ID, b.ID, store.SiteRedirectUpdate{Source: str("/a")})
	wantCode(t, err, store.ECONFLICT)
	got, err := w.st.UpdateSiteRedirect(ctx, site.ID, b.ID, store.SiteRedirectUpdate{Source: str("/c"), Permanent: &[]bool{true}[0]})
	if err != nil || got.Source != "/c" || !got.Permanent || *got.URL != "https://example.com/b" {
		t.Fatalf("update: %+v, %v", got, err)
	}
	if _, err := w.st.UpdateSiteRedirect(ctx, site.ID, "nope", store.SiteRedirectUpdate{}); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("update of a missing redirect: %v", err)
	}

	// Bulk: publish the draft over the live one, create, update, delete, and fail one entry.
	d := ext("https://example.com/new")
	res, err := w.st.UpsertSiteRedirects(ctx, site.ID, []store.SiteRedirectUpsert{
		{Source: "/a", Intent: "publish"},
		{Source: "/new", Intent: "live", Destination: &d},
		{Source: "/c", Intent: "live", Destination: &d, CaptureWildcard: true},
		{Source: "/b", Intent: "live"},
		{Source: "/c", Intent: "publish"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"published", "created", "updated", "deleted", "error"}
	for i, r := range res {
		if r.Status != want[i] {
			t.Fatalf("bulk result %d: %+v, want %s", i, r, want[i])
		}
	}
	if res[0].ID != draftA.ID || res[2].ID != b.ID || res[4].Error == "" {
		t.Fatalf("bulk results: %+v", res)
	}
	live, err := w.st.FindSiteRedirectBySource(ctx, site.ID, "/a")
	if err != nil || live.ID != draftA.ID || *live.URL != "https://example.com/a2" || live.Draft {
		t.Fatalf("published draft: %+v, %v", live, err)
	}
	if _, err := w.st.FindSiteRedirect(ctx, site.ID, a.ID); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("the live redirect a draft was published over is still there: %v", err)
	}
	if c, _ := w.st.FindSiteRedirect(ctx, site.ID, b.ID); !c.CaptureWildcard || !c.Permanent || *c.URL != "https://example.com/new" {
		t.Fatalf("upserted: %+v", c)
	}
	wantSame("drafts after publishing", ids(store.SiteRedirectFilter{Draft: true}))

	deleted, err := w.st.DeleteSiteRedirect(ctx, site.ID, b.ID)
	if err != nil || !deleted {
		t.Fatalf("delete: %v, %v", deleted, err)
	}
	if deleted, err = w.st.DeleteSiteRedirect(ctx, site.ID, b.ID); err != nil || deleted {
		t.Fatalf("delete again: %v, %v", deleted, err)
	}
}

// pageFormerlyAt: a page moved or renamed is found by the path it had; a path no page ever had,
// or one only a change request used, is not.
func pageFormerlyAt(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Guide")
	refs := w.commit(sp.ID, insert("a", "Install", "x"), insert("b", "Other", "y"))
	w.commit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["a"]), Title: str("Setup"), Slug: str("setup")})
	w.edit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["b"]), Slug: str("unmerged")})
	rev := w.current(sp.ID)
	id, err := w.st.FindPageFormerlyAt(ctx, rev.ID, "install")
	if err != nil || id != refs["a"] {
		t.Fatalf("former path: %q, %v", id, err)
	}
	if id, err := w.st.FindPageFormerlyAt(ctx, rev.ID, "setup"); err != nil || id != refs["a"] {
		t.Fatalf("current path: %q, %v", id, err)
	}
	for _, path := range []string{"unmerged", "never"} {
		_, err := w.st.FindPageFormerlyAt(ctx, rev.ID, path)
		wantCode(t, err, store.ENOTFOUND)
	}
}
