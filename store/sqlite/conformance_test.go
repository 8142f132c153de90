package sqlite

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// The SQLite store keeps the contract: the conformance suite, on a fresh database per test.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock func() time.Time) store.Store {
		st, err := Open(context.Background(), t.TempDir()+"/quire.db")
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
