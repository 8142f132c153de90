package sqlstore

import (
	"context"
	"sync"
	"time"
)

// searchCatchUp brings up to date, on a goroutine, the indexes of spaces that writes committed
// on this node left behind (searchbehind.go). One catch-up runs at a time; spaces noted meanwhile
// gather into the next (coalescing.go). Failures are left to the next search of the space, which
// does the same.
type searchCatchUp struct {
	run  func(ctx context.Context, spaceIDs []string)
	runs coalescing

	mu      sync.Mutex
	pending []string
}

func (c *searchCatchUp) note(spaceIDs []string) {
	c.mu.Lock()
	c.pending = append(c.pending, spaceIDs...)
	c.mu.Unlock()
	c.runs.ask(c.once)
}

func (c *searchCatchUp) once() {
	c.mu.Lock()
	spaces := uniqueStrings(c.pending)
	c.pending = nil
	c.mu.Unlock()
	if len(spaces) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c.run(ctx, spaces)
}

// wait returns once no catch-up runs (tests).
func (c *searchCatchUp) wait() { c.runs.wait() }

// close lets a catch-up under way finish and refuses more (Close).
func (c *searchCatchUp) close() { c.runs.close() }

func uniqueStrings(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := in[:0:0]
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
