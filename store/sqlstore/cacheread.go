package sqlstore

import "context"

// cachedRead answers what read returns, from c while the version it was read at is the current
// one. The version is taken before the read, so a write during it invalidates what it reads.
// The value is shared by every read that hits it: callers must not change it.
func cachedRead[V any](ctx context.Context, s *Store, c *versionedCache[V], key string, read func() (V, error)) (V, error) {
	version, ok := s.cacheVersion(ctx)
	if ok {
		if v, hit := c.get(key, version); hit {
			return v, nil
		}
	}
	v, err := read()
	if err == nil && ok {
		c.put(key, version, v)
	}
	return v, err
}

// cacheVersion is the version a cached read is checked against: on SQLite this process's, on
// PostgreSQL the cluster's, as the node's lease last saw it (lease.go) or else asked. ok is false when it cannot be had; the read then goes to the
// database and caches nothing.
func (s *Store) cacheVersion(ctx context.Context) (version uint64, ok bool) {
	if s.shared == nil {
		return s.version.current(), true
	}
	if v, ok := s.leases.version(ctx); ok {
		return v, true
	}
	v, err := s.shared.current(ctx)
	return v, err == nil
}
