// Package sqlite is quire's embedded backend: it links the SQLite driver (built with
// -tags sqlite_fts5) and opens the SQL store on a database file. It is the only package that
// imports go-sqlite3.
package sqlite

import (
	"context"
	"errors"

	sqlite3 "github.com/mattn/go-sqlite3" // the SQLite driver, built with -tags sqlite_fts5

	"github.com/quire-docs/quire/store/sqlstore"
)

// Store is the SQL store as it runs on SQLite.
type Store = sqlstore.Store

// Open opens (creating if needed) the database file at path and applies pending migrations.
func Open(ctx context.Context, path string) (*Store, error) {
	return sqlstore.OpenSQLite(ctx, path, IsUniqueViolation)
}

// IsUniqueViolation reports SQLite's error for a broken UNIQUE constraint.
func IsUniqueViolation(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique
}
