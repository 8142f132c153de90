package sqlstore

import (
	"context"
	"database/sql"
	"testing"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/storetest"
)

// A merge leaves the space's search index behind and answers; a search finds the index behind and
// brings it up to date before it reads, on any node. With the goroutine that would do it after the
// commit held off, two merges stay behind from the first one's revision; a search of the space
// (and of the organization, on a second node on PostgreSQL) then finds what both wrote, and
// nothing of the page the second deleted. With the goroutine, the index is current after the
// commit without any search.
func TestSearchCatchesUpWithMerges(t *testing.T) {
	t.Parallel()
	engines := map[string]func(t *testing.T) (a, b *Store){
		"SQLite": func(t *testing.T) (*Store, *Store) { st := openTestStore(t); return st, st },
		"PostgreSQL": func(t *testing.T) (*Store, *Store) {
			dsn := pgtest.Database(t, "this test")
			open := func() *Store {
				st, err := OpenPostgres(context.Background(), "pgx", dsn)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				return st
			}
			return open(), open()
		},
	}
	for name, open := range engines {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			a, b := open(t)
			o := storetest.MustOwner(t, a, "behind@example.com")
			sp := o.MustSpace(t, a, "Docs")
			str := func(s string) *string { return &s }
			merge := func(changes ...store.PageChange) map[string]string {
				t.Helper()
				return mergeChanges(t, a, sp.ID, o.User.ID, changes...)
			}
			behindFrom := func() (from sql.NullString) {
				t.Helper()
				if err := a.writer.QueryRowContext(ctx, `SELECT behind_from FROM search_spaces WHERE space_id = ?`, sp.ID).Scan(&from); err != nil {
					t.Fatal(err)
				}
				return from
			}
			indexed := func(word string) int {
				t.Helper()
				var n int
				if err := a.writer.QueryRowContext(ctx, `SELECT count(*) FROM search_sections WHERE body LIKE ?`, "%"+word+"%").Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			found := func(st *Store, q string) int {
				t.Helper()
				l, err := st.SearchSpace(ctx, sp.ID, q, store.Page{})
				if err != nil {
					t.Fatal(err)
				}
				return len(l.Items)
			}

			// With the goroutine: current after the commit.
			heron := merge(store.PageChange{Type: "insert_page", Ref: str("h"), Title: str("Birds"), Markdown: str("A heron waits.")})["h"]
			a.catchUp.wait()
			if from := behindFrom(); from.Valid || indexed("heron") != 1 {
				t.Fatalf("after the goroutine, behind from %v, %d sections hold heron", from, indexed("heron"))
			}

			// Both scopes searched on the other node: what it caches (none behind) must not outlive
			// the merges below.
			if found(b, "heron") != 1 {
				t.Fatal("heron not found")
			}
			if l, err := b.SearchOrganization(ctx, o.Org.ID, "heron", nil, store.Page{}); err != nil || len(l.Items) != 1 {
				t.Fatalf("organization search for heron: %v, %d spaces", err, len(l.Items))
			}

			// Without it: behind from the revision before the first of two merges.
			a.catchUp = nil
			before := mustSpace(t, a, sp.ID).RevisionID
			merge(store.PageChange{Type: "insert_page", Title: str("Cats"), Markdown: str("A lynx sleeps.")})
			merge(store.PageChange{Type: "insert_page", Title: str("Fish"), Markdown: str("A pike hides.")},
				store.PageChange{Type: "delete_page", Page: str(heron)})
			if from := behindFrom(); from.String != before {
				t.Fatalf("after two merges the index is behind from %v, want %s", from, before)
			}
			if indexed("lynx")+indexed("pike") != 0 || indexed("heron") != 1 {
				t.Fatal("the merges wrote the index: the test shows nothing")
			}
			// The other node's organization search first (on SQLite the same store).
			l, err := b.SearchOrganization(ctx, o.Org.ID, "lynx", nil, store.Page{})
			if err != nil || len(l.Items) != 1 {
				t.Fatalf("organization search for lynx: %v, %d spaces", err, len(l.Items))
			}
			if found(b, "pike") != 1 || found(a, "lynx") != 1 || found(a, "heron") != 0 {
				t.Fatalf("search after the merges: pike %d, lynx %d, heron %d; want 1, 1, 0", found(b, "pike"), found(a, "lynx"), found(a, "heron"))
			}
			if from := behindFrom(); from.Valid {
				t.Fatalf("after the searches the index is still behind from %s", from.String)
			}
			// And a space's search on its own.
			merge(store.PageChange{Type: "insert_page", Title: str("Owls"), Markdown: str("A barn owl hunts.")})
			if found(b, "owl") != 1 {
				t.Fatal("a search of the space after a merge does not find what it wrote")
			}
		})
	}
}

func mustSpace(t *testing.T, st *Store, id string) *store.Space {
	t.Helper()
	sp, err := st.FindSpace(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}
