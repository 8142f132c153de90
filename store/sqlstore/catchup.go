package sqlstore

import (
	"context"
	"sync"
	"time"
)

// searchCatchUp brings up to date, on a goroutine, the indexes of spaces that writes committed
// on this node left behind. At most one runs at a time; spaces noted meanwhile gather into its
// next round. Failures are left to the next search of the space, which does the same.
type searchCatchUp struct {
	run func(ctx context.Context, spaceIDs []string)

	mu      sync.Mutex
	running bool
	pending []string
	wg      sync.WaitGroup
}

func (c *searchCatchUp) note(spaceIDs []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending = append(c.pending, spaceIDs...)
	if c.running {
		return
	}
	c.running = true
	c.wg.Add(1)
	go c.loop()
}

func (c *searchCatchUp) loop() {
	defer c.wg.Done()
	for {
		c.mu.Lock()
		spaces := uniqueStrings(c.pending)
		c.pending = nil
		if len(spaces) == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		c.run(ctx, spaces)
		cancel()
	}
}

// wait returns once no catch-up runs (Close, and tests).
func (c *searchCatchUp) wait() { c.wg.Wait() }

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
