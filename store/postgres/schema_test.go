package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/sqlite"
)

// The two engines' schemas, each made by its own migrations, agree (issue 26): the same tables,
// each with the same columns (same kind of value, same NOT NULL) and the same indexes on the same
// columns. Where they differ by design the difference is listed in schemaDifferences, with why.
func TestSchemasAgree(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Database(t, "the schema comparison")
	pgStore, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	pgStore.Close()
	path := t.TempDir() + "/quire.db"
	liteStore, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	liteStore.Close()

	lite, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	pg, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()

	a, b := sqliteSchema(t, lite), postgresSchema(t, pg)
	var diffs []string
	for _, name := range union(keys(a), keys(b)) {
		ta, tb := a[name], b[name]
		switch {
		case ta == nil:
			diffs = append(diffs, "table "+name+": only on PostgreSQL")
			continue
		case tb == nil:
			diffs = append(diffs, "table "+name+": only on SQLite")
			continue
		}
		diffs = append(diffs, compareShapes("column "+name+".%s", ta.columns, tb.columns)...)
		diffs = append(diffs, compareShapes("index %s on "+name, ta.indexes, tb.indexes)...)
	}
	known := map[string]bool{}
	for _, d := range schemaDifferences {
		known[d.diff] = true
	}
	for _, d := range diffs {
		if !known[d] {
			t.Errorf("the schemas differ: %s", d)
		}
		delete(known, d)
	}
	for d := range known {
		t.Errorf("schemaDifferences lists a difference that is gone: %s", d)
	}
	t.Logf("%d tables compared, %d known differences", len(a), len(schemaDifferences))
}

// compareShapes words the differences between two engines' columns or indexes of one table,
// each named by what (a format with the column or index name).
func compareShapes(what string, a, b map[string]string) []string {
	var diffs []string
	for _, name := range union(keys(a), keys(b)) {
		va, oka := a[name]
		vb, okb := b[name]
		subject := fmt.Sprintf(what, name)
		switch {
		case !oka:
			diffs = append(diffs, subject+": only on PostgreSQL")
		case !okb:
			diffs = append(diffs, subject+": only on SQLite")
		case va != vb:
			diffs = append(diffs, fmt.Sprintf("%s: %s on SQLite, %s on PostgreSQL", subject, va, vb))
		}
	}
	return diffs
}

// schemaDifferences are the differences the engines have by design.
var schemaDifferences = []struct{ diff, why string }{
	{"column search_fts.body: only on SQLite", "FTS5 is a virtual table of (title, body, scope) on SQLite; PostgreSQL keeps a tsvector per section by id, GIN-indexed"},
	{"column search_fts.id: only on PostgreSQL", "FTS5 is a virtual table of (title, body, scope) on SQLite; PostgreSQL keeps a tsvector per section by id, GIN-indexed"},
	{"column search_fts.scope: any on SQLite, text not null on PostgreSQL", "FTS5 columns have no declared type"},
	{"column search_fts.title: only on SQLite", "FTS5 is a virtual table of (title, body, scope) on SQLite; PostgreSQL keeps a tsvector per section by id, GIN-indexed"},
	{"column search_fts.tsv: only on PostgreSQL", "FTS5 is a virtual table of (title, body, scope) on SQLite; PostgreSQL keeps a tsvector per section by id, GIN-indexed"},
	{"index search_fts_tsv on search_fts: only on PostgreSQL", "FTS5 indexes itself"},
	{"column search_titles.id: only on PostgreSQL", "FTS5 is a virtual table of (title, scope) on SQLite; PostgreSQL keeps a tsvector per page by id, GIN-indexed"},
	{"column search_titles.scope: any on SQLite, text not null on PostgreSQL", "FTS5 columns have no declared type"},
	{"column search_titles.title: only on SQLite", "FTS5 is a virtual table of (title, scope) on SQLite; PostgreSQL keeps a tsvector per page by id, GIN-indexed"},
	{"column search_titles.tsv: only on PostgreSQL", "FTS5 is a virtual table of (title, scope) on SQLite; PostgreSQL keeps a tsvector per page by id, GIN-indexed"},
	{"index search_titles_tsv on search_titles: only on PostgreSQL", "FTS5 indexes itself"},
	{"index users_email on users: only on PostgreSQL", "emails are unique whatever their case: SQLite says it in the column (UNIQUE COLLATE NOCASE, a constraint's index), PostgreSQL with a unique index on lower(email)"},
}

