package sqlstore

import (
	"context"
	"database/sql"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/storetest"
)

// PostgreSQL may plan a prepared search once for any words (a generic plan). That plan must
// find the matches through the GIN index, never walk the space's rows by primary key testing
// each: that read every row for a rare word (search_postgres.go).
func TestSearchGenericPlansUseTheIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, sp := postgresSpace(t, "plan@example.com")
	bigSearchIndex(t, st, sp.ID)
	conn, err := st.reader.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `VACUUM ANALYZE`); err != nil {
		t.Fatal(err)
	}
	// Parallel plans made as cheap as can be: the search must still not take one (its set_config).
	for _, set := range []string{`SET plan_cache_mode = force_generic_plan`, `SET parallel_setup_cost = 0`,
		`SET parallel_tuple_cost = 0`, `SET min_parallel_table_scan_size = 0`} {
		if _, err := conn.ExecContext(ctx, set); err != nil {
			t.Fatal(err)
		}
	}
	text, _ := st.d.pg(pgSearch, nil)
	if _, err := conn.ExecContext(ctx, `PREPARE search AS `+text); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(ctx, `EXPLAIN EXECUTE search('zephyrine', '`+sp.ID+`', 500, '')`)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	rows.Close()
	all := strings.Join(plan, "\n")
	// The primary keys only find again, one key at a time, the rows a ranked query ranks (f).
	walks := false
	for _, line := range plan {
		walks = walks || strings.Contains(line, "_pkey") && !strings.Contains(line, "_pkey on search_titles f") &&
			!strings.Contains(line, "_pkey on search_fts f")
	}
	if strings.Contains(all, "Gather") {
		t.Errorf("the search is planned in parallel:\n%s", all)
	}
	if !strings.Contains(all, "search_titles_tsv") || !strings.Contains(all, "search_fts_tsv") || walks {
		t.Errorf("the generic plan of the search does not go through the GIN indexes:\n%s", all)
	}
}

// bigSearchIndex writes an index of 20,000 pages of 150 words, each a section, into a space,
// straight into the tables (the store would take a minute): what the planner weighs is the
// tables' size. Titles are "Page n", the sections' words benchWords. It answers the space's
// search key (its pages' keys are key << 34 + n, n from 1).
func bigSearchIndex(t *testing.T, st *Store, spaceID string) int64 {
	t.Helper()
	mustExec(t, st, `INSERT INTO search_spaces (space_id) VALUES ($1) ON CONFLICT DO NOTHING`, spaceID)
	var key int64
	if err := st.reader.pool.QueryRowContext(context.Background(), `SELECT key FROM search_spaces WHERE space_id = $1`, spaceID).Scan(&key); err != nil {
		t.Fatal(err)
	}
	words := strings.Join(benchWords, " ")
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO search_pages (id, space_id, page_id, title, path, body_id)
			SELECT ($2::bigint << 34) + n, $1, 'p' || n, 'Page ' || n, 'page-' || n, 0 FROM generate_series(1, 20000) n`, []any{spaceID, key}},
		{`INSERT INTO search_titles (id, tsv, scope) SELECT id, to_tsvector('simple', title), 'o' FROM search_pages`, nil},
		{`INSERT INTO search_sections (id, page, anchor, title, body) SELECT id << 6, id, '', title, $1 FROM search_pages`,
			[]any{strings.Repeat(words+" ", 2)}},
		{`INSERT INTO search_fts (id, tsv, scope) SELECT id, setweight(to_tsvector('simple', title), 'A') ||
			setweight(to_tsvector('simple', body), 'B'), 'o' FROM search_sections`, nil},
	} {
		mustExec(t, st, q.sql, q.args...)
	}
	return key
}

// A word in every section is too common to rank: its candidates are the first matches in the
// table's order (searchCandidates). They must be the same each time, whatever other scans of the
// table did: PostgreSQL's synchronized scans started each search where the last scan of the table
// had reached, so the same query answered other pages each time (sessionSettings).
func TestCommonSearchesAnswerTheSamePages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.Database(t, "this test")
	st, err := OpenPostgres(ctx, "pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sp := storetest.MustOwner(t, st, "common@example.com").MustSpace(t, st, "Docs")
	key := bigSearchIndex(t, st, sp.ID)
	mustExec(t, st, `ANALYZE search_fts, search_titles`) // without statistics the GIN index is taken, in the table's order
	// Another client, with PostgreSQL's defaults, scans part of the table.
	other, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var synced bool
	if err := other.QueryRowContext(ctx, `SELECT pg_relation_size('search_fts') / current_setting('block_size')::int >
		(SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers') / 4`).Scan(&synced); err != nil {
		t.Fatal(err)
	}
	if !synced {
		t.Fatal("search_fts is within a quarter of shared_buffers: its scans are not synchronized and the test shows nothing")
	}
	var want []int64
	for n := range int64(searchCandidates) {
		want = append(want, key<<34+n+1)
	}
	for i := range 3 {
		found, err := st.searchCandidates(ctx, searchScope{space: sp.ID, hi: math.MaxInt64}, "install")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(found.keys, want) {
			t.Fatalf("search %d: candidates %d..%d (%d), want the first %d pages", i+1, found.keys[0]-key<<34,
				found.keys[len(found.keys)-1]-key<<34, len(found.keys), searchCandidates)
		}
		var n int
		if err := other.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT id FROM search_fts WHERE id + 0 > 0 LIMIT 7000) x`).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
}

// postgresSpace opens a store on a fresh PostgreSQL database (closed when the test ends) with one
// user's space in it.
func postgresSpace(t *testing.T, email string) (*Store, *store.Space) {
	t.Helper()
	st, err := OpenPostgres(context.Background(), "pgx", pgtest.Database(t, "this test"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	o := storetest.MustOwner(t, st, email)
	return st, o.MustSpace(t, st, "Docs")
}

// mustExec runs a statement straight on the store's writer pool, past the store.
func mustExec(t *testing.T, st *Store, query string, args ...any) {
	t.Helper()
	if _, err := st.writer.pool.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatal(err)
	}
}
