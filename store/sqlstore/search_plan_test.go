package sqlstore

import (
	"context"
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
	// An index of 20,000 pages of 150 words, written straight into the tables (the store would
	// take a minute): what the planner weighs is the tables' size.
	words := strings.Join(benchWords, " ")
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO search_pages (id, space_id, page_id, title, path, body_id)
			SELECT (1::bigint << 34) + n, $1, 'p' || n, 'Page ' || n, 'page-' || n, 0 FROM generate_series(1, 20000) n`, []any{sp.ID}},
		{`INSERT INTO search_titles (id, tsv, scope) SELECT id, to_tsvector('simple', title), 'o' FROM search_pages`, nil},
		{`INSERT INTO search_sections (id, page, anchor, title, body) SELECT id << 6, id, '', title, $1 FROM search_pages`,
			[]any{strings.Repeat(words+" ", 2)}},
		{`INSERT INTO search_fts (id, tsv, scope) SELECT id, setweight(to_tsvector('simple', title), 'A') ||
			setweight(to_tsvector('simple', body), 'B'), 'o' FROM search_sections`, nil},
	} {
		mustExec(t, st, q.sql, q.args...)
	}
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
