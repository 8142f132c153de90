package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/quire-docs/quire/store"
)

const spaceGitColumns = `space_id, url, ref, project_directory, provider, tree_url, commit_url, sealed_credentials,
	last_commit, op_state, op_direction, op_started_at, op_ended_at, op_error, request_timestamp, updated_at,
	synced_revision, sealed_webhook_secret, created_by, ssh_host_key`

func scanSpaceGit(sc scanner) (*store.SpaceGit, error) {
	var g store.SpaceGit
	var state, direction, started, ended, stamp sql.NullString
	var opError, updated string
	if err := sc.Scan(&g.SpaceID, &g.URL, &g.Ref, &g.ProjectDirectory, &g.Provider, &g.TreeURL, &g.CommitURL,
		&g.SealedCredentials, &g.LastCommit, &state, &direction, &started, &ended, &opError, &stamp, &updated,
		&g.SyncedRevision, &g.SealedWebhookSecret, &g.CreatedBy, &g.SSHHostKey); err != nil {
		return nil, err
	}
	g.UpdatedAt = parseTime(updated)
	if state.Valid {
		g.Operation = &store.GitOperation{State: state.String, Direction: direction.String, StartedAt: parseTime(started.String),
			Error: opError}
		if ended.Valid {
			t := parseTime(ended.String)
			g.Operation.EndedAt = &t
		}
	}
	if stamp.Valid {
		t := parseTime(stamp.String)
		g.Timestamp = &t
	}
	return &g, nil
}

// FindSpaceGit returns a space's git state; a run past its time reads as timed out.
func (s *Store) FindSpaceGit(ctx context.Context, spaceID string) (*store.SpaceGit, error) {
	g, err := findSpaceGit(ctx, s.reader, spaceID)
	if err != nil {
		return nil, err
	}
	if op := g.Operation; op != nil && op.State == store.GitRunning && s.Now().Sub(op.StartedAt) > store.GitOperationTimeout {
		op.State = store.GitTimeout
	}
	return g, nil
}

func findSpaceGit(ctx context.Context, q querier, spaceID string) (*store.SpaceGit, error) {
	g, err := scanSpaceGit(q.QueryRowContext(ctx, `SELECT `+spaceGitColumns+` FROM space_git WHERE space_id = ?`, spaceID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Git Sync")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find a space's git state: %w", err)
	}
	return g, nil
}

func nullTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return formatTime(*t)
}

// StartGitOperation records a run as running and queues its job.
func (s *Store) StartGitOperation(ctx context.Context, g *store.SpaceGit, job store.GitJob) error {
	raw, err := json.Marshal(job)
	if err != nil {
		return err
	}
	payload := string(raw)
	return s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		old, err := findSpaceGit(ctx, tx, g.SpaceID)
		switch {
		case store.ErrorCode(err) == store.ENOTFOUND:
			if _, err := tx.ExecContext(ctx, `INSERT INTO space_git (space_id, url, ref, project_directory, provider, tree_url,
				commit_url, sealed_credentials, sealed_webhook_secret, created_by, ssh_host_key, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				g.SpaceID, g.URL, g.Ref, g.ProjectDirectory, g.Provider, g.TreeURL, g.CommitURL, g.SealedCredentials,
				g.SealedWebhookSecret, job.User, g.SSHHostKey, now); err != nil {
				return fmt.Errorf("store: unable to record a space's git link: %w", err)
			}
		case err != nil:
			return err
		default:
			if op := old.Operation; op != nil && op.State == store.GitRunning && tx.now.Sub(op.StartedAt) <= store.GitOperationTimeout {
				return store.Errorf(store.ECONFLICT, "A git %s of the space is running since %s.", op.Direction, op.StartedAt.Format(time.RFC3339))
			}
			if job.Timestamp != nil && old.Timestamp != nil && job.Timestamp.Before(*old.Timestamp) {
				return store.ErrorAt(store.ECONFLICT, "timestamp", "is older than the space's latest git request (%s)", old.Timestamp.Format(time.RFC3339Nano))
			}
			if !job.Standalone {
				if _, err := tx.ExecContext(ctx, `UPDATE space_git SET url = ?, ref = ?, project_directory = ?, provider = ?,
					tree_url = ?, commit_url = ?, sealed_credentials = ?, ssh_host_key = ?, updated_at = ? WHERE space_id = ?`,
					g.URL, g.Ref, g.ProjectDirectory, g.Provider, g.TreeURL, g.CommitURL, g.SealedCredentials, g.SSHHostKey, now, g.SpaceID); err != nil {
					return fmt.Errorf("store: unable to update a space's git link: %w", err)
				}
			}
		}
		return startGitRun(ctx, tx, job, payload)
	})
}

// startGitRun marks the space's run running and queues its job.
func startGitRun(ctx context.Context, tx *Tx, job store.GitJob, payload string) error {
	direction := job.Direction
	switch direction {
	case store.GitPull:
		direction = store.GitImport
	case store.GitPush:
		direction = store.GitExport
	}
	if _, err := tx.ExecContext(ctx, `UPDATE space_git SET op_state = ?, op_direction = ?, op_started_at = ?, op_ended_at = NULL,
		op_error = '', request_timestamp = COALESCE(?, request_timestamp) WHERE space_id = ?`,
		store.GitRunning, direction, formatTime(tx.now), nullTime(job.Timestamp), job.Space); err != nil {
		return fmt.Errorf("store: unable to start a git run: %w", err)
	}
	return enqueueJob(ctx, tx, store.GitSyncJob, payload, tx.now)
}

// QueueGitRun records a run of the space's link as running and queues it.
func (s *Store) QueueGitRun(ctx context.Context, job store.GitJob) error {
	raw, err := json.Marshal(job)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *Tx) error {
		if _, err := findSpaceGit(ctx, tx, job.Space); err != nil {
			return err
		}
		return startGitRun(ctx, tx, job, string(raw))
	})
}

// FindGitLinks returns every space's git link, by space.
func (s *Store) FindGitLinks(ctx context.Context) ([]*store.SpaceGit, error) {
	return queryAll(ctx, s.reader, "git links", `SELECT `+spaceGitColumns+` FROM space_git ORDER BY space_id`, nil, scanSpaceGit)
}

// SetGitHostKey records the SSH host key first seen for the space's link.
func (s *Store) SetGitHostKey(ctx context.Context, spaceID, url, hostKey string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := findSpaceGit(ctx, tx, spaceID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE space_git SET ssh_host_key = ? WHERE space_id = ? AND url = ? AND ssh_host_key = ''`,
			hostKey, spaceID, url); err != nil {
			return fmt.Errorf("store: unable to record a git link's host key: %w", err)
		}
		return nil
	})
}

