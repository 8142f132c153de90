package sqlstore

import (
	"sync"
	"sync/atomic"

	"github.com/quire-docs/quire/store"
)

// Every committed write bumps the store's version; a cached read is served only while the version
// it was read at is still the current one. Any write thus invalidates every cached read at once:
// coarse, but exact, and reads of hot, rarely written rows (a space fetched by its readers) stop
// touching SQLite. Only this process writes the content tables (the `users create` command writes
// users and tokens, which no cached read includes).
//
// On PostgreSQL several nodes write, and this process does not see their commits: the cache is
// off there. Invalidating it through LISTEN/NOTIFY was the alternative, but a notification
// arrives after the commit it announces, so a read on another node in between would still be
// served stale; the query it saves is one indexed row.

type versionedCache[V any] struct {
	mu      sync.Mutex
	entries map[string]versioned[V]
}

type versioned[V any] struct {
	version uint64
	value   V
}

const cacheMaxEntries = 20000

func (c *versionedCache[V]) get(key string, current uint64) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || e.version != current {
		var zero V
		return zero, false
	}
	return e.value, true
}

func (c *versionedCache[V]) put(key string, version uint64, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= cacheMaxEntries {
		c.entries = make(map[string]versioned[V])
	}
	c.entries[key] = versioned[V]{version: version, value: v}
}

// dataVersion counts committed writes.
type dataVersion struct{ n atomic.Uint64 }

func (d *dataVersion) current() uint64 { return d.n.Load() }
func (d *dataVersion) bump()           { d.n.Add(1) }

// spaceForUser is a cached FindSpaceForUser answer.
type spaceForUser struct {
	space  store.Space
	role   store.Role
	member bool
}
