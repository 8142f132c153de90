package jobs_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/quire-docs/quire/internal/jobs"
)

// A job queued while the loop waits for its next tick runs as soon as the runner is woken.
func TestWakeRunsQueuedJobsNow(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st := mustOpen(t, t.TempDir()+"/quire.db", &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	defer st.Close()
	ran := make(chan string, 1)
	r := jobs.New(st, slog.New(slog.NewTextHandler(io.Discard, nil)))
	r.Handlers["note"] = jobs.Handler{Run: func(_ context.Context, payload string) error { ran <- payload; return nil }}
	done := make(chan struct{})
	go func() { defer close(done); r.Loop(ctx, time.Hour) }()
	time.Sleep(50 * time.Millisecond) // the loop's first pass has found nothing
	if err := st.EnqueueJob(ctx, "note", "now", st.Now()); err != nil {
		t.Fatal(err)
	}
	r.Wake()
	select {
	case p := <-ran:
		if p != "now" {
			t.Fatalf("ran %q", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a woken runner did not run the queued job")
	}
	cancel()
	<-done
}
