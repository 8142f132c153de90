package sqlstore

import "testing"

// Every rewrite the PostgreSQL dialect makes, on the spellings the store's SQL uses.
func TestRewriteForPostgres(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT a FROM t WHERE x = ? AND y = ?`, `SELECT a FROM t WHERE x = $1 AND y = $2`},
		{`SELECT a FROM t WHERE x = ?2 AND y = ?1 AND z = ?2`, `SELECT a FROM t WHERE x = $2 AND y = $1 AND z = $2`},
		{`SELECT ?1, ?`, `SELECT $1, $2`},
		{`SELECT '?', "a?b", ? -- what?` + "\n" + `FROM t`, `SELECT '?', "a?b", $1 -- what?` + "\n" + `FROM t`},
		{`SELECT 'it''s ?', ?`, `SELECT 'it''s ?', $1`},
		{`WHERE c IS ?2 AND d IS NOT ?3`, `WHERE c IS NOT DISTINCT FROM $2 AND d IS DISTINCT FROM $3`},
		{`WHERE c IS NULL`, `WHERE c IS NULL`},
		{`WHERE id IN (SELECT value FROM json_each(?))`, `WHERE id IN (SELECT value FROM json_array_elements_text($1::json) WITH ORDINALITY AS json_each(value, key))`},
		{`(SELECT j.key FROM json_each(?3) j WHERE j.value = s.id)`, `(SELECT j.key FROM json_array_elements_text($3::json) WITH ORDINALITY AS j(value, key) WHERE j.value = s.id)`},
		{`SELECT printf('%012d', s.position) || s.id`, `SELECT lpad(CAST(floor(s.position) AS BIGINT)::text, 12, '0') || s.id`},
		{`WHERE u.email = ? COLLATE NOCASE`, `WHERE lower(u.email) = lower($1)`},
	} {
		if got := rewriteForPostgres(c.in); got != c.want {
			t.Errorf("rewrite %q\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// A parameter the query never uses is dropped and the others renumbered.
func TestRewriteDropsUnusedParameters(t *testing.T) {
	d := &dialect{postgres: true}
	q, args := d.pg(`SELECT count(*) FROM teams t WHERE t.organization_id = ?2 AND t.title LIKE ?4`, []any{"caller", "org", "unused", "%a%"})
	if q != `SELECT count(*) FROM teams t WHERE t.organization_id = $1 AND t.title ILIKE $2` {
		t.Errorf("query %q", q)
	}
	if len(args) != 2 || args[0] != "org" || args[1] != "%a%" {
		t.Errorf("args %v", args)
	}
	q, args = d.pg(`SELECT ?1, ?2`, []any{true, 2})
	if q != `SELECT $1, $2` || args[0] != int64(1) || args[1] != 2 {
		t.Errorf("%q %v", q, args)
	}
}

func TestPgArgs(t *testing.T) {
	in := []any{"a", true, false, 3}
	out := pgArgs(in)
	if out[1] != int64(1) || out[2] != int64(0) || out[0] != "a" || out[3] != 3 {
		t.Fatalf("pgArgs = %v", out)
	}
	if in[1] != true {
		t.Fatal("pgArgs changed its input")
	}
	plain := []any{"a", 1}
	if got := pgArgs(plain); &got[0] != &plain[0] {
		t.Fatal("pgArgs copied arguments without a bool")
	}
}

// TestSessionSettings: quire's PostgreSQL connections run without JIT and without synchronized
// scans unless the URL says otherwise.
func TestSessionSettings(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u@h/db?sslmode=disable":         "postgres://u@h/db?jit=off&sslmode=disable&synchronize_seqscans=off",
		"postgres://u@/db?host=/tmp/pg":             "postgres://u@/db?host=%2Ftmp%2Fpg&jit=off&synchronize_seqscans=off",
		"postgres://u@h/db?jit=on":                  "postgres://u@h/db?jit=on&synchronize_seqscans=off",
		"postgres://u@h/db?synchronize_seqscans=on": "postgres://u@h/db?jit=off&synchronize_seqscans=on",
		"host=h dbname=db":                          "host=h dbname=db",
	} {
		if got := sessionSettings(in); got != want {
			t.Errorf("sessionSettings(%q) = %q, want %q", in, got, want)
		}
	}
}
