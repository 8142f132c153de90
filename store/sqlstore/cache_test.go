package sqlstore

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// A read never takes its version from a query that began before it: one arriving while a query
// is on its way waits for the next, which the reads arriving meanwhile share.
func TestSharedVersionIsReadAfterTheCall(t *testing.T) {
	var writes atomic.Uint64 // the cluster's count
	var queries atomic.Int32
	started := make(chan struct{}, 16)
	release := make(chan struct{})
	v := &sharedVersion{read: func(context.Context) (uint64, error) {
		queries.Add(1)
		n := writes.Load() // what the query sees is what was committed when it began
		started <- struct{}{}
		<-release
		return n, nil
	}}
	ctx := context.Background()

	first := make(chan uint64)
	go func() { n, _ := v.current(ctx); first <- n }()
	<-started // the first query has begun, at count 0
	writes.Add(1)
	// A write returned; the reads that begin now must see it.
	const later = 10
	var wg sync.WaitGroup
	got := make([]uint64, later)
	for i := range later {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = v.current(ctx) }()
	}
	// Wait until every later read is waiting for the next round, then let the queries run.
	for {
		v.mu.Lock()
		waiting := v.next != nil && v.next.reads == later
		v.mu.Unlock()
		if waiting {
			break
		}
		runtime.Gosched()
	}
	close(release)
	if n := <-first; n != 0 {
		t.Errorf("the first read got %d, want 0", n)
	}
	wg.Wait()
	for i, n := range got {
		if n != 1 {
			t.Errorf("read %d, begun after the write returned, got version %d, want 1", i, n)
		}
	}
	if q := queries.Load(); q != 2 {
		t.Errorf("%d reads made %d queries; the ones waiting together should share one", later+1, q)
	}
}
