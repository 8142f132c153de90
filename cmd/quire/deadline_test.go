package main

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

type ctxKey struct{}

// A request's lazy deadline behaves as context.WithDeadline's: it reports the deadline, keeps
// the request's values, ends at the deadline (for contexts made from it too) or with its parent.
func TestLazyDeadlineIsADeadline(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "v"))
	defer cancelParent()
	at := time.Now().Add(50 * time.Millisecond)
	ctx := withLazyDeadline(parent, at)
	defer ctx.stop()
	if d, ok := ctx.Deadline(); !ok || !d.Equal(at) {
		t.Fatalf("deadline %v %v, want %v", d, ok, at)
	}
	if ctx.Value(ctxKey{}) != "v" {
		t.Fatal("the request's value is lost")
	}
	child, cancelChild := context.WithCancel(context.WithValue(ctx, ctxKey{}, "w"))
	defer cancelChild()
	<-child.Done() // the deadline passes
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) ||
		!errors.Is(context.Cause(ctx), context.DeadlineExceeded) || !errors.Is(context.Cause(child), context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v, %v (causes %v, %v)", ctx.Err(), child.Err(), context.Cause(ctx), context.Cause(child))
	}
	if ctx.Value(ctxKey{}) != "v" || child.Value(ctxKey{}) != "w" {
		t.Fatal("values are lost once the timer is made")
	}

	// Ended by its parent, before anything asked for Done.
	parent2, cancelParent2 := context.WithCancel(context.Background())
	ctx2 := withLazyDeadline(parent2, time.Now().Add(time.Hour))
	defer ctx2.stop()
	cancelParent2()
	<-ctx2.Done()
	if !errors.Is(ctx2.Err(), context.Canceled) {
		t.Fatalf("after the parent's end: %v", ctx2.Err())
	}
	// An earlier deadline of the parent's is the one reported.
	early := time.Now().Add(time.Minute)
	parent3, cancelParent3 := context.WithDeadline(context.Background(), early)
	defer cancelParent3()
	if d, _ := withLazyDeadline(parent3, early.Add(time.Hour)).Deadline(); !d.Equal(early) {
		t.Fatalf("deadline %v, want the parent's %v", d, early)
	}
}

// A request that never waits on its context makes no timer: only the context itself.
func TestLazyDeadlineAllocatesNothingUnused(t *testing.T) {
	parent := context.Background()
	n := testing.AllocsPerRun(100, func() {
		ctx := withLazyDeadline(parent, time.Now().Add(time.Minute))
		_, _ = ctx.Deadline()
		_ = ctx.Value(ctxKey{})
		ctx.stop()
	})
	if n > 1 {
		t.Fatalf("%.0f allocations for a request's unused deadline, want 1", n)
	}
}

// A handler that outlives its request's deadline sees its context end.
func TestRequestsEndAtTheirDeadline(t *testing.T) {
	got := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		got <- r.Context().Err()
	})
	addr := startHTTPServer(t, h, timeouts{header: 5 * time.Second, read: 5 * time.Second, request: 50 * time.Millisecond, idle: 5 * time.Second})
	res, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if err := <-got; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the request's context ended with %v, want the deadline", err)
	}
}
