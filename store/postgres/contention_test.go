package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/storetest"
)

// Writes that contend on the same rows (every new collection of an organization reads the last
// position) all succeed: serialization failures are retried, and a write that keeps losing runs
// alone under the writers' lock.
func TestContendedWritesAllSucceed(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Database(t, "this test")
	st, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	org := storetest.MustOwner(t, st, "a@example.com").Org
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				_, err := st.CreateCollection(ctx, org.ID, fmt.Sprint(w, i), nil)
				if err != nil {
					t.Errorf("%v", err)
				}
			}
		}()
	}
	wg.Wait()
	list, err := st.FindCollections(ctx, org.ID, true, nil, store.Page{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if list.Count != 160 || len(list.Items) != 160 {
		t.Fatalf("%d collections (%d listed), want 160", list.Count, len(list.Items))
	}
}
