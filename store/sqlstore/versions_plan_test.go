package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// planRecorder is a querier on one PostgreSQL connection that, before it runs a read, records
// the generic plan PostgreSQL makes of it: the plan a prepared statement keeps once a
// connection has run it five times and found it no dearer than its custom plans.
type planRecorder struct {
	t     *testing.T
	d     *dialect
	conn  *sql.Conn
	name  string
	n     int
	plans []string
}

func (r *planRecorder) engine() *dialect { return r.d }

func (r *planRecorder) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	text, pargs := r.d.pg(query, args)
	r.n++
	name := fmt.Sprintf("%s%d", r.name, r.n)
	if _, err := r.conn.ExecContext(ctx, `PREPARE `+name+` AS `+text); err != nil {
		r.t.Fatalf("PREPARE %s: %v", text, err)
	}
	lits := make([]string, len(pargs))
	for i, a := range pargs {
		lits[i] = sqlLiteral(r.t, a)
	}
	rows, err := r.conn.QueryContext(ctx, `EXPLAIN EXECUTE `+name+`(`+strings.Join(lits, ", ")+`)`)
	if err != nil {
		r.t.Fatalf("EXPLAIN %s: %v", text, err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			r.t.Fatal(err)
		}
		plan = append(plan, line)
	}
	rows.Close()
	r.plans = append(r.plans, strings.Join(plan, "\n"))
	return r.conn.QueryContext(ctx, text, pargs...)
}

func (r *planRecorder) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	r.t.Fatalf("unexpected QueryRowContext: %s", query)
	return nil
}

// sqlLiteral writes a statement's argument as a literal of EXECUTE's argument list.
func sqlLiteral(t *testing.T, a any) string {
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	switch v := a.(type) {
	case int64:
		return fmt.Sprint(v)
	case string:
		return quote(v)
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = quote(s)
		}
		return "ARRAY[" + strings.Join(q, ", ") + "]::text[]"
	}
	t.Fatalf("no literal for %T", a)
	return ""
}

// The reads of a view that name their pages by id or path go through the index of that key in
// PostgreSQL's generic plans too. The tables hold what made the plan go wrong in a space that had
// lived through 700 change requests: main's line of 20,000 pages among 700 lines of 10 pages, so
// that the planner, which plans a generic line_id as the average line, found main's 20,000
// current versions as few as one page's: a read of one page then walked them all.
func TestKeyedPageReadsProbeTheirKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := postgresSpace(t, "keyed@example.com")
	open := fmt.Sprint(openSeq)
	for _, q := range []string{
		`INSERT INTO page_bodies (id, markdown) VALUES (1, 'Text')`,
		`INSERT INTO lines (id, space_id, head) SELECT n, 's', 700 FROM generate_series(1001, 1701) n`,
		`INSERT INTO page_versions (line_id, page_id, valid_from, valid_to, position, title, slug, path, body_id, created_at, updated_at)
			SELECT 1001, 'p' || n, 1, ` + open + `, n, 'Page ' || n, 'page-' || n, 'page-' || n, 1, '', ''
			FROM generate_series(0, 19999) n WHERE n <> 7`,
		// p7 was edited 15 times on main.
		`INSERT INTO page_versions (line_id, page_id, valid_from, valid_to, position, title, slug, path, body_id, created_at, updated_at)
			SELECT 1001, 'p7', k * 40, CASE WHEN k = 15 THEN ` + open + ` ELSE (k + 1) * 40 END, 7, 'Page 7', 'page-7', 'page-7', 1, '', ''
			FROM generate_series(1, 15) k`,
		`INSERT INTO page_versions (line_id, page_id, valid_from, valid_to, position, title, slug, path, body_id, created_at, updated_at)
			SELECT l, 'q' || l || '-' || k, 1, ` + open + `, k, 'Q', 'q', 'q-' || l || '-' || k, 1, '', ''
			FROM generate_series(1002, 1701) l, generate_series(1, 10) k`,
		`ANALYZE page_versions`,
	} {
		mustExec(t, st, q)
	}
	conn, err := st.reader.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	for _, snapshot := range []bool{false, true} {
		rec := &planRecorder{t: t, d: st.d, conn: conn, name: fmt.Sprintf("keyed_%v_", snapshot)}
		el := lineRef{line: 1001, upto: 650, head: 700}
		if snapshot {
			el.upto = el.head
		}
		v := &view{ctx: ctx, q: rec, c: chain{el}, snapshot: snapshot}
		pages, err := v.Pages([]string{"p7", "p8"}, false)
		if err != nil || len(pages) != 2 {
			t.Fatalf("Pages: %v, %d pages", err, len(pages))
		}
		if p, err := v.ByPath("page-7", false); err != nil || p == nil {
			t.Fatalf("ByPath: %v, %v", err, p)
		}
		if m, err := v.ByPaths([]string{"page-7", "page-9"}); err != nil || len(m) != 2 {
			t.Fatalf("ByPaths: %v, %v", err, m)
		}
		for i, plan := range rec.plans {
			if strings.Contains(plan, "page_versions_valid") || !strings.Contains(plan, "page_versions_page") && !strings.Contains(plan, "page_versions_path") {
				t.Errorf("snapshot %v: read %d's generic plan does not go through its key's index:\n%s", snapshot, i, plan)
			}
		}
	}
}
