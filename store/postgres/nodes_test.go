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
