package sqlstore

import (
	"context"
	"testing"
)

// On PostgreSQL the search tables carry no foreign keys (a check per inserted row), yet their rows
// still go with what they index: statement triggers delete a section's words, a search page's
// sections and title, a space's search pages (0064).
func TestSearchRowsCascadeByStatement(t *testing.T) {
	st, sp := postgresSpace(t, "cascade@example.com")
	ctx := context.Background()
	var keys int
	if err := st.writer.pool.QueryRowContext(ctx, `SELECT count(*) FROM pg_constraint WHERE contype = 'f'
		AND conrelid IN ('search_pages'::regclass, 'search_sections'::regclass, 'search_fts'::regclass, 'search_titles'::regclass)`).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if keys != 0 {
		t.Errorf("the search tables have %d foreign keys; each costs an internal query per inserted row", keys)
	}

	// Two pages of two sections each, indexed by hand.
	for page := int64(1); page <= 2; page++ {
		mustExec(t, st, `INSERT INTO search_pages (id, space_id, page_id, title, path, body_id) VALUES ($1, $2, $3, 'T', 'p', 1)`,
			page<<6, sp.ID, "page"+string(rune('0'+page)))
		mustExec(t, st, `INSERT INTO search_titles (id, scope, tsv) VALUES ($1, 'o', to_tsvector('simple', 'T'))`, page<<6)
		for sec := int64(0); sec < 2; sec++ {
			id := page<<12 | sec
			mustExec(t, st, `INSERT INTO search_sections (id, page, anchor, title, body) VALUES ($1, $2, '', 'T', 'words')`, id, page<<6)
			mustExec(t, st, `INSERT INTO search_fts (id, scope, tsv) VALUES ($1, 'o', to_tsvector('simple', 'words'))`, id)
		}
	}
	count := func(table string) int {
		t.Helper()
		var n int
		if err := st.writer.pool.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	want := func(step string, pages, titles, sections, fts int) {
		t.Helper()
		got := [4]int{count("search_pages"), count("search_titles"), count("search_sections"), count("search_fts")}
		if got != [4]int{pages, titles, sections, fts} {
			t.Fatalf("%s: pages, titles, sections, words %v; want %v", step, got, [4]int{pages, titles, sections, fts})
		}
	}
	want("indexed", 2, 2, 4, 4)
	mustExec(t, st, `DELETE FROM search_sections WHERE id = $1`, int64(1<<12))
	want("a section deleted", 2, 2, 3, 3)
	mustExec(t, st, `DELETE FROM search_pages WHERE id = $1`, int64(1<<6))
	want("a page deleted", 1, 1, 2, 2)
	mustExec(t, st, `DELETE FROM spaces WHERE id = $1`, sp.ID)
	want("the space deleted", 0, 0, 0, 0)
}
