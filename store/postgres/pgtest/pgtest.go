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
	admin := Require(tb, what)
	name := fmt.Sprintf("quire_test_%d_%d", os.Getpid(), databases.Add(1))
	a, err := sql.Open("pgx", admin)
	if err != nil {
		tb.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Exec(`CREATE DATABASE ` + name); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if a, err := sql.Open("pgx", admin); err == nil {
			a.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
			a.Close()
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		tb.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
