package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// The PostgreSQL store keeps the contract: the conformance suite, each test on a fresh database
// of the cluster QUIRE_TEST_POSTGRES_URL names (make test starts one: testdata/postgres/cluster.sh).
func TestConformance(t *testing.T) {
	admin := os.Getenv("QUIRE_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUIRE_TEST_POSTGRES_URL is not set: the PostgreSQL conformance suite needs a cluster (make test starts one)")
	}
	storetest.Run(t, func(t *testing.T, clock func() time.Time) store.Store {
		st, err := Open(context.Background(), FreshDatabase(t, admin))
		if err != nil {
			t.Fatal(err)
		}
		if clock != nil {
			st.Clock = clock
		}
		t.Cleanup(func() { st.Close() })
		return st
	})
}

var databases atomic.Int64

// FreshDatabase creates an empty database on the cluster of admin (a URL with the right to
// create databases) and answers its URL; it is dropped when the test ends.
func FreshDatabase(t testing.TB, admin string) string {
	t.Helper()
	name := fmt.Sprintf("quire_test_%d_%d", os.Getpid(), databases.Add(1))
	a, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		a, err := sql.Open("pgx", admin)
		if err != nil {
			return
		}
		defer a.Close()
		a.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + strings.TrimPrefix(name, "/")
	return u.String()
}
