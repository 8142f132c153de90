package storetest

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// searchAncestry: a hit's description and ancestors are those of its space's current revision,
// however deep the tree, after pages were moved across parents, renamed or deleted, and through
// the revisions a duplicate shares with its original (a chain of lines): a duplicate's own
// changes hide its original's rows, and neither sees what the other changed after the copy. An
// organization search answers each space's own; hits keep their order and ranks. A link page's
// hit carries its target.
func searchAncestry(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	a := w.space("Original")
	// Level 1 > … > Level 7 > Animals, and Other 1 > Other 2 > Birds.
	changes := []store.PageChange{insert("l1", "Level 1", "One.")}
	for i := 2; i <= 7; i++ {
		changes = append(changes, insertInto(fmt.Sprintf("l%d", i), fmt.Sprintf("Level %d", i), "Deeper.", fmt.Sprintf("l%d", i-1)))
	}
	animals := insertInto("z", "Animals", "The zebra grazes.\n\n## More\n\nA zebra again, zebra.", "l7")
	animals.Description = str("Of the plains")
	changes = append(changes, animals, insert("o1", "Other 1", "Nothing."), insertInto("o2", "Other 2", "Nothing.", "o1"),
		insertInto("y", "Birds", "A zebra among birds.", "o2"))
	ids := w.commit(a.ID, changes...)
	deep := "Level 1 > Level 2 > Level 3 > Level 4 > Level 5 > Level 6 > Level 7"
	want := func(sp *store.Space, animals, birds string) {
		t.Helper()
		wantAncestors(t, w.st, sp, map[string]string{"Animals": animals, "Birds": birds})
	}
	want(a, deep, "Other 1 > Other 2")

	move := func(id, into string) store.PageChange {
		c := store.PageChange{Type: "update_page", Page: str(id), SetInto: true}
		if into != "" {
			c.Into = str(into)
		}
		return c
	}
	rename := func(id, title string) store.PageChange {
		return store.PageChange{Type: "update_page", Page: str(id), Title: str(title)}
	}

	b, err := w.st.DuplicateSpace(ctx, a.ID, w.user)
	if err != nil {
		t.Fatal(err)
	}
	want(b, deep, "Other 1 > Other 2")
	// The original after the copy: unseen in the duplicate.
	w.commit(a.ID, rename(ids["l3"], "Renamed in A"), move(ids["y"], ids["l1"]))
	// The duplicate: Animals moves across parents, its old branch goes, Birds moves under it.
	w.commit(b.ID, move(ids["z"], ids["o2"]), rename(ids["o1"], "First"))
	w.commit(b.ID, store.PageChange{Type: "delete_page", Page: str(ids["l2"])}, move(ids["y"], ids["z"]))
	want(a, strings.Replace(deep, "Level 3", "Renamed in A", 1), "Level 1")
	want(b, "First > Other 2", "First > Other 2 > Animals")

	// A duplicate of the duplicate reads three lines: its own, b's up to the copy, a's up to b's.
	c, err := w.st.DuplicateSpace(ctx, b.ID, w.user)
	if err != nil {
		t.Fatal(err)
	}
	w.commit(c.ID, rename(ids["o1"], "Top"))
	w.commit(b.ID, rename(ids["o2"], "Later in B"))
	want(c, "Top > Other 2", "Top > Other 2 > Animals")
	want(b, "First > Later in B", "First > Later in B > Animals")
	want(a, strings.Replace(deep, "Level 3", "Renamed in A", 1), "Level 1")

	// All three spaces in one organization search, each with its own ancestors.
	hits, err := w.st.SearchOrganization(ctx, w.org, "zebra", nil, store.Page{})
	if err != nil || len(hits.Items) != 3 {
		t.Fatalf("organization search: %+v, %v", hits, err)
	}
	byTitle := map[string]string{}
	for _, h := range hits.Items {
		for _, p := range h.Pages {
			byTitle[h.SpaceID+" "+p.Title] = ancestorTitles(p)
			if p.Title == "Animals" && p.Description != "Of the plains" {
				t.Fatalf("description %q", p.Description)
			}
		}
	}
	if byTitle[c.ID+" Birds"] != "Top > Other 2 > Animals" || byTitle[b.ID+" Animals"] != "First > Later in B" || byTitle[a.ID+" Birds"] != "Level 1" {
		t.Fatalf("organization search ancestors %v", byTitle)
	}

	// A link page's hit carries where it leads; a document's and a group's nothing.
	kinds := w.space("Kinds")
	group, link := store.PageGroup, store.PageLink
	refs := w.commit(kinds.ID, store.PageChange{Type: "insert_page", Ref: str("g"), Title: str("Zebra guides"), PageType: &group},
		insertInto("doc", "Zebra care", "Feed them.", "g"),
		store.PageChange{Type: "insert_page", Ref: str("l"), Title: str("Zebra status"), PageType: &link, SetInto: true, Into: str("g"),
			Target: &store.PageTarget{Kind: store.TargetPage, Page: "doc"}})
	l, err := w.st.SearchSpace(ctx, kinds.ID, "zebra", store.Page{})
	if err != nil || len(l.Items) != 3 {
		t.Fatalf("search of kinds: %+v, %v", l.Items, err)
	}
	for _, h := range l.Items {
		switch h.PageID {
		case refs["l"]:
			if h.Link == nil || *h.Link != (store.PageTarget{Kind: store.TargetPage, Page: refs["doc"]}) || ancestorTitles(h) != "Zebra guides" {
				t.Fatalf("link hit %+v (target %+v)", h, h.Link)
			}
		default:
			if h.Link != nil {
				t.Fatalf("hit %q has a target %+v", h.Title, h.Link)
			}
		}
	}
}

// wantAncestors searches a space for "zebra" and checks its hits' ancestors (titles joined by
// " > ", by the hit's title), with their ids naming pages of the revision, and their order:
// Animals (three matches) before Birds, ranks one-based in order.
func wantAncestors(t *testing.T, st store.Store, sp *store.Space, want map[string]string) {
	t.Helper()
	ctx := context.Background()
	l, err := st.SearchSpace(ctx, sp.ID, "zebra", store.Page{})
	if err != nil || len(l.Items) != len(want) {
		t.Fatalf("search %s: %+v, %v", sp.Title, l.Items, err)
	}
	cur, err := st.FindSpace(ctx, sp.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i, h := range l.Items {
		if h.Rank != i+1 || i > 0 && h.Score > l.Items[i-1].Score {
			t.Fatalf("search %s: hit %d %q has rank %d, score %v", sp.Title, i, h.Title, h.Rank, h.Score)
		}
		got[h.Title] = ancestorTitles(h)
		for _, anc := range h.Ancestors {
			p, err := st.FindPage(ctx, cur.RevisionID, anc.PageID)
			if err != nil || p.Title != anc.Title {
				t.Fatalf("search %s: ancestor %+v is %+v in the revision (%v)", sp.Title, anc, p, err)
			}
		}
	}
	if !reflect.DeepEqual(got, want) || l.Items[0].Title != "Animals" {
		t.Fatalf("search %s: ancestors %v (first %q), want %v", sp.Title, got, l.Items[0].Title, want)
	}
}

func ancestorTitles(h *store.SearchPage) string {
	titles := make([]string, len(h.Ancestors))
	for i, a := range h.Ancestors {
		titles[i] = a.Title
	}
	return strings.Join(titles, " > ")
}
