// Package pgtest gives tests a fresh PostgreSQL database on the cluster QUIRE_TEST_POSTGRES_URL
// names (make test starts one: testdata/postgres/cluster.sh). It is for tests only, and it
// imports no driver: the test binary has the "pgx" driver registered by importing store/postgres,
// so that package stays the only one importing pgx (and its own tests can use this one).
package pgtest

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

var databases atomic.Int64

// Require skips the test without a cluster, saying what needs one; it answers the cluster's
// admin URL (one with the right to create databases).
func Require(tb testing.TB, what string) string {
	tb.Helper()
	admin := os.Getenv("QUIRE_TEST_POSTGRES_URL")
	if admin == "" {
		tb.Skipf("QUIRE_TEST_POSTGRES_URL is not set: %s needs a PostgreSQL cluster (make test starts one)", what)
	}
	return admin
}

// Database creates an empty database on the cluster and answers its URL; it is dropped when the
// test ends. Without a cluster the test is skipped (see Require).
func Database(tb testing.TB, what string) string {
	tb.Helper()
	return create(tb, Require(tb, what), "")
}

// create makes a database of the cluster admin names (with options, e.g. a template) that is
// dropped when the test ends, and answers its URL.
func create(tb testing.TB, admin, options string) string {
	tb.Helper()
	name := fmt.Sprintf("quire_test_%d_%d", os.Getpid(), databases.Add(1))
	a, err := sql.Open("pgx", admin)
	if err != nil {
		tb.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Exec(`CREATE DATABASE ` + name + ` ` + options); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if a, err := sql.Open("pgx", admin); err == nil {
			a.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
			a.Close()
		}
	})
	return withPath(admin, name)
}

// withPath is the URL of database name on the cluster of URL admin.
func withPath(admin, name string) string {
	u, err := url.Parse(admin)
	if err != nil {
		panic(err) // admin was used to connect already
	}
	u.Path = "/" + name
	return u.String()
}

// templates are the prepared databases of this process, by name: made once, copied per test.
var (
	templatesMu sync.Mutex
	templates   = map[string]*template{}
)

type template struct {
	once     sync.Once
	name     string
	strategy string // how CREATE DATABASE copies it: "" (the server's default) or "STRATEGY FILE_COPY"
	err      error
}

// copyStrategy is how a cluster best copies a template. PostgreSQL 15's default, WAL_LOG, writes
// every page of the copy to the write-ahead log (a third of a second of CPU for quire's schema);
// FILE_COPY copies the files and takes a checkpoint instead, the cheaper of the two when the
// cluster does not fsync (make test's: testdata/postgres/cluster.sh) and the dearer when it does.
func copyStrategy(a *sql.DB) (string, error) {
	var fastCopy bool
	err := a.QueryRow(`SELECT current_setting('server_version_num')::int >= 150000 AND current_setting('fsync') = 'off'`).Scan(&fastCopy)
	if err != nil || !fastCopy {
		return "", err
	}
	return "STRATEGY FILE_COPY", nil
}

// FromTemplate is Database for tests that each need the same prepared database (migrated, say):
// prepare runs once per process on a database named after key, which then becomes the template
// every test's database is copied from (CREATE DATABASE … TEMPLATE: a file copy, much cheaper than
// migrating each one). The template is dropped when the process's tests are done only if the
// cluster is: make test's cluster is thrown away whole.
func FromTemplate(tb testing.TB, what, key string, prepare func(url string) error) string {
	tb.Helper()
	admin := Require(tb, what)
	templatesMu.Lock()
	tp := templates[key]
	if tp == nil {
		tp = &template{name: fmt.Sprintf("quire_template_%d_%s", os.Getpid(), key)}
		templates[key] = tp
	}
	templatesMu.Unlock()
	tp.once.Do(func() {
		a, err := sql.Open("pgx", admin)
		if err != nil {
			tp.err = err
			return
		}
		defer a.Close()
		if _, err := a.Exec(`CREATE DATABASE ` + tp.name); err != nil {
			tp.err = err
			return
		}
		if tp.err = prepare(withPath(admin, tp.name)); tp.err != nil {
			return
		}
		if _, tp.err = a.Exec(`ALTER DATABASE ` + tp.name + ` WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`); tp.err != nil {
			return
		}
		tp.strategy, tp.err = copyStrategy(a)
	})
	if tp.err != nil {
		tb.Fatalf("the template database for %s: %v", what, tp.err)
	}
	return create(tb, admin, `TEMPLATE `+tp.name+` `+tp.strategy)
}
