package sqlstore

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// An edit of a page's body keeps the page's row in the search index (its key, and its title's
// words): only its sections are written again. A rename gives it a new row.
func TestEditedPageKeepsItsSearchRow(t *testing.T) {
	ctx := context.Background()
	st := openTestStore(t)
	o := storetest.MustOwner(t, st, "keys@example.com")
	sp := o.MustSpace(t, st, "Docs")
	commit := func(changes ...store.PageChange) map[string]string {
		t.Helper()
		cr, err := st.CreateChangeRequest(ctx, sp.ID, o.User.ID, "edit")
		if err != nil {
			t.Fatal(err)
		}
		res, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, o.User.ID, changes)
		if err != nil {
			t.Fatal(err)
		}
		if _, conflicts, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, o.User.ID); err != nil || conflicts {
			t.Fatalf("merge: %v (conflicts %v)", err, conflicts)
		}
		return res.Refs
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
	commit(store.PageChange{Type: "update_page", Page: str(page), Title: str("Beta")})
	if k := key(); k == first {
		t.Fatal("a renamed page kept its search row: its title's words would be stale")
	}
}
