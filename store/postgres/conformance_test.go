package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/storetest"
)

// The PostgreSQL store keeps the contract: the conformance suite, each test on a fresh database
// of the cluster QUIRE_TEST_POSTGRES_URL names (make test starts one: testdata/postgres/cluster.sh),
// copied from one migrated once (migrating each costs more than the test).
func TestConformance(t *testing.T) {
	pgtest.Require(t, "the PostgreSQL conformance suite")
	storetest.Run(t, func(t *testing.T, clock func() time.Time) store.Store {
		st, err := Open(context.Background(), pgtest.FromTemplate(t, "the PostgreSQL conformance suite", "migrated", migrated))
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

// migrated applies quire's migrations to the database at url: the template the conformance
// suite's databases are copied from.
func migrated(url string) error {
	st, err := Open(context.Background(), url)
	if err != nil {
		return err
	}
	return st.Close()
}
