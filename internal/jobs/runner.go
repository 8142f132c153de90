// Package jobs runs the work that outlives a request: durable jobs kept in the store, claimed by
// one in-process runner when their time comes.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/store"
)

// Kinds of job.
const (
	// PurgeDeletedSpaces removes spaces deleted more than 7 days ago, and expired app sessions; it
	// reschedules itself hourly.
	PurgeDeletedSpaces = "purge_deleted_spaces"
)

// Handler does one job.
type Handler struct {
	Run func(ctx context.Context, payload string) error
	// Every, when set, makes the job recurring: the next run is scheduled that long after this one.
	Every       time.Duration
	MaxAttempts int
}

// Queue is what a runner reads and writes: the job queue, on the store's clock.
type Queue interface {
	store.Jobs
	store.Clock
}

// Store is what quire's own job handlers use besides the queue: conversation analysis,
// translation runs, and the hourly purge of deleted spaces and expired app sessions.
type Store interface {
	Queue
	translate.Store
	store.Conversations
	PurgeDeletedSpaces(ctx context.Context) (int, error)
	PurgeExpiredSessions(ctx context.Context) (int, error)
}

// Runner claims due jobs from the store and runs them.
type Runner struct {
	Store    Queue
	Log      *slog.Logger
	Handlers map[string]Handler
	// Observe, when set, is told of every run (the metrics' hook).
	Observe func(kind string, err error)

	// st is what New was given, for the handlers Translations adds.
	st Store

	wakeOnce sync.Once
	wake     chan struct{}
}

// Translations makes a runner made by New run translation jobs through a translator; with none
// (nil), each queued run ends with that reason.
func (r *Runner) Translations(c translate.Translator) {
	r.Handlers[store.TranslationRunJob] = Handler{MaxAttempts: 1,
		Run: (&translate.Runner{Store: r.st, Client: c, Log: r.Log}).Run}
}

// Start schedules the recurring jobs that are not yet pending.
func (r *Runner) Start(ctx context.Context) error {
	for kind, h := range r.Handlers {
		if h.Every > 0 {
			if err := r.Store.EnsureJob(ctx, kind); err != nil {
				return err
			}
		}
	}
	return nil
}

// RunDue runs every job whose time has come and returns how many ran.
func (r *Runner) RunDue(ctx context.Context) (int, error) {
	jobs, err := r.Store.DueJobs(ctx, 100)
	if err != nil {
		return 0, err
	}
	for _, j := range jobs {
		h, ok := r.Handlers[j.Kind]
		var runErr error
		if !ok {
			runErr = fmt.Errorf("no handler for job kind %q", j.Kind)
		} else {
			runErr = r.run(ctx, h, j)
		}
		if r.Observe != nil {
			r.Observe(j.Kind, runErr)
		}
		if runErr != nil {
			r.Log.Error("job failed", "kind", j.Kind, "id", j.ID, "attempt", j.Attempts+1, "err", runErr)
		}
		now := r.Store.Now()
		maxAttempts := h.MaxAttempts
		if maxAttempts == 0 {
			maxAttempts = 5
		}
		backoff := time.Duration(1<<min(j.Attempts, 10)) * 30 * time.Second
		var next *time.Time
		if h.Every > 0 {
			t := now.Add(h.Every)
			next = &t
		}
		if err := r.Store.FinishJob(ctx, j, runErr, now.Add(backoff), maxAttempts, next); err != nil {
			return 0, err
		}
	}
	return len(jobs), nil
}

// run runs one job. A handler's panic is a bug: it fails the job (retried as any failure is, its
// error saying so) and is logged with its stack, instead of ending the process and every other
// job with it.
func (r *Runner) run(ctx context.Context, h Handler, j store.Job) (err error) {
	defer func() {
		if v := recover(); v != nil {
			r.Log.Error("panic", "job", j.Kind, "id", j.ID, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			err = fmt.Errorf("the job panicked: %v", v)
		}
	}()
	return h.Run(ctx, j.Payload)
}

// Wake makes a running Loop look for due jobs now rather than at its next tick (a job was just
// queued).
func (r *Runner) Wake() {
	select {
	case r.wakeChan() <- struct{}{}:
	default: // a wake-up is already waiting
	}
}

// Loop runs due jobs every interval, and when woken (Wake, WakeAfter), until ctx ends.
func (r *Runner) Loop(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := r.RunDue(ctx); err != nil && ctx.Err() == nil {
			r.Log.Error("job runner", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.wakeChan():
		}
	}
}

// WakeAfter makes a running Loop look for due jobs after d, rather than at its next tick: how a
// job enqueued by a request runs promptly.
func (r *Runner) WakeAfter(d time.Duration) {
	time.AfterFunc(d, r.Wake)
}

func (r *Runner) wakeChan() chan struct{} {
	r.wakeOnce.Do(func() { r.wake = make(chan struct{}, 1) })
	return r.wake
}
