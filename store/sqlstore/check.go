package sqlstore

import (
	"context"
	"fmt"
	"strings"
)

// CheckIntegrity runs SQLite's integrity check over the whole database and answers an error
// listing what it found, or nil when the database is sound.
func (s *Store) CheckIntegrity(ctx context.Context) error {
	if s.d.postgres {
		return s.checkPostgres(ctx)
	}
	rows, err := s.reader.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("store: unable to check integrity: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("store: unable to check integrity: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: unable to check integrity: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("store: integrity check failed: %s", strings.Join(problems, "; "))
	}
	return nil
}

// Backup writes a consistent copy of the live database to a new file at path (SQLite's VACUUM
// INTO: one read transaction, so writers, in this process or another, go on meanwhile). The file
// must not exist yet.
func (s *Store) Backup(ctx context.Context, path string) error {
	if s.d.postgres {
		return errBackupPostgres
	}
	if _, err := s.writer.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("store: unable to back up to %s: %w", path, err)
	}
	return nil
}
