package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/sqlite"
)

// The two engines' schemas, each made by the one history expanded for it, agree (issue 26): the
// same tables, each with the same columns (same kind of value, same NOT NULL, same default, an
// identity on both or neither), the same primary key, UNIQUE constraints and foreign keys (same
// columns, same table, same ON DELETE), and the same indexes (same columns in the same order, both
// unique or neither, the same WHERE). Where they differ by design the difference is listed in
// schemaDifferences, with why.
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
		diffs = append(diffs, compareShapes("%s on "+name, ta.keys, tb.keys)...)
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
	{"unique (email) on users: only on SQLite", "emails are unique whatever their case: SQLite says it in the column (UNIQUE COLLATE NOCASE, a constraint's index), PostgreSQL with a unique index on lower(email)"},
	{"primary key (id) on search_fts: only on PostgreSQL", "FTS5 rows are keyed by their rowid; PostgreSQL keys a section's tsvector by the section's id"},
	{"primary key (id) on search_titles: only on PostgreSQL", "FTS5 rows are keyed by their rowid; PostgreSQL keys a page's tsvector by the page's id"},
	{"foreign key (space_id) references spaces (id) on delete cascade on search_pages: only on SQLite", "PostgreSQL cascades the search tables by statement triggers (0064): a foreign key there is an internal query per inserted row"},
	{"foreign key (page) references search_pages (id) on delete cascade on search_sections: only on SQLite", "PostgreSQL cascades the search tables by statement triggers (0064): a foreign key there is an internal query per inserted row"},
	{"table quire_node_leases: only on PostgreSQL", "the nodes' leases on the cluster's write count (store/sqlstore/lease.go); SQLite has one process"},
	{"column search_pages.id: integer not null default identity on SQLite, integer not null on PostgreSQL", "the store always sets these packed keys (space key << 34 | page key); on SQLite an INTEGER PRIMARY KEY is the rowid all the same"},
	{"column search_sections.id: integer not null default identity on SQLite, integer not null on PostgreSQL", "the store always sets these packed keys (page << 6 | section index); on SQLite an INTEGER PRIMARY KEY is the rowid all the same"},
}

// tableShape is a table as the comparison sees it: each column's kind of value, nullability,
// default and identity; its keys (primary key, UNIQUE constraints, foreign keys), each named by
// what it says; and each index's uniqueness, columns (an expression reads "expr") and WHERE.
type tableShape struct {
	columns map[string]string
	keys    map[string]string
	indexes map[string]string
}

func newShape() *tableShape {
	return &tableShape{columns: map[string]string{}, keys: map[string]string{}, indexes: map[string]string{}}
}

func sqliteSchema(t *testing.T, db *sql.DB) map[string]*tableShape {
	t.Helper()
	out := map[string]*tableShape{}
	var virtual []string
	rows := query(t, db, `SELECT name, coalesce(sql, '') FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	withoutRowid := map[string]bool{}
	for _, r := range rows {
		name, ddl := r[0], r[1]
		if strings.HasPrefix(strings.ToUpper(ddl), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, name)
		}
		withoutRowid[name] = strings.HasSuffix(strings.ToUpper(strings.TrimSpace(ddl)), "WITHOUT ROWID")
		out[name] = newShape()
	}
	for name := range out {
		for _, v := range virtual { // FTS5's shadow tables belong to their virtual table
			if name != v && strings.HasPrefix(name, v+"_") {
				delete(out, name)
			}
		}
	}
	for name, ts := range out {
		cols := query(t, db, `SELECT name, type, "notnull", pk, coalesce(dflt_value, '') FROM pragma_table_info(?) ORDER BY cid`, name)
		pk := map[string]string{}
		for _, c := range cols {
			if c[3] != "0" {
				pk[c[3]] = c[0]
			}
		}
		for _, c := range cols {
			def := c[4]
			// An INTEGER PRIMARY KEY is the rowid: SQLite numbers the rows an insert leaves it to.
			if len(pk) == 1 && c[3] == "1" && strings.EqualFold(c[1], "integer") && !withoutRowid[name] {
				def = "identity"
			}
			ts.columns[c[0]] = kindOf(c[1]) + nullability(c[2] == "1" || c[3] != "0" && c[1] != "") + defaultOf(def)
		}
		if len(pk) > 0 {
			var key []string
			for i := 1; i <= len(pk); i++ {
				key = append(key, pk[strconv.Itoa(i)])
			}
			ts.keys["primary key ("+strings.Join(key, ", ")+")"] = ""
		}
		fks := map[string][3][]string{}
		for _, f := range query(t, db, `SELECT id, "table", "from", coalesce("to", ''), on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name) {
			k := fks[f[0]]
			k[0] = []string{f[1], f[4]}
			k[1] = append(k[1], f[2])
			k[2] = append(k[2], f[3])
			fks[f[0]] = k
		}
		for _, k := range fks {
			ts.keys[foreignKey(k[1], k[0][0], k[2], k[0][1])] = ""
		}
		for _, ix := range query(t, db, `SELECT l.name, l."unique", l.origin, coalesce(m.sql, '') FROM pragma_index_list(?) l
				LEFT JOIN sqlite_master m ON m.type = 'index' AND m.name = l.name`, name) {
			var cols []string
			for _, c := range query(t, db, `SELECT coalesce(name, 'expr') FROM pragma_index_info(?) ORDER BY seqno`, ix[0]) {
				cols = append(cols, c[0])
			}
			switch ix[2] {
			case "u":
				ts.keys["unique ("+strings.Join(cols, ", ")+")"] = ""
			case "c":
				where := ""
				if _, w, ok := strings.Cut(ix[3], " WHERE "); ok {
					where = w
				}
				ts.indexes[ix[0]] = indexShape(ix[1] == "1", cols, where)
			}
		}
	}
	return out
}

