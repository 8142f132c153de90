package jobs_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/sqlite"
	"github.com/quire-docs/quire/store/storetest"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func mustOpen(t *testing.T, path string, c *clock) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Clock = c.Now
	return st
}

// A job scheduled before a restart runs after it, when its time comes.
func TestJobsSurviveRestart(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/quire.db"
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	st := mustOpen(t, path, c)
	if err := st.EnqueueJob(ctx, "note", `{"n":1}`, c.now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	st.Close()

	st = mustOpen(t, path, c)
	defer st.Close()
	var ran []string
	r := &jobs.Runner{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Handlers: map[string]jobs.Handler{
		"note": {Run: func(_ context.Context, payload string) error { ran = append(ran, payload); return nil }},
	}}
	if n, err := r.RunDue(ctx); err != nil || n != 0 {
		t.Fatalf("before its time: ran %d, err %v", n, err)
	}
	c.now = c.now.Add(2 * time.Hour)
	if n, err := r.RunDue(ctx); err != nil || n != 1 || len(ran) != 1 || ran[0] != `{"n":1}` {
		t.Fatalf("ran %d %v, err %v", n, ran, err)
	}
	if n, _ := r.RunDue(ctx); n != 0 {
		t.Fatalf("a done job ran again")
	}
}

// A failing job is retried later with backoff, then given up after its attempts.
func TestFailingJobIsRetriedThenGivenUp(t *testing.T) {
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	st := mustOpen(t, t.TempDir()+"/quire.db", c)
	defer st.Close()
	attempts := 0
	r := &jobs.Runner{Store: st, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Handlers: map[string]jobs.Handler{
		"flaky": {MaxAttempts: 3, Run: func(context.Context, string) error { attempts++; return errors.New("down") }},
	}}
	if err := st.EnqueueJob(ctx, "flaky", "{}", c.now); err != nil {
		t.Fatal(err)
	}
	r.RunDue(ctx)
	if n, _ := r.RunDue(ctx); n != 0 {
		t.Fatal("retried at once, without backoff")
	}
	for i := 0; i < 5; i++ {
		c.now = c.now.Add(time.Hour)
		r.RunDue(ctx)
	}
	if attempts != 3 {
		t.Fatalf("attempts = %d, want 3", attempts)
	}
}

// A job whose handler panics fails (its error says so, its stack is logged) and the jobs after it
// still run: a bug in one handler does not end the process.
func TestPanickingJobFailsAlone(t *testing.T) {
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	st := mustOpen(t, t.TempDir()+"/quire.db", c)
	defer st.Close()
	var logs strings.Builder
	var failed []error
	ran := false
	r := &jobs.Runner{Store: st, Log: slog.New(slog.NewTextHandler(&logs, nil)), Handlers: map[string]jobs.Handler{
		"broken": {MaxAttempts: 1, Run: func(context.Context, string) error { var m map[string]int; m["x"]++; return nil }},
		"fine":   {Run: func(context.Context, string) error { ran = true; return nil }},
	}, Observe: func(kind string, err error) {
		if err != nil {
			failed = append(failed, err)
		}
	}}
	for _, kind := range []string{"broken", "fine"} {
		if err := st.EnqueueJob(ctx, kind, "{}", c.now); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := r.RunDue(ctx); err != nil || n != 2 {
		t.Fatalf("RunDue: %d, %v", n, err)
	}
	if !ran || len(failed) != 1 || !strings.Contains(failed[0].Error(), "panicked: assignment to entry in nil map") {
		t.Fatalf("ran %v, failures %v", ran, failed)
	}
	if !strings.Contains(logs.String(), "msg=panic") || !strings.Contains(logs.String(), "runner_test.go") {
		t.Fatalf("the panic is not logged with its stack: %s", logs.String())
	}
}

// The purge job is recurring: started once, it reschedules itself, and removes only spaces
// deleted more than 7 days ago.
func TestPurgeJobRemovesOnlyExpiredSpaces(t *testing.T) {
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	st := mustOpen(t, t.TempDir()+"/quire.db", c)
	defer st.Close()
	o := storetest.MustOwner(t, st, "a@example.com")
	u, org := o.User, o.Org
	// An app session that will have expired when the job runs: the same sweep deletes it.
	if _, _, err := st.CreateSession(ctx, o.Token, time.Hour); err != nil {
		t.Fatal(err)
	}
	old, _ := st.CreateSpace(ctx, org.ID, u.ID, store.SpaceCreate{Title: "old"})
	recent, _ := st.CreateSpace(ctx, org.ID, u.ID, store.SpaceCreate{Title: "recent"})
	st.DeleteSpace(ctx, old.ID)
	c.now = c.now.Add(5 * 24 * time.Hour)
	st.DeleteSpace(ctx, recent.ID)
	c.now = c.now.Add(3 * 24 * time.Hour) // old: deleted 8 days ago; recent: 3 days ago

	r := jobs.New(st, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(ctx); err != nil { // a restart does not double the recurring job
		t.Fatal(err)
	}
	if n, err := r.RunDue(ctx); err != nil || n != 1 {
		t.Fatalf("ran %d jobs, err %v", n, err)
	}
	if _, err := st.FindSpace(ctx, old.ID); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("old space: err = %v, want not found", err)
	}
	if _, err := st.FindSpace(ctx, recent.ID); err != nil {
		t.Fatalf("recent space purged: %v", err)
	}
	if n, err := st.PurgeExpiredSessions(ctx); err != nil || n != 0 {
		t.Fatalf("the purge job left %d expired sessions (%v)", n, err)
	}
	c.now = c.now.Add(time.Hour)
	if n, _ := r.RunDue(ctx); n != 1 {
		t.Fatalf("the purge job did not reschedule itself: ran %d", n)
	}
}
