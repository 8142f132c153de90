package postgres

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/quire-docs/quire/store"
)

// Writes that contend on the same rows (every new collection of an organization reads the last
// position) all succeed: serialization failures are retried, and a write that keeps losing runs
// alone under the writers' lock.
func TestContendedWritesAllSucceed(t *testing.T) {
	admin := os.Getenv("QUIRE_TEST_POSTGRES_URL")
	if admin == "" {
		t.Skip("QUIRE_TEST_POSTGRES_URL is not set: this test needs a PostgreSQL cluster (make test starts one)")
	}
	ctx := context.Background()
	dsn := FreshDatabase(t, admin)
	st, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u := &store.User{Email: "a@example.com", DisplayName: "A"}
	if _, err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	org, err := st.CreateOrganization(ctx, "Acme", u.ID)
	if err != nil {
		t.Fatal(err)
	}
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
	list, err := st.FindCollections(ctx, org.ID, true, store.Page{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if list.Count != 160 || len(list.Items) != 160 {
		t.Fatalf("%d collections (%d listed), want 160", list.Count, len(list.Items))
	}
}