func postgresSchema(t *testing.T, db *sql.DB) map[string]*tableShape {
	t.Helper()
	out := map[string]*tableShape{}
	for _, r := range query(t, db, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`) {
		out[r[0]] = newShape()
	}
	for _, c := range query(t, db, `SELECT table_name, column_name, data_type, is_nullable,
			CASE WHEN is_identity = 'YES' THEN 'identity' ELSE coalesce(column_default, '') END
		FROM information_schema.columns WHERE table_schema = 'public'`) {
		if ts := out[c[0]]; ts != nil {
			ts.columns[c[1]] = kindOf(c[2]) + nullability(c[3] == "NO") + defaultOf(c[4])
		}
	}
	// Keys: each constraint's columns, in the constraint's order.
	cols := `(SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(%s) WITH ORDINALITY AS k(attnum, n)
		JOIN pg_attribute a ON a.attrelid = %s AND a.attnum = k.attnum)`
	for _, c := range query(t, db, `SELECT t.relname, c.contype::text, `+fmt.Sprintf(cols, "c.conkey", "c.conrelid")+`,
			coalesce(f.relname, ''), coalesce(`+fmt.Sprintf(cols, "c.confkey", "c.confrelid")+`, ''), c.confdeltype::text
		FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
		JOIN pg_namespace ns ON ns.oid = t.relnamespace LEFT JOIN pg_class f ON f.oid = c.confrelid
		WHERE ns.nspname = 'public' AND c.contype IN ('p', 'u', 'f')`) {
		ts := out[c[0]]
		if ts == nil {
			continue
		}
		switch c[1] {
		case "p":
			ts.keys["primary key ("+c[2]+")"] = ""
		case "u":
			ts.keys["unique ("+c[2]+")"] = ""
		case "f":
			actions := map[string]string{"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}
			ts.keys[foreignKey(strings.Split(c[2], ", "), c[3], strings.Split(c[4], ", "), actions[c[5]])] = ""
		}
	}
	// Indexes made by CREATE INDEX: not those behind a primary key or a UNIQUE constraint.
	for _, ix := range query(t, db, `SELECT t.relname, i.relname, x.indisunique::text,
			(SELECT string_agg(coalesce(a.attname, 'expr'), ', ' ORDER BY k.n)
			 FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
			 LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0),
			coalesce(pg_get_expr(x.indpred, x.indrelid), '')
		FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
		JOIN pg_namespace ns ON ns.oid = t.relnamespace
		WHERE ns.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`) {
		if ts := out[ix[0]]; ts != nil {
			ts.indexes[ix[1]] = indexShape(ix[2] == "true", strings.Split(ix[3], ", "), ix[4])
		}
	}
	return out
}

// foreignKey words a foreign key the same way on both engines.
func foreignKey(from []string, table string, to []string, onDelete string) string {
	return fmt.Sprintf("foreign key (%s) references %s (%s) on delete %s", strings.Join(from, ", "), table, strings.Join(to, ", "), strings.ToLower(onDelete))
}

// indexShape words an index the same way on both engines: unique or not, its columns, and its
// WHERE without parentheses, spacing or case.
func indexShape(unique bool, cols []string, where string) string {
	s := strings.Join(cols, ", ")
	if unique {
		s = "unique " + s
	}
	if where = strings.NewReplacer("(", "", ")", "").Replace(where); strings.TrimSpace(where) != "" {
		s += " where " + strings.ToLower(strings.Join(strings.Fields(where), " "))
	}
	return s
}

// castSuffix is PostgreSQL's cast of a default to its column's type ('x'::text).
var castSuffix = regexp.MustCompile(`::[a-z][a-z ]*(\[\])?$`)

// defaultOf words a column's default the same way on both engines: the literal without
// PostgreSQL's cast, or "identity" for a column the database numbers.
func defaultOf(d string) string {
	d = castSuffix.ReplaceAllString(strings.TrimSpace(d), "")
	if d == "" {
		return ""
	}
	return " default " + d
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
