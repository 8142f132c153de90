package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres/pgtest"
)

// Each durable job runs once when the runners of two nodes claim from one database at once, and
// a recurring job started by both is scheduled once.
func TestJobsRunOnceAcrossNodes(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Database(t, "this test")
	var nodes []*Store
	for range 2 {
		st, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		nodes = append(nodes, st)
	}
	const n = 60
	for i := range n {
		if err := nodes[0].EnqueueJob(ctx, "count", fmt.Sprint(i), time.Now().Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	ran := map[string]int{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var wg sync.WaitGroup
	for _, st := range nodes {
		for range 2 { // two runners per node, as if the loops of several processes met
			r := &jobs.Runner{Store: st, Log: log, Handlers: map[string]jobs.Handler{
				"count": {Run: func(ctx context.Context, payload string) error {
					mu.Lock()
					ran[payload]++
					mu.Unlock()
					time.Sleep(time.Millisecond)
					return nil
				}},
				jobs.PurgeDeletedSpaces: {Every: time.Hour, Run: func(context.Context, string) error { return nil }},
			}}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := r.Start(ctx); err != nil {
					t.Error(err)
				}
				for range 20 {
					if _, err := r.RunDue(ctx); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	if len(ran) != n {
		t.Fatalf("%d jobs ran, want %d", len(ran), n)
	}
	for p, c := range ran {
		if c != 1 {
			t.Fatalf("job %s ran %d times", p, c)
		}
	}
	pending, err := nodes[1].PendingJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if pending[jobs.PurgeDeletedSpaces] != 1 {
		t.Fatalf("pending jobs %v: want one purge job for both nodes", pending)
	}
}

// Nodes starting together on an empty database apply the migrations once: the advisory lock
// makes the others wait, then find them recorded.
func TestNodesStartingTogetherMigrateOnce(t *testing.T) {
	dsn := pgtest.Database(t, "this test")
	var wg sync.WaitGroup
	errs := make([]error, 4)
	stores := make([]*Store, 4)
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = Open(context.Background(), dsn)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n, distinct int
	if err := db.QueryRow(`SELECT count(*), count(DISTINCT name) FROM schema_migrations`).Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n == 0 || n != distinct {
		t.Fatalf("schema_migrations holds %d rows for %d migrations", n, distinct)
	}
}

// The space cache of one node never answers what another node's write replaced once that write
// has returned, with readers keeping the cache warm and writers on other spaces moving the
// cluster's write count all along; and, with nothing written, the node answers from its cache.
func TestSpaceCacheAcrossNodes(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Database(t, "this test")
	var nodes [2]*Store
	for i := range nodes {
		st, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		nodes[i] = st
	}
	a, b := nodes[0], nodes[1]
	u := &store.User{Email: "cache@example.com", DisplayName: "Cache"}
	if _, err := a.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	org, err := a.CreateOrganization(ctx, "Acme", u.ID)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := a.CreateSpace(ctx, org.ID, u.ID, store.SpaceCreate{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := b.CreateSpace(ctx, org.ID, u.ID, store.SpaceCreate{Title: "Other"})
	if err != nil {
		t.Fatal(err)
	}

	done := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 { // readers on the reading node
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, _, _, err := b.FindSpaceForUser(ctx, sp.ID, u.ID); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // a writer elsewhere, on both nodes
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			title := fmt.Sprintf("Other %d", i)
			if _, err := nodes[i%2].UpdateSpace(ctx, other.ID, store.SpaceUpdate{Title: &title}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for i := range 60 {
		writer, reader := a, b
		if i%3 == 2 {
			writer, reader = b, a
		}
		title := fmt.Sprintf("Handbook %d", i)
		if _, err := writer.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{Title: &title}); err != nil {
			t.Fatal(err)
		}
		got, _, _, err := reader.FindSpaceForUser(ctx, sp.ID, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Title != title {
			close(done)
			wg.Wait()
			t.Fatalf("write %d returned on one node, the other reads title %q, want %q", i, got.Title, title)
		}
	}
	close(done)
	wg.Wait()

	// The reads are answered from the cache: a change made behind the store's back (raw SQL,
	// which counts no write) is not seen until a write is counted.
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, _, _, err := b.FindSpaceForUser(ctx, sp.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, `UPDATE spaces SET title = 'Behind' WHERE id = $1`, sp.ID); err != nil {
		t.Fatal(err)
	}
	if got, _, _, err := b.FindSpaceForUser(ctx, sp.ID, u.ID); err != nil || got.Title == "Behind" {
		t.Fatalf("read %v, %v: not served from the cache", got, err)
	}
	title := "Counted"
	if _, err := a.UpdateSpace(ctx, other.ID, store.SpaceUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	if got, _, _, err := b.FindSpaceForUser(ctx, sp.ID, u.ID); err != nil || got.Title != "Behind" {
		t.Fatalf("after a counted write, read %v, %v; want the row as it is", got, err)
	}
}
