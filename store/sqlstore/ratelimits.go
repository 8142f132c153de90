package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
)

// AddRateUsage adds what a node counted to the shared counts, one row per bucket and window, in
// one transaction (buckets in order, so two nodes adding at once wait rather than deadlock).
func (s *Store) AddRateUsage(ctx context.Context, window int64, used map[string]int) (map[string]int, error) {
	buckets := make([]string, 0, len(used))
	for b := range used {
		buckets = append(buckets, b)
	}
	slices.Sort(buckets)
	var out map[string]int
	err := s.write(ctx, func(tx *Tx) error {
		out = make(map[string]int, len(buckets))
		for _, b := range buckets {
			var total int
			if err := tx.QueryRowContext(ctx, `INSERT INTO rate_limit_windows (bucket, window_start, used) VALUES (?, ?, ?)
				ON CONFLICT (bucket, window_start) DO UPDATE SET used = rate_limit_windows.used + excluded.used
				RETURNING used`, b, window, used[b]).Scan(&total); err != nil {
				return fmt.Errorf("store: unable to count requests: %w", err)
			}
			out[b] = total
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM rate_limit_windows WHERE window_start < ?`, window-60); err != nil {
			return fmt.Errorf("store: unable to count requests: %w", err)
		}
		return nil
	})
	return out, err
}

// RateUsage reads a bucket's shared count.
func (s *Store) RateUsage(ctx context.Context, window int64, bucket string) (int, error) {
	var n int
	err := s.reader.QueryRowContext(pointRead(ctx), `SELECT used FROM rate_limit_windows WHERE bucket = ? AND window_start = ?`,
		bucket, window).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: unable to read the request count: %w", err)
	}
	return n, nil
}