// FinishGitOperation ends the space's run.
func (s *Store) FinishGitOperation(ctx context.Context, spaceID, failure, lastCommit, syncedRevision string) error {
	state := store.GitSuccess
	if failure != "" {
		state = store.GitFailure
	}
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE space_git SET op_state = ?, op_ended_at = ?, op_error = ?,
			last_commit = CASE WHEN ? = '' THEN last_commit ELSE ? END,
			synced_revision = CASE WHEN ? = '' THEN synced_revision ELSE ? END WHERE space_id = ?`,
			state, formatTime(tx.now), failure, lastCommit, lastCommit, syncedRevision, syncedRevision, spaceID)
		if err != nil {
			return fmt.Errorf("store: unable to finish a git run: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Git Sync")
		}
		return nil
	})
}

// SetRevisionGit records the commit of a revision and its pages' files.
func (s *Store) SetRevisionGit(ctx context.Context, revisionID string, c store.GitCommit, pages map[string]store.GitBlob) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM revision_page_git WHERE revision_id = ?`, revisionID); err != nil {
			return fmt.Errorf("store: unable to record a revision's git files: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM revision_git WHERE revision_id = ?`, revisionID); err != nil {
			return fmt.Errorf("store: unable to record a revision's git commit: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO revision_git (revision_id, oid, message, created_by_gitbook, url, ref)
			VALUES (?, ?, ?, ?, ?, ?)`, revisionID, c.OID, c.Message, boolInt(c.CreatedByGitBook), c.URL, c.Ref); err != nil {
			return fmt.Errorf("store: unable to record a revision's git commit: %w", err)
		}
		for id, b := range pages {
			if _, err := tx.ExecContext(ctx, `INSERT INTO revision_page_git (revision_id, page_id, oid, path) VALUES (?, ?, ?, ?)`,
				revisionID, id, b.OID, b.Path); err != nil {
				return fmt.Errorf("store: unable to record a page's git file: %w", err)
			}
		}
		return nil
	})
}

// FindRevisionGit returns a revision's commit and its pages' files.
func (s *Store) FindRevisionGit(ctx context.Context, revisionID string) (*store.GitCommit, map[string]store.GitBlob, error) {
	c, err := findRevisionCommit(ctx, s.reader, revisionID)
	if c == nil || err != nil {
		return nil, nil, err
	}
	pages := map[string]store.GitBlob{}
	rows, err := s.reader.QueryContext(ctx, `SELECT page_id, oid, path FROM revision_page_git WHERE revision_id = ?`, revisionID)
	if err != nil {
		return nil, nil, fmt.Errorf("store: unable to find a revision's git files: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var b store.GitBlob
		if err := rows.Scan(&id, &b.OID, &b.Path); err != nil {
			return nil, nil, err
		}
		pages[id] = b
	}
	return c, pages, rows.Err()
}

// FindRevisionCommit returns a revision's commit, from the cache while no write was made since.
func (s *Store) FindRevisionCommit(ctx context.Context, revisionID string) (*store.GitCommit, error) {
	return cachedRead(ctx, s, &s.commitCache, revisionID, func() (*store.GitCommit, error) {
		return findRevisionCommit(ctx, s.reader, revisionID)
	})
}

func findRevisionCommit(ctx context.Context, q querier, revisionID string) (*store.GitCommit, error) {
	var c store.GitCommit
	var by int
	err := q.QueryRowContext(pointRead(ctx), `SELECT oid, message, created_by_gitbook, url, ref FROM revision_git WHERE revision_id = ?`,
		revisionID).Scan(&c.OID, &c.Message, &by, &c.URL, &c.Ref)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find a revision's git commit: %w", err)
	}
	c.CreatedByGitBook = by != 0
	return &c, nil
}