// tableShape is a table as the comparison sees it: each column's kind of value and nullability,
// and each index's columns (an expression reads "expr").
type tableShape struct {
	columns map[string]string
	indexes map[string]string
}

func sqliteSchema(t *testing.T, db *sql.DB) map[string]*tableShape {
	t.Helper()
	out := map[string]*tableShape{}
	var virtual []string
	rows := query(t, db, `SELECT name, coalesce(sql, '') FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	for _, r := range rows {
		name, ddl := r[0], r[1]
		if strings.HasPrefix(strings.ToUpper(ddl), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, name)
		}
		out[name] = &tableShape{columns: map[string]string{}, indexes: map[string]string{}}
	}
	for name, ts := range out {
		for _, v := range virtual { // FTS5's shadow tables belong to their virtual table
			if name != v && strings.HasPrefix(name, v+"_") {
				delete(out, name)
			}
		}
		for _, c := range query(t, db, `SELECT name, type, "notnull", pk FROM pragma_table_info(?)`, name) {
			ts.columns[c[0]] = kindOf(c[1]) + nullability(c[2] == "1" || c[3] != "0" && c[1] != "")
		}
		for _, ix := range query(t, db, `SELECT name FROM pragma_index_list(?) WHERE origin = 'c'`, name) {
			var cols []string
			for _, c := range query(t, db, `SELECT coalesce(name, 'expr') FROM pragma_index_info(?) ORDER BY seqno`, ix[0]) {
				cols = append(cols, c[0])
			}
			ts.indexes[ix[0]] = strings.Join(cols, ", ")
		}
	}
	return out
}

func postgresSchema(t *testing.T, db *sql.DB) map[string]*tableShape {
	t.Helper()
	out := map[string]*tableShape{}
	for _, r := range query(t, db, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`) {
		out[r[0]] = &tableShape{columns: map[string]string{}, indexes: map[string]string{}}
	}
	for _, c := range query(t, db, `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`) {
		if ts := out[c[0]]; ts != nil {
			ts.columns[c[1]] = kindOf(c[2]) + nullability(c[3] == "NO")
		}
	}
	// Indexes made by CREATE INDEX: not those behind a primary key or a UNIQUE constraint.
	for _, ix := range query(t, db, `SELECT t.relname, i.relname,
			(SELECT string_agg(coalesce(a.attname, 'expr'), ', ' ORDER BY k.n)
			 FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
			 LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0)
		FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
		JOIN pg_namespace ns ON ns.oid = t.relnamespace
		WHERE ns.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`) {
		if ts := out[ix[0]]; ts != nil {
			ts.indexes[ix[1]] = ix[2]
		}
	}
	return out
}

// kindOf is the kind of value a column's declared type holds, the same word on both engines.
func kindOf(declared string) string {
	d := strings.ToLower(declared)
	switch {
	case d == "":
		return "any"
	case strings.Contains(d, "int"):
		return "integer"
	case strings.Contains(d, "bool"):
		return "integer" // SQLite keeps booleans as 0 and 1
	case strings.Contains(d, "char"), strings.Contains(d, "text"), strings.Contains(d, "clob"), strings.Contains(d, "json"):
		return "text"
	case strings.Contains(d, "real"), strings.Contains(d, "floa"), strings.Contains(d, "doub"), strings.Contains(d, "numeric"):
		return "real"
	case strings.Contains(d, "blob"), strings.Contains(d, "bytea"):
		return "blob"
	}
	return d
}

func nullability(notNull bool) string {
	if notNull {
		return " not null"
	}
	return ""
}

func query(t *testing.T, db *sql.DB, q string, args ...any) [][]string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = v.String
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
