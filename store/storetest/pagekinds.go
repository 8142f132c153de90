package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/quire-docs/quire/store"
)

// pageKinds: group and link pages are written, read back, refused where their kind does not
// fit, merged field by field and searched by title, the same on every backend.
func pageKinds(t *testing.T, open Opener) {
	ctx := context.Background()
	w := newWorld(t, open, nil)
	sp := w.space("Kinds")
	other := w.space("Elsewhere")
	group, link := store.PageGroup, store.PageLink
	newGroup := func(ref, title string) store.PageChange {
		return store.PageChange{Type: "insert_page", Ref: str(ref), Title: str(title), PageType: &group}
	}
	newLink := func(ref, title, into string, target store.PageTarget) store.PageChange {
		c := store.PageChange{Type: "insert_page", Ref: str(ref), Title: str(title), PageType: &link, Target: &target}
		if into != "" {
			c.SetInto, c.Into = true, str(into)
		}
		return c
	}
	refs := w.commit(sp.ID,
		newGroup("g", "Zanzibar guides"),
		insertInto("doc", "Install", "# Install\n\nSteps.", "g"),
		newLink("url", "Quokka status", "g", store.PageTarget{Kind: store.TargetURL, URL: "https://status.example.com/"}),
		newLink("pg", "See install", "g", store.PageTarget{Kind: store.TargetPage, Page: "doc"}),
		newLink("sp", "Other space", "", store.PageTarget{Kind: store.TargetSpace, Space: other.ID}),
	)
	rev := w.current(sp.ID)
	got := map[string]*store.RevisionPage{}
	for _, p := range rev.Pages {
		got[p.ID] = p
	}
	g, doc := got[refs["g"]], got[refs["doc"]]
	if g == nil || g.Kind() != store.PageGroup || g.ParentID != nil || g.Target != nil || g.Path != "zanzibar-guides" {
		t.Fatalf("group = %+v", g)
	}
	if doc.Kind() != store.PageDocument || doc.Path != "zanzibar-guides/install" {
		t.Fatalf("document in the group = %+v", doc)
	}
	wantTarget := func(ref string, want store.PageTarget) {
		t.Helper()
		p := got[refs[ref]]
		if p == nil || p.Kind() != store.PageLink || p.Target == nil || *p.Target != want {
			t.Fatalf("link %s = %+v (target %+v), want target %+v", ref, p, p.Target, want)
		}
	}
	wantTarget("url", store.PageTarget{Kind: store.TargetURL, URL: "https://status.example.com/"})
	wantTarget("pg", store.PageTarget{Kind: store.TargetPage, Page: refs["doc"]}) // the ref became the id
	wantTarget("sp", store.PageTarget{Kind: store.TargetSpace, Space: other.ID})
	if p, err := w.st.FindPage(ctx, rev.ID, refs["url"]); err != nil || p.Target == nil || p.Target.URL != "https://status.example.com/" {
		t.Fatalf("FindPage(link) = %+v, %v", p, err)
	}

	t.Run("Refused", func(t *testing.T) {
		cr, err := w.st.CreateChangeRequest(ctx, sp.ID, w.user, "bad")
		if err != nil {
			t.Fatal(err)
		}
		bad := "ftp://x"
		for _, tc := range []struct {
			name  string
			c     store.PageChange
			field string
		}{
			{"group inside a page", func() store.PageChange { c := newGroup("x", "G"); c.SetInto, c.Into = true, str(refs["doc"]); return c }(), "changes[0].into"},
			{"group with content", func() store.PageChange { c := newGroup("x", "G"); c.Markdown = str("# no"); return c }(), "changes[0].document"},
			{"page inside a link", insertInto("x", "P", "", refs["url"]), "changes[0].into"},
			{"link without target", store.PageChange{Type: "insert_page", Title: str("L"), PageType: &link}, "changes[0].target"},
			{"bad url", newLink("x", "L", "", store.PageTarget{Kind: store.TargetURL, URL: bad}), "changes[0].target.url"},
			{"unknown page", newLink("x", "L", "", store.PageTarget{Kind: store.TargetPage, Page: "nope"}), "changes[0].target.page"},
			{"unknown type", store.PageChange{Type: "insert_page", Title: str("C"), PageType: str("computed")}, "changes[0].type"},
			{"target on a document", store.PageChange{Type: "update_page", Page: str(refs["doc"]),
				Target: &store.PageTarget{Kind: store.TargetURL, URL: "https://x.example/"}}, "changes[0].target"},
			{"type on update", store.PageChange{Type: "update_page", Page: str(refs["doc"]), PageType: &group}, "changes[0].type"},
			{"slug on a link", store.PageChange{Type: "update_page", Page: str(refs["url"]), Slug: str("s")}, "changes[0].slug"},
			{"group moved into a page", store.PageChange{Type: "update_page", Page: str(refs["g"]), SetInto: true, Into: str(refs["doc"])}, "changes[0].into"},
		} {
			_, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, w.user, []store.PageChange{tc.c})
			var e *store.Error
			if !errors.As(err, &e) || e.Code != store.EINVALID || e.Field != tc.field {
				t.Errorf("%s: error %v, want invalid %s", tc.name, err, tc.field)
			}
		}
	})

	t.Run("Merge", func(t *testing.T) {
		newTarget := store.PageTarget{Kind: store.TargetURL, URL: "https://status.example.org/"}
		a, _ := w.edit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["url"]), Target: &newTarget})
		b, _ := w.edit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["url"]), Title: str("Quokka uptime")},
			store.PageChange{Type: "update_page", Page: str(refs["g"]), Title: str("Zanzibar handbook")})
		for _, cr := range []string{a, b} {
			if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr, w.user); err != nil || conflicts {
				t.Fatalf("merge %s: %v (conflicts %v)", cr, err, conflicts)
			}
		}
		p, err := w.st.FindPage(ctx, w.current(sp.ID).ID, refs["url"])
		if err != nil || p.Title != "Quokka uptime" || p.Target == nil || *p.Target != newTarget || p.Kind() != store.PageLink {
			t.Fatalf("merged link = %+v (%+v), %v", p, p.Target, err)
		}
		// Two different targets for one link conflict.
		x := store.PageTarget{Kind: store.TargetURL, URL: "https://x.example/"}
		y := store.PageTarget{Kind: store.TargetPage, Page: refs["doc"]}
		c1, _ := w.edit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["url"]), Target: &x})
		c2, _ := w.edit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["url"]), Target: &y})
		if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, c1, w.user); err != nil || conflicts {
			t.Fatalf("merge: %v %v", err, conflicts)
		}
		if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, c2, w.user); err != nil || !conflicts {
			t.Fatalf("second target merged without conflict: %v %v", err, conflicts)
		}
	})

	t.Run("Search", func(t *testing.T) {
		for q, want := range map[string]string{"zanzibar": refs["g"], "quokka": refs["url"]} {
			l, err := w.st.SearchSpace(ctx, sp.ID, q, store.Page{})
			if err != nil || len(l.Items) == 0 || l.Items[0].PageID != want {
				t.Fatalf("search %q = %+v, %v; want page %s first", q, l.Items, err, want)
			}
		}
	})
}
