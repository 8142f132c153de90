package sqlstore

import (
	"sync"
	"time"
)

// coalescing runs a job on a goroutine of its own when asked, one run at a time: the asks that
// come while a run is under way gather into one more run after it, so a burst of commits costs a
// run or two, never one each. It is how the work that follows commits runs off the request path:
// the WAL checkpointer (checkpoint.go), PostgreSQL's search upkeep (searchupkeep.go) and the
// search catch-up (searchbehind.go). Each keeps what its next run is to do under a lock of its
// own, and its job takes it from there: a job may so find nothing left to do, and return.
type coalescing struct {
	delay time.Duration // waited before each run, to gather a burst of asks

	mu      sync.Mutex
	running bool
	again   bool // asked while a run was under way
	closed  bool
	stop    chan struct{}
	wg      sync.WaitGroup
}

// ask has job run soon, unless a run is under way: that one is followed by one more.
func (c *coalescing) ask(job func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if c.running {
		c.again = true
		return
	}
	if c.stop == nil {
		c.stop = make(chan struct{})
	}
	c.running = true
	c.wg.Add(1)
	go c.loop(job, c.stop)
}

func (c *coalescing) loop(job func(), stop <-chan struct{}) {
	defer c.wg.Done()
	for {
		if c.delay > 0 {
			t := time.NewTimer(c.delay)
			select {
			case <-stop: // closed: no more runs, and no more asks
				t.Stop()
				return
			case <-t.C:
			}
		}
		c.mu.Lock()
		c.again = false
		c.mu.Unlock()
		job()
		c.mu.Lock()
		if !c.again {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
	}
}

// wait returns once no run is under way or due.
func (c *coalescing) wait() { c.wg.Wait() }

// close refuses asks from now on, drops a run still waiting out its delay, and returns once a
// run under way has finished.
func (c *coalescing) close() {
	c.mu.Lock()
	if !c.closed {
		c.closed = true
		if c.stop != nil {
			close(c.stop)
		}
	}
	c.mu.Unlock()
	c.wg.Wait()
}
