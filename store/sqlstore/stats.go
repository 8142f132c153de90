package sqlstore

import (
	"context"
	"database/sql"

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
	out := map[string]int{}
	err := queryInto(ctx, s.reader, "pending jobs", `SELECT kind, count(*) FROM jobs WHERE state = 'pending' GROUP BY kind`, nil, out,
		func(sc scanner) (kind string, n int, err error) {
			err = sc.Scan(&kind, &n)
			return
		})
	return out, err
}
