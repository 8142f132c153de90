package sqlstore

import (
	"context"
	"errors"
	"fmt"
)

// errBackupPostgres answers a backup asked of a PostgreSQL store: the database's own tools take
// consistent copies while nodes keep writing, and restore them.
var errBackupPostgres = errors.New("store: quire backup copies SQLite files; back up a PostgreSQL database with pg_dump (pg_dump -Fc -f quire.dump URL) and restore it with pg_restore")

// checkPostgres checks what PostgreSQL does not check itself for quire: that every migration
// this binary knows has been applied. (Pages and indexes are PostgreSQL's own to keep sound.)
func (s *Store) checkPostgres(ctx context.Context) error {
	pending, err := pendingMigrations(ctx, s.reader.DB, true)
	if err != nil {
		return fmt.Errorf("store: unable to check integrity: %w", err)
	}
	if len(pending) > 0 {
		return fmt.Errorf("store: integrity check failed: migration %s is not applied", pending[0].name)
	}
	return nil
}
