package postgres

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver

	"github.com/quire-docs/quire/store/sqlstore"
)

// Store is the SQL store as it runs on PostgreSQL.
type Store = sqlstore.Store

// Open connects to the database at url (postgres://user:pass@host:5432/db?sslmode=…) and
// applies pending migrations under an advisory lock.
func Open(ctx context.Context, url string) (*Store, error) {
	st, err := sqlstore.OpenPostgres(ctx, "pgx", url)
	if err == nil {
		// Statements run with this first are sent unnamed: planned with their values each time.
		st.PlanEachTime(pgx.QueryExecModeCacheDescribe)
	}
	return st, err
}

// IsURL reports whether db names a PostgreSQL database (a postgres:// or postgresql:// URL)
// rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}
