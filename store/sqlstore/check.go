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
	lines, err := queryAll(ctx, s.reader, "the integrity check", `PRAGMA integrity_check`, nil, scanString)
	if err != nil {
		return err
	}
	var problems []string
	for _, line := range lines {
		if line != "ok" {
			problems = append(problems, line)
		}
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
