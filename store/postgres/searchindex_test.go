package postgres

import (
	"context"
	"database/sql"
	"testing"

	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/storetest"
)

// quire search-index check finds the rows of a space whose searchable text is not its pages' text
// folded (what the shared transform.Chain of issue 24 could write under load), names the space,
// and a rebuild mends them.
func TestSearchIndexRepair(t *testing.T) {
	dsn := pgtest.Database(t, "the search index repair")
	st, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	storetest.SearchIndexRepair(t, st, func(t *testing.T, spaceID string) {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// Garbled words as the race wrote them: a title and a section of the space's one page.
		for _, q := range []string{
			`UPDATE search_titles SET tsv = to_tsvector('simple', 'uber die bruc') WHERE id IN (SELECT id FROM search_pages WHERE space_id = $1)`,
			`UPDATE search_fts SET tsv = to_tsvector('simple', 'zuru ck') WHERE id IN
				(SELECT s.id FROM search_sections s JOIN search_pages p ON p.id = s.page WHERE p.space_id = $1 AND s.id & 63 = 1)`,
		} {
			if res, err := db.Exec(q, spaceID); err != nil {
				t.Fatal(err)
			} else if n, _ := res.RowsAffected(); n != 1 {
				t.Fatalf("%d rows damaged, want 1: %s", n, q)
			}
		}
	})
}
