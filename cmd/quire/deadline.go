package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// deadlineContext is a request's context with the request's deadline, whose timer is made only
// when something waits on it. context.WithDeadline arms a timer and registers with its parent
// for every request (seven allocations, about a microsecond here), while a cached read never
// looks at Done: the database calls do, and they make the timer then. Until then Deadline
// answers the deadline all the same, and Value the request's values; from then on everything
// is context.WithDeadline's (Done, Err, and the cause context.Cause finds through Value).
type deadlineContext struct {
	context.Context // the request's own, from net/http
	deadline        time.Time
	once            sync.Once
	timed           atomic.Pointer[timedContext]
}

type timedContext struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func withLazyDeadline(parent context.Context, deadline time.Time) *deadlineContext {
	return &deadlineContext{Context: parent, deadline: deadline}
}

func (c *deadlineContext) armed() context.Context {
	c.once.Do(func() {
		ctx, cancel := context.WithDeadline(c.Context, c.deadline)
		c.timed.Store(&timedContext{ctx, cancel})
	})
	return c.timed.Load().ctx
}

// Deadline is the earlier of the request's deadline and its parent's, as WithDeadline's.
func (c *deadlineContext) Deadline() (time.Time, bool) {
	if d, ok := c.Context.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

func (c *deadlineContext) Done() <-chan struct{} { return c.armed().Done() }

func (c *deadlineContext) Err() error { return c.armed().Err() }

func (c *deadlineContext) Value(key any) any {
	if t := c.timed.Load(); t != nil {
		return t.ctx.Value(key)
	}
	return c.Context.Value(key)
}

// stop releases the timer, if one was made. (One made after stop runs, by something the
// request left behind, ends with its parent, which net/http cancels when the request ends.)
func (c *deadlineContext) stop() {
	if t := c.timed.Load(); t != nil {
		t.cancel()
	}
}
