package sqlite

import (
	"context"
	"database/sql"
	"testing"

	"github.com/quire-docs/quire/store/storetest"
)

// quire search-index check finds an FTS5 index damaged behind the store's back (its shadow table
// of segments emptied), and a rebuild mends it.
func TestSearchIndexRepair(t *testing.T) {
	path := t.TempDir() + "/quire.db"
	st, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	storetest.SearchIndexRepair(t, st, func(t *testing.T, _ string) {
		db, err := sql.Open("sqlite3", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`DELETE FROM search_fts_data WHERE id > 10`); err != nil {
			t.Fatal(err)
		}
	})
}
