package sqlstore

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// An edit of a page's body keeps the page's row in the search index (its key, and its title's
// words): only its sections are written again. A rename writes its row again.
func TestEditedPageKeepsItsSearchRow(t *testing.T) {
	ctx := context.Background()
	st := openTestStore(t)
	o := storetest.MustOwner(t, st, "keys@example.com")
	sp := o.MustSpace(t, st, "Docs")
	commit := func(changes ...store.PageChange) map[string]string {
		t.Helper()
		refs := mergeChanges(t, st, sp.ID, o.User.ID, changes...)
		st.catchUp.wait() // the index after the merge (searchbehind.go)
		return refs
	}
	str := func(s string) *string { return &s }
	page := commit(store.PageChange{Type: "insert_page", Ref: str("a"), Title: str("Alpha"), Markdown: str("One.\n\n## Two\n\nTwo.")},
		store.PageChange{Type: "insert_page", Ref: str("z"), Title: str("Zulu"), Markdown: str("Last.")})["a"]
	key := func() (k int64) {
		t.Helper()
		if err := st.writer.QueryRowContext(ctx, `SELECT id FROM search_pages WHERE page_id = ?`, page).Scan(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	first := key()
	commit(store.PageChange{Type: "update_page", Page: str(page), Markdown: str("Three.")})
	if k := key(); k != first {
		t.Fatalf("an edited body moved the page's search row from key %d to %d", first, k)
	}
	// A rename indexes the page's row again (its key may come back: keys follow the space's
	// highest): the new title is found, the old one is not.
	commit(store.PageChange{Type: "update_page", Page: str(page), Title: str("Beta")})
	for q, want := range map[string]int{"beta": 1, "alpha": 0} {
		l, err := st.SearchSpace(ctx, sp.ID, q, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != want {
			t.Fatalf("after a rename, search %q finds %d pages, want %d", q, len(l.Items), want)
		}
	}
}
