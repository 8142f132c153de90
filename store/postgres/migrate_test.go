package postgres

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quire-docs/quire/store/postgres/pgtest"
)

// frozenMigrations is the two-file history as it was before it was written once (store/sqlstore's
// doc.go): what PostgreSQL databases of that time were migrated with, 0001_base up to 0031.
const frozenMigrations = "../sqlstore/testdata/migrations-0031/postgres"

// A PostgreSQL database migrated by the two-file history opens with the history written once,
// on several nodes at once: every record stays as it was, nothing is applied again (only what
// came after 0031, and 0030, which holds nothing for PostgreSQL, are recorded anew), its rows
// stay, and its schema is then the schema of a fresh database, catalog for catalog: columns (type,
// collation, NOT NULL, default, identity, order), constraints, indexes, sequences and triggers.
func TestPostgresMigratedByTheTwoFileHistoryOpens(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Database(t, "the upgrade of a two-file database")
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(frozenMigrations, "*.sql"))
	if len(files) == 0 {
		t.Fatal("no frozen migrations")
	}
	slices.Sort(files)
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := db.Exec(`INSERT INTO schema_migrations (name, applied_at) VALUES ($1, '2026-01-01T00:00:00.000000Z')`, "migrations/"+filepath.Base(f)); err != nil {
			t.Fatal(err)
		}
	}
	now := "2026-01-01T00:00:00.000000Z"
	for _, q := range []string{
		`INSERT INTO users (id, email, display_name, created_at) VALUES ('u1', 'old@example.com', 'Old', '` + now + `')`,
		`INSERT INTO organizations (id, title, created_at) VALUES ('o1', 'Old org', '` + now + `')`,
		`INSERT INTO members (organization_id, user_id, role, joined_at) VALUES ('o1', 'u1', 'admin', '` + now + `')`,
		`INSERT INTO jobs (kind, run_at, created_at, updated_at) VALUES ('old', '` + now + `', '` + now + `', '` + now + `')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	before := records(t, db)

	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := Open(ctx, dsn)
			if err == nil {
				var org string
				if org, err = orgTitle(ctx, st, "o1"); err == nil && org != "Old org" {
					t.Errorf("node %d reads the organization as %q", i, org)
				}
				st.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}

	after := records(t, db)
	for name, at := range before {
		if after[name] != at {
			t.Errorf("%s was recorded at %s, now %q", name, at, after[name])
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok && name != "migrations/0030_search_sections_ranked.sql" && name < "migrations/0032" {
			t.Errorf("%s was applied again (recorded anew)", name)
		}
	}
	var id int64
	if err := db.QueryRow(`INSERT INTO jobs (kind, run_at, created_at, updated_at) VALUES ('new', $1, $1, $1) RETURNING id`, now).Scan(&id); err != nil || id != 2 {
		t.Errorf("a new job after the upgrade: id %d, %v (the identity's sequence kept its place)", id, err)
	}

	// The integrity check finds every migration applied, and says which one is not.
	st, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CheckIntegrity(ctx); err != nil {
		t.Errorf("the integrity check after the upgrade: %v", err)
	}
	if _, err := db.Exec(`DELETE FROM schema_migrations WHERE name = 'migrations/0031_page_kinds.sql'`); err != nil {
		t.Fatal(err)
	}
	if err := st.CheckIntegrity(ctx); err == nil || !strings.Contains(err.Error(), "0031_page_kinds") {
		t.Errorf("the integrity check without 0031's record: %v", err)
	}
	if _, err := db.Exec(`INSERT INTO schema_migrations (name, applied_at) VALUES ('migrations/0031_page_kinds.sql', $1)`, before["migrations/0031_page_kinds.sql"]); err != nil {
		t.Fatal(err)
	}

	fresh := pgtest.Database(t, "the upgrade of a two-file database")
	fst, err := Open(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	fst.Close()
	fdb, err := sql.Open("pgx", fresh)
	if err != nil {
		t.Fatal(err)
	}
	defer fdb.Close()
	if _, ok := records(t, fdb)["migrations/0001_base.sql"]; !ok {
		t.Error("a fresh database does not record 0001_base: a node of an earlier version would run it again")
	}
	got, want := catalog(t, db), catalog(t, fdb)
	for _, l := range want {
		if !slices.Contains(got, l) {
			t.Errorf("a fresh database has %s; the upgraded one has not", l)
		}
	}
	for _, l := range got {
		if !slices.Contains(want, l) {
			t.Errorf("the upgraded database has %s; a fresh one has not", l)
		}
	}
	t.Logf("%d catalog entries compared", len(want))
}

func orgTitle(ctx context.Context, st *Store, id string) (string, error) {
	o, err := st.FindOrganizationByID(ctx, id)
	if err != nil {
		return "", err
	}
	return o.Title, nil
}

// records is schema_migrations: applied_at by name.
func records(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range query(t, db, `SELECT name, applied_at FROM schema_migrations`) {
		out[r[0]] = r[1]
	}
	return out
}

// catalog is the schema of a database's public schema as PostgreSQL keeps it, one line per
// column (its table, place, type, collation, NOT NULL, default, identity), constraint (its
// definition), index (its definition), sequence and trigger.
func catalog(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var out []string
	place := map[string]int{}
	for _, c := range query(t, db, `SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
			coalesce(co.collname, ''), a.attnotnull::text, coalesce(pg_get_expr(d.adbin, d.adrelid), ''), a.attidentity::text
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		LEFT JOIN pg_collation co ON co.oid = a.attcollation AND co.collname <> 'default'
		WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
		ORDER BY c.relname, a.attnum`) {
		place[c[0]]++
		out = append(out, "column "+c[0]+"."+c[1]+" #"+strconv.Itoa(place[c[0]])+": "+strings.Join(c[2:], " | "))
	}
	for _, c := range query(t, db, `SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
		FROM pg_constraint WHERE connamespace = 'public'::regnamespace`) {
		out = append(out, "constraint "+c[1]+" on "+c[0]+": "+c[2])
	}
	for _, c := range query(t, db, `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'`) {
		out = append(out, "index "+c[0]+": "+c[1])
	}
	for _, c := range query(t, db, `SELECT sequencename, data_type::text, start_value::text, increment_by::text
		FROM pg_sequences WHERE schemaname = 'public'`) {
		out = append(out, "sequence "+strings.Join(c, " "))
	}
	for _, c := range query(t, db, `SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal`) {
		out = append(out, "trigger "+strings.Join(c, " "))
	}
	slices.Sort(out)
	return out
}
