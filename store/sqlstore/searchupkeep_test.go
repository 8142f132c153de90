package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/quire-docs/quire/store"
)

// Search rows committed on PostgreSQL leave the GIN indexes' pending lists empty once the upkeep
// after the commit has run, and the tables analyzed; without it, 2,000 sections stay pending and
// the table has no statistics.
func TestSearchUpkeepEmptiesThePendingLists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, sp := postgresSpace(t, "upkeep@example.com")
	if _, err := st.writer.ExecContext(ctx, `CREATE EXTENSION IF NOT EXISTS pgstattuple`); err != nil {
		t.Skipf("pgstattuple, which reads a GIN index's pending list, is not available: %v", err)
	}
	words := strings.Join(benchWords, " ")
	// 4,000 pages and their sections, written straight into the tables; their full-text rows
	// are what the test writes through the store.
	mustExec(t, st, `INSERT INTO search_pages (id, space_id, page_id, title, path, body_id)
		SELECT (1::bigint << 34) + n, $1, 'p' || n, 'Page ' || n, 'page-' || n, 0 FROM generate_series(0, 3999) n`, sp.ID)
	mustExec(t, st, `INSERT INTO search_sections (id, page, anchor, title, body) SELECT id << 6, id, '', title, '' FROM search_pages`)
	write := func(from int) {
		t.Helper()
		if err := st.write(ctx, func(tx *Tx) error {
			fts := sectionFTSRows()
			for i := from; i < from+2000; i++ {
				fts.add(((int64(1)<<34)+int64(i))<<6, "Page", words, "o")
			}
			return fts.write(ctx, tx)
		}); err != nil {
			t.Fatal(err)
		}
	}
	pending := func() int {
		var n int
		if err := st.reader.QueryRowContext(ctx, `SELECT pending_tuples FROM pgstatginindex('search_fts_tsv')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	analyzed := func() bool {
		var rows float64
		if err := st.reader.QueryRowContext(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'search_fts'::regclass`).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		return rows > 0
	}

	up := st.upkeep
	st.upkeep = nil // first without it: what the upkeep is for
	write(0)
	if n := pending(); n == 0 {
		t.Fatal("2,000 rows committed without upkeep left nothing pending: the test shows nothing")
	}
	if analyzed() {
		t.Fatal("the table has statistics already: the test shows nothing")
	}
	st.upkeep = up
	write(2000)
	st.upkeep.wait()
	if n := pending(); n != 0 {
		t.Errorf("after the upkeep, %d rows are still pending in the GIN index", n)
	}
	if !analyzed() {
		t.Error("after 4,000 rows inserted, the upkeep did not analyze the table")
	}
}

// Writes committed while an upkeep runs gather into one more run, never a run per write, and
// the counts of rows decide the ANALYZE of each table.
func TestSearchUpkeepGathersWrites(t *testing.T) {
	type run struct {
		clean   bool
		analyze string
	}
	var mu sync.Mutex
	var runs []run
	release, started := make(chan struct{}), make(chan struct{})
	u := &searchUpkeep{}
	u.run = func(ctx context.Context, clean bool, analyze []string) map[string]int {
		mu.Lock()
		runs = append(runs, run{clean, strings.Join(analyze, " ")})
		first := len(runs) == 1
		mu.Unlock()
		if first {
			close(started)
			<-release
		}
		return nil
	}
	u.note(map[string]int{"page_versions": 10}) // starts a run, which waits
	<-started
	for range 50 { // gathered
		u.note(map[string]int{"search_fts": 100, "page_versions": 10})
	}
	close(release)
	u.wait()
	want := []run{{false, ""}, {true, "search_fts"}}
	if !slices.Equal(runs, want) {
		t.Fatalf("runs %v, want %v: one run for the first write, one for the 50 gathered after it, analyzing the table that got 5,000 rows (not the one that got 510)", runs, want)
	}
}

// A change request of 1,200 pages, each with a link, merged on PostgreSQL: once the upkeep after
// the commits has run, every table the writes grew by thousands of rows has statistics. Without
// them the planner guesses: it hashed all the links of the database to copy ten pages' links.
func TestUpkeepAnalyzesWhatWritesGrow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, sp := postgresSpace(t, "grow@example.com")
	// The tables rowSets write (grep 'rowSet{table:') but page_bodies and search_sections, which
	// are read by key only.
	tables := []string{"page_links", "page_versions", "search_fts", "search_pages", "search_titles"}
	for _, table := range tables { // what autovacuum would analyze on its own is not the upkeep's
		mustExec(t, st, `ALTER TABLE `+table+` SET (autovacuum_enabled = false)`)
	}
	var u string
	if err := st.reader.QueryRowContext(ctx, `SELECT created_by FROM spaces WHERE id = ?`, sp.ID).Scan(&u); err != nil {
		t.Fatal(err)
	}
	cr, err := st.CreateChangeRequest(ctx, sp.ID, u, "grow")
	if err != nil {
		t.Fatal(err)
	}
	for b := 0; b < 24; b++ {
		var batch []store.PageChange
		for i := b * 50; i < (b+1)*50; i++ {
			title := fmt.Sprintf("Page %d", i)
			md := fmt.Sprintf("# Page %d\n\nSee [the site](https://example.com/%d).\n", i, i)
			batch = append(batch, store.PageChange{Type: "insert_page", Title: &title, Markdown: &md})
		}
		if _, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, u, batch); err != nil {
			t.Fatal(err)
		}
	}
	if _, conflicts, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, u); err != nil || conflicts {
		t.Fatalf("merge: %v %v", err, conflicts)
	}
	st.catchUp.wait() // the index after the merge (searchbehind.go), then the upkeep after it
	st.upkeep.wait()
	for _, table := range tables {
		var n int
		if err := st.reader.QueryRowContext(ctx, `SELECT count(*) FROM pg_stats WHERE schemaname = current_schema() AND tablename = ?`, table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("%s has no statistics after 1,200 pages were written and merged", table)
		}
	}
}
