package sqlstore

// Opening a store on either engine: the connection pools, then the pending migrations.

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"
)

// OpenSQLite opens (creating if needed) the SQLite database file at dbPath and applies pending
// migrations. The driver ("sqlite3", built with -tags sqlite_fts5) is linked by store/sqlite, the
// one package that picks it, which also says which of its errors is a UNIQUE violation
// (isUnique); this package knows SQL, not drivers.
func OpenSQLite(ctx context.Context, dbPath string, isUnique func(error) bool) (*Store, error) {
	writer, err := sql.Open("sqlite3", sqliteDSN(dbPath, "_journal_mode", "WAL", "_synchronous", "FULL", "_txlock", "immediate"))
	if err != nil {
		return nil, fmt.Errorf("store: unable to open %s: %w", dbPath, err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	if err := writer.PingContext(ctx); err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: unable to open %s: %w", dbPath, err)
	}
	// The writer checkpoints by itself only past the backstop; a goroutine does it after commits
	// (checkpoint.go).
	if _, err := writer.ExecContext(ctx, fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, walBackstopPages)); err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: unable to open %s: %w", dbPath, err)
	}
	d := &dialect{isUnique: isUnique}
	s := &Store{writer: newDB(writer, d), d: d, Clock: func() time.Time { return time.Now().UTC() }}
	if err := s.migrate(ctx); err != nil {
		writer.Close()
		return nil, err
	}
	checkpoints, err := sql.Open("sqlite3", sqliteDSN(dbPath))
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("store: unable to open %s: %w", dbPath, err)
	}
	checkpoints.SetMaxOpenConns(1)
	checkpoints.SetMaxIdleConns(1)
	checkpoints.SetConnMaxLifetime(0)
	s.checkpointer = newWALCheckpointer(checkpoints)
	reader, err := sql.Open("sqlite3", sqliteDSN(dbPath, "mode", "ro", "_query_only", "1"))
	if err != nil {
		s.checkpointer.close()
		writer.Close()
		return nil, fmt.Errorf("store: unable to open readers on %s: %w", dbPath, err)
	}
	reader.SetMaxOpenConns(8)
	reader.SetMaxIdleConns(8)
	reader.SetConnMaxLifetime(0)
	s.reader = newDB(reader, d)
	s.catchUp = &searchCatchUp{run: s.catchUpQuietly}
	return s, nil
}

// sqliteDSN is the data source name of a pool on the file at dbPath: the settings the writer and
// the readers share, then the given key-value pairs.
func sqliteDSN(dbPath string, kv ...string) string {
	q := url.Values{}
	q.Set("_foreign_keys", "1")
	q.Set("_busy_timeout", "5000")
	// go-sqlite3 keeps prepared statements per connection: re-preparing was a fifth of a read.
	q.Set("_stmt_cache_size", "64")
	// A revision's pages are read through an index and the rows it points to: a page cache that
	// holds a large space's rows (32 MiB per connection, taken only as used) keeps that in memory.
	q.Set("_cache_size", "-32768")
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return "file:" + dbPath + "?" + q.Encode()
}

// OpenPostgres opens the PostgreSQL database at dsn (a postgres:// URL) through the database/sql
// driver registered as driverName (store/postgres links pgx's), and applies pending migrations
// under an advisory lock, so nodes starting together apply them once. Several quire processes may
// share the database: nothing a process keeps in memory goes stale when another writes (the
// space cache is checked against the cluster's write count, cache.go; the page-version cache
// holds rows that never change).
func OpenPostgres(ctx context.Context, driverName, dsn string) (*Store, error) {
	pool, err := sql.Open(driverName, sessionSettings(dsn))
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
	s.shared = newSharedVersion(p)
	s.leases = newLeases(p)
	s.upkeep = &searchUpkeep{run: p.upkeepSearch}
	s.catchUp = &searchCatchUp{run: s.catchUpQuietly}
	return s, nil
}
