package sqlstore

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/storetest"
)

// twoNodes opens two stores on one PostgreSQL database, with a space both see, and counts the
// version queries node b asks.
func twoNodes(t *testing.T) (a, b *Store, sp *store.Space, owner string, asked *atomic.Int32) {
	t.Helper()
	dsn := pgtest.Database(t, "this test")
	var nodes [2]*Store
	for i := range nodes {
		st, err := OpenPostgres(context.Background(), "pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		nodes[i] = st
	}
	a, b = nodes[0], nodes[1]
	o := storetest.MustOwner(t, a, "lease@example.com")
	sp = o.MustSpace(t, a, "Docs")
	asked = new(atomic.Int32)
	read := b.shared.read
	b.shared.read = func(ctx context.Context) (uint64, error) {
		asked.Add(1)
		return read(ctx)
	}
	return a, b, sp, o.User.ID, asked
}

// readTitle reads the space's title through node st's cache.
func readTitle(t *testing.T, st *Store, spaceID, userID string) string {
	t.Helper()
	got, _, _, err := st.FindSpaceForUser(context.Background(), spaceID, userID)
	if err != nil {
		t.Fatal(err)
	}
	return got.Title
}

// waitTrusted reads on st until its lease is trusted.
func waitTrusted(t *testing.T, st *Store, spaceID, userID string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		readTitle(t, st, spaceID, userID)
		if _, ok := st.leases.version(context.Background()); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the node took no lease it trusts within 5 s of reading")
		}
		time.Sleep(time.Millisecond)
	}
}

// While a node holds a lease its cached reads ask the database nothing, and a write on another
// node that returned is seen by the next read all the same.
func TestLeaseReadsAskNothing(t *testing.T) {
	a, b, sp, user, asked := twoNodes(t)
	ctx := context.Background()
	waitTrusted(t, b, sp.ID, user)
	before := asked.Load()
	for range 200 {
		readTitle(t, b, sp.ID, user)
	}
	if n := asked.Load() - before; n > 5 {
		t.Errorf("200 reads under a lease asked the version %d times", n)
	}
	for i := range 20 {
		title := "Docs " + string(rune('a'+i))
		if _, err := a.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{Title: &title}); err != nil {
			t.Fatal(err)
		}
		if got := readTitle(t, b, sp.ID, user); got != title {
			t.Fatalf("write %d returned on node a; node b, holding a lease, reads %q, want %q", i, got, title)
		}
	}
	// A node's own write raises its count before it returns.
	title := "Written on b"
	if _, err := b.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	if got := readTitle(t, b, sp.ID, user); got != title {
		t.Fatalf("node b reads %q after its own write of %q", got, title)
	}
}

// A node that stops renewing keeps writers elsewhere waiting until its lease has ended, and by
// then it no longer trusts what it saw: the read after the write is fresh.
func TestWriteWaitsOutAStalledLease(t *testing.T) {
	a, b, sp, user, _ := twoNodes(t)
	ctx := context.Background()
	b.leases.length = 300 * time.Millisecond
	waitTrusted(t, b, sp.ID, user)
	hold := make(chan struct{})
	b.leases.mu.Lock()
	b.leases.hold = hold
	b.leases.mu.Unlock()
	defer close(hold)
	time.Sleep(20 * time.Millisecond) // the renewal on its way, if any, returns; no other starts

	title := "While b stalls"
	began := time.Now()
	if _, err := a.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	if got := readTitle(t, b, sp.ID, user); got != title {
		t.Fatalf("node b reads %q after a write returned on a, want %q", got, title)
	}
	if took < 100*time.Millisecond {
		t.Errorf("the write returned in %s, before node b's lease (300 ms, renewed at most 20 ms before the hold) ended", took)
	}
}

// A node that reads nothing for a lease's length gives its lease back: writers elsewhere then
// wait for nobody.
func TestIdleNodeGivesItsLeaseBack(t *testing.T) {
	_, b, sp, user, _ := twoNodes(t)
	b.leases.length = 100 * time.Millisecond
	waitTrusted(t, b, sp.ID, user)
	var n int
	for deadline := time.Now().Add(5 * time.Second); ; {
		if err := b.writer.pool.QueryRowContext(context.Background(),
			`SELECT count(*) FROM quire_node_leases WHERE lease_until > now()`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d leases still run 5 s after the node's last read", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, ok := b.leases.version(context.Background()); ok {
		t.Error("a node trusts a count right after taking its lease back")
	}
}
