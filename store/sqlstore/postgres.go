package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"
)

// OpenPostgres opens the PostgreSQL database at dsn (a postgres:// URL) through the database/sql
// driver registered as driverName (store/postgres links pgx's), and applies pending migrations
// under an advisory lock, so nodes starting together apply them once. Several quire processes may
// share the database: nothing a process keeps in memory goes stale when another writes (the
// space cache is off; the page-version cache holds rows that never change).
func OpenPostgres(ctx context.Context, driverName, dsn string) (*Store, error) {
	pool, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("store: unable to open PostgreSQL at %s: %w", pgHost(dsn), err)
	}
	pool.SetMaxOpenConns(32)
	pool.SetMaxIdleConns(32)
	// Connections are recycled now and then, so a failover or a restarted server is picked up.
	pool.SetConnMaxLifetime(30 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := pool.PingContext(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: unable to reach PostgreSQL at %s: %s", pgHost(dsn), rootCause(err))
	}
	d := &dialect{postgres: true}
	p := newDB(pool, d)
	s := &Store{writer: p, reader: p, d: d, Clock: func() time.Time { return time.Now().UTC() }}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Postgres reports whether the store runs on PostgreSQL.
func (s *Store) Postgres() bool { return s.d.postgres }

// migrationLock is the advisory lock key migrations run under (any constant shared by all nodes).
const migrationLock = 0x71756972 // "quir"

// migratePostgres applies the PostgreSQL migrations on one connection holding the advisory lock:
// a node starting while another migrates waits, then finds them recorded.
func (s *Store) migratePostgres(ctx context.Context) error {
	conn, err := s.writer.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: unable to migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return fmt.Errorf("store: unable to take the migration lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)
	return applyMigrations(ctx, conn, true, s.Now())
}

// pgHost names the server of a postgres:// URL for messages (never its password).
func pgHost(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "the configured database"
	}
	host := u.Host
	if h := u.Query().Get("host"); h != "" {
		host = h
	}
	if host == "" {
		host = "localhost"
	}
	return host
}

// rootCause says on one line why a connection failed: "connection refused", "no such host",
// the server's own message ("password authentication failed …") or, failing those, the error.
func rootCause(err error) string {
	var pe interface {
		SQLState() string
		error
	}
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &pe):
		err = pe
	case errors.As(err, &dns):
		err = dns
	case errors.As(err, &op):
		if errors.Is(op.Err, context.DeadlineExceeded) || os.IsTimeout(op.Err) {
			return "timed out"
		}
		err = op.Err
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out"
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
