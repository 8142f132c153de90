package main

import (
	"context"
	"errors"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres"
	"github.com/quire-docs/quire/store/sqlite"
)

// dbUsage is the help of every command's --db flag.
const dbUsage = "SQLite database file (created if missing), or a postgres:// URL"

// openStore opens the database db names: a postgres:// or postgresql:// URL is a PostgreSQL
// database (several quire nodes may share it), anything else a SQLite file.
func openStore(ctx context.Context, db string) (store.Store, error) {
	if postgres.IsURL(db) {
		return postgres.Open(ctx, db)
	}
	return sqlite.Open(ctx, db)
}

// errPostgresBackup answers backup and restore given a PostgreSQL URL.
var errPostgresBackup = errors.New("backup and restore copy SQLite files; back up a PostgreSQL database with pg_dump -Fc and restore it with pg_restore (see README)")
