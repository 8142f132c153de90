package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// links: links written with refs point at ids, a link to a path nothing holds is broken, pages
// and files know who links to them, and a change request's broken links are counted against
// its base; files upload in a batch and read back by hash.
func links(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID,
		store.PageChange{Type: "insert_files", Files: []store.FileUpload{{Ref: str("logo"), Name: "logo.txt", ContentType: "text/plain", Data: []byte("bytes")}}},
		insert("a", "A", "See [b](/pages/b), ![logo](/files/logo) and [gone](/pages/nowhere)."),
		insert("b", "B", "Back to [a](/pages/a)."))
	rev := w.current(sp.ID)
	l, stats, err := w.st.FindLinks(ctx, rev.ID, store.LinkFilter{}, store.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Total != 4 || stats.Broken != 1 || l.Count != 4 {
		t.Fatalf("links %+v, stats %+v", l.Items, stats)
	}
	broken := "broken"
	if bl, _, err := w.st.FindLinks(ctx, rev.ID, store.LinkFilter{Status: &broken}, store.Page{}); err != nil || len(bl.Items) != 1 ||
		len(bl.Items[0].Sources) != 1 || bl.Items[0].Sources[0] != refs["a"] {
		t.Fatalf("broken links: %+v, %v", bl.Items, err)
	}
	for _, c := range []struct{ kind, target, from string }{{"page", refs["b"], refs["a"]}, {"page", refs["a"], refs["b"]}, {"file", refs["logo"], refs["a"]}} {
		back, err := w.st.FindBacklinks(ctx, rev.ID, c.kind, c.target, store.Page{})
		if err != nil || back.Count != 1 || back.Items[0] != c.from {
			t.Fatalf("backlinks of %s %s: %+v, %v", c.kind, c.target, back, err)
		}
	}
	f, err := w.st.FindFile(ctx, rev.ID, refs["logo"])
	if err != nil || f.Name != "logo.txt" || f.Size != 5 {
		t.Fatalf("file: %+v, %v", f, err)
	}
	if data, ct, err := w.st.FindBlob(ctx, f.SHA256, f.Name); err != nil || string(data) != "bytes" || ct != "text/plain" {
		t.Fatalf("blob: %q %q %v", data, ct, err)
	}
	_, res := w.edit(sp.ID, update(refs["b"], "Now [lost](/pages/missing) and [a](/pages/"+refs["a"]+")."))
	if n, err := w.st.CountLinksBrokenSince(ctx, res.Revision, rev.ID); err != nil || n != 1 {
		t.Fatalf("links the change broke: %d, %v; want 1", n, err)
	}
}

// linksByPath: relative links resolve against the paths of the content being written, all of a
// batch's at once: a page renamed earlier in the change request is found at its new path, and
// not at the old one its space still holds, on the change request and once it is merged.
func linksByPath(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID, insert("guide", "Guide", "Start."), insert("old", "Old", "Old page."), insert("other", "Other", "Other page."))
	cr, _ := w.edit(sp.ID, store.PageChange{Type: "update_page", Page: str(refs["old"]), Slug: str("renamed")})
	res, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, cr, w.user, []store.PageChange{
		update(refs["guide"], "See [new](renamed.md), [gone](old.md) and [other](./other.md)."),
		update(refs["other"], "Back to [the guide](guide.md)."),
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what, revisionID string) {
		t.Helper()
		l, stats, err := w.st.FindLinks(ctx, revisionID, store.LinkFilter{}, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, it := range l.Items {
			got[it.Kind+" "+it.Target] = it.Status
		}
		want := map[string]string{"page " + refs["old"]: "ok", "page old.md": "broken", "page " + refs["other"]: "ok", "page " + refs["guide"]: "ok"}
		if stats.Total != 4 || stats.Broken != 1 || len(got) != len(want) {
			t.Fatalf("%s: links %v, stats %+v; want %v", what, got, stats, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("%s: links %v; want %v", what, got, want)
			}
		}
	}
	check("change request", res.Revision)
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr, w.user); err != nil || conflicts {
		t.Fatalf("merge: %v (conflicts %v)", err, conflicts)
	}
	check("merged", w.current(sp.ID).ID)
}
