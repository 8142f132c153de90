package sqlstore

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var convert = flag.Bool("convert", false, "convert each migration pair of migrations/sqlite/ and migrations/postgres/ into one file of migrations/")

// Migrations written in the two-file format (one file in migrations/sqlite/, one of the same name
// in migrations/postgres/) are converted into one file of migrations/ by
//
//	go test -tags sqlite_fts5 ./store/sqlstore/ -run 'TestTwoFileMigrations$' -convert
//
// which writes the file, checks that it expands to each engine's file, and removes the pair.
// Without -convert the test fails while a pair is left (the store would refuse to start).
func TestTwoFileMigrations(t *testing.T) {
	lite, _ := filepath.Glob("migrations/sqlite/*.sql")
	pg, _ := filepath.Glob("migrations/postgres/*.sql")
	names := map[string]bool{}
	for _, f := range append(lite, pg...) {
		names[filepath.Base(f)] = true
	}
	for name := range names {
		if !*convert {
			t.Errorf("migrations/*/%s is in the two-file format: run this test with -convert", name)
			continue
		}
		a, errA := os.ReadFile("migrations/sqlite/" + name)
		b, errB := os.ReadFile("migrations/postgres/" + name)
		if errA != nil || errB != nil {
			t.Errorf("%s: a migration needs its file in both migrations/sqlite/ and migrations/postgres/ (%v, %v)", name, errA, errB)
			continue
		}
		if _, err := os.Stat("migrations/" + name); err == nil {
			t.Errorf("migrations/%s exists already", name)
			continue
		}
		out, err := convertMigrationPair(string(a), string(b))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := os.WriteFile("migrations/"+name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove("migrations/sqlite/" + name)
		os.Remove("migrations/postgres/" + name)
		t.Logf("converted %s", name)
	}
	os.Remove("migrations/sqlite")
	os.Remove("migrations/postgres")
}

var withoutRowid = regexp.MustCompile(`\)\s*WITHOUT ROWID\s*;`)

// convertMigrationPair writes an engine's pair of migration files as one: PostgreSQL's lines,
// which SQLite reads through its spellings; a table SQLite makes WITHOUT ROWID says so in a
// {{sqlite: …}} marker; lines that differ otherwise go in "-- if" blocks. It checks that the result
// expands to each file (comments and spacing aside).
func convertMigrationPair(lite, pg string) (string, error) {
	a, b := strings.Split(strings.TrimRight(lite, "\n"), "\n"), strings.Split(strings.TrimRight(pg, "\n"), "\n")
	keyA := make([]string, len(a))
	for i, l := range a {
		keyA[i] = normalizeSQL(withoutRowid.ReplaceAllString(l, ");"))
	}
	keyB := make([]string, len(b))
	for i, l := range b {
		x, err := expandMigration(l+"\n", false)
		if err != nil {
			return "", err
		}
		keyB[i] = normalizeSQL(x)
	}
	// The longest common subsequence of the two files' lines, as SQLite reads them.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if keyA[i] == keyB[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	var onlyA, onlyB []string
	flush := func() {
		if len(onlyA) > 0 {
			out = append(append(append(out, "-- if sqlite"), onlyA...), "-- end if")
		}
		if len(onlyB) > 0 {
			out = append(append(append(out, "-- if postgres"), onlyB...), "-- end if")
		}
		onlyA, onlyB = nil, nil
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && keyA[i] == keyB[j]:
			flush()
			l := b[j]
			if withoutRowid.MatchString(a[i]) {
				l = strings.Replace(l, ");", "){{sqlite: WITHOUT ROWID}};", 1)
			}
			out = append(out, l)
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			onlyB = append(onlyB, b[j])
			j++
		default:
			onlyA = append(onlyA, a[i])
			i++
		}
	}
	flush()
	src := strings.Join(out, "\n") + "\n"
	for _, e := range []struct {
		postgres bool
		want     string
	}{{false, lite}, {true, pg}} {
		got, err := expandMigration(src, e.postgres)
		if err != nil {
			return "", err
		}
		if normalizeSQL(got) != normalizeSQL(e.want) {
			return "", fmt.Errorf("the converted file does not expand to the original (postgres %v):\n%s", e.postgres, src)
		}
	}
	return src, nil
}

// normalizeSQL is SQL text without its comments, its words separated by one space.
func normalizeSQL(s string) string {
	return strings.Join(strings.Fields(stripSQLComments(s)), " ")
}

// A pair as the two-file format wrote it converts to one file: the shared lines once, in
// PostgreSQL's spelling, WITHOUT ROWID as a marker, and what differs otherwise in blocks.
func TestConvertMigrationPair(t *testing.T) {
	lite := `-- Reviews.
CREATE TABLE reviews (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id),
    digest     BLOB NOT NULL,
    score      REAL NOT NULL,
    count      INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX reviews_user ON reviews(user_id COLLATE NOCASE);
`
	pg := `-- Reviews.
CREATE TABLE reviews (
    id         TEXT COLLATE "C" PRIMARY KEY,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    digest     BYTEA NOT NULL,
    score      DOUBLE PRECISION NOT NULL,
    count      BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX reviews_user ON reviews(lower(user_id));
`
	got, err := convertMigrationPair(lite, pg)
	if err != nil {
		t.Fatal(err)
	}
	want := `-- Reviews.
CREATE TABLE reviews (
    id         TEXT COLLATE "C" PRIMARY KEY,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    digest     BYTEA NOT NULL,
    score      DOUBLE PRECISION NOT NULL,
    count      BIGINT NOT NULL DEFAULT 0
){{sqlite: WITHOUT ROWID}};
-- if sqlite
CREATE INDEX reviews_user ON reviews(user_id COLLATE NOCASE);
-- end if
-- if postgres
CREATE INDEX reviews_user ON reviews(lower(user_id));
-- end if
`
	if got != want {
		t.Errorf("converted to\n%s\nwant\n%s", got, want)
	}
}
