package store

import (
	"context"
	"time"
)

// Job is a unit of work that outlives a request; it survives restarts in the jobs table.
type Job struct {
	ID       int64
	Kind     string
	Payload  string
	RunAt    time.Time
	Attempts int
}

// Jobs is the durable job queue and the settings the runner keeps.
type Jobs interface {
	// DueJobs claims up to limit pending jobs whose time has come, oldest first: no other
	// runner gets them until FinishJob records their outcome or a lease runs out.
	DueJobs(ctx context.Context, limit int) ([]Job, error)
	// EnqueueJob schedules a job to run at runAt.
	EnqueueJob(ctx context.Context, kind string, payload string, runAt time.Time) error
	// EnsureJob schedules a job of a kind to run now unless one of that kind is already pending:
	// how recurring jobs are started once and never doubled across restarts.
	EnsureJob(ctx context.Context, kind string) error
	// EnsureSetting stores value under key unless the key has one, and returns the stored value.
	EnsureSetting(ctx context.Context, key string, value string) (string, error)
	// FinishJob records a job's outcome. A job that failed is retried at retryAt until maxAttempts,
	// then marked failed; next, when set, schedules the job's next run (recurring jobs).
	FinishJob(ctx context.Context, j Job, runErr error, retryAt time.Time, maxAttempts int, next *time.Time) error
	// Setting returns a stored server setting, or "" when unset.
	Setting(ctx context.Context, key string) (string, error)
}
