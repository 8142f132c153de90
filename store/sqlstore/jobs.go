package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/quire-docs/quire/store"
)

// EnqueueJob schedules a job to run at runAt.
func (s *Store) EnqueueJob(ctx context.Context, kind, payload string, runAt time.Time) error {
	return s.write(ctx, func(tx *Tx) error {
		return enqueueJob(ctx, tx, kind, payload, runAt)
	})
}

func enqueueJob(ctx context.Context, tx *Tx, kind, payload string, runAt time.Time) error {
	now := formatTime(tx.now)
	if _, err := tx.ExecContext(ctx, `INSERT INTO jobs (kind, payload, run_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		kind, payload, formatTime(runAt), now, now); err != nil {
		return fmt.Errorf("store: unable to enqueue job: %w", err)
	}
	return nil
}

// EnsureJob schedules a job of a kind to run now unless one of that kind is already pending:
// how recurring jobs are started once and never doubled across restarts.
func (s *Store) EnsureJob(ctx context.Context, kind string) error {
	return s.write(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM jobs WHERE kind = ? AND state = 'pending'`, kind).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to check jobs: %w", err)
		}
		if n > 0 {
			return nil
		}
		return enqueueJob(ctx, tx, kind, "{}", tx.now)
	})
}

// jobLease is how long a claimed job stays out of other runners' reach: a runner that dies
// before it records the outcome leaves the job to be claimed again once the lease runs out.
const jobLease = 10 * time.Minute

// DueJobs claims up to limit pending jobs whose time has come, oldest first: their run_at moves
// a lease ahead, so no other runner (another node on PostgreSQL) claims them meanwhile; FinishJob
// records the outcome. On PostgreSQL the rows are taken FOR UPDATE SKIP LOCKED, so runners of
// several nodes claiming at once each take other jobs instead of waiting on each other.
func (s *Store) DueJobs(ctx context.Context, limit int) ([]store.Job, error) {
	var out []store.Job
	err := s.write(ctx, func(tx *Tx) error {
		out = nil
		q := `SELECT id, kind, payload, run_at, attempts FROM jobs
			WHERE state = 'pending' AND run_at <= ? ORDER BY run_at, id LIMIT ?`
		if tx.d.postgres {
			q += ` FOR UPDATE SKIP LOCKED`
		}
		var err error
		out, err = queryAll(ctx, tx, "due jobs", q, []any{formatTime(tx.now), limit}, func(sc scanner) (store.Job, error) {
			var j store.Job
			var runAt string
			err := sc.Scan(&j.ID, &j.Kind, &j.Payload, &runAt, &j.Attempts)
			j.RunAt = parseTime(runAt)
			return j, err
		})
		if err != nil {
			return err
		}
		for _, j := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE jobs SET run_at = ?, updated_at = ? WHERE id = ?`,
				formatTime(tx.now.Add(jobLease)), formatTime(tx.now), j.ID); err != nil {
				return fmt.Errorf("store: unable to claim job: %w", err)
			}
		}
		return nil
	})
	return out, err
}

// FinishJob records a job's outcome. A job that failed is retried at retryAt until maxAttempts,
// then marked failed; next, when set, schedules the job's next run (recurring jobs).
func (s *Store) FinishJob(ctx context.Context, j store.Job, runErr error, retryAt time.Time, maxAttempts int, next *time.Time) error {
	return s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		attempts := j.Attempts + 1
		var err error
		switch {
		case runErr == nil:
			_, err = tx.ExecContext(ctx, `UPDATE jobs SET state = 'done', attempts = ?, updated_at = ? WHERE id = ?`, attempts, now, j.ID)
		case attempts < maxAttempts:
			_, err = tx.ExecContext(ctx, `UPDATE jobs SET attempts = ?, last_error = ?, run_at = ?, updated_at = ? WHERE id = ?`,
				attempts, runErr.Error(), formatTime(retryAt), now, j.ID)
		default:
			_, err = tx.ExecContext(ctx, `UPDATE jobs SET state = 'failed', attempts = ?, last_error = ?, updated_at = ? WHERE id = ?`,
				attempts, runErr.Error(), now, j.ID)
		}
		if err != nil {
			return fmt.Errorf("store: unable to finish job: %w", err)
		}
		if next != nil && (runErr == nil || attempts >= maxAttempts) {
			return enqueueJob(ctx, tx, j.Kind, j.Payload, *next)
		}
		return nil
	})
}

// Setting returns a stored server setting, or "" when unset.
func (s *Store) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.reader.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to read setting: %w", err)
	}
	return v, nil
}

// EnsureSetting stores value under key unless the key has one, and returns the stored value.
func (s *Store) EnsureSetting(ctx context.Context, key, value string) (string, error) {
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING`, key, value); err != nil {
			return fmt.Errorf("store: unable to store setting: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return s.Setting(ctx, key)
}
