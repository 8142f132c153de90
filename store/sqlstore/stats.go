package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// PoolStats reports the use of the database's connection pools, by name.
func (s *Store) PoolStats() map[string]store.PoolStats {
	return map[string]store.PoolStats{"writer": poolStats(s.writer.Stats()), "reader": poolStats(s.reader.Stats())}
}

func poolStats(s sql.DBStats) store.PoolStats {
	return store.PoolStats{InUse: s.InUse, Idle: s.Idle, WaitCount: s.WaitCount}
}

// PendingJobs counts the jobs waiting to run, by kind.
func (s *Store) PendingJobs(ctx context.Context) (map[string]int, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT kind, count(*) FROM jobs WHERE state = 'pending' GROUP BY kind`)
	if err != nil {
		return nil, fmt.Errorf("store: unable to count pending jobs: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			return nil, fmt.Errorf("store: unable to count pending jobs: %w", err)
		}
		out[kind] = n
	}
	return out, rows.Err()
}
