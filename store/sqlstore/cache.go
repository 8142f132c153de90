package sqlstore

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quire-docs/quire/store"
)

// Every committed write bumps the store's version; a cached read is served only while the version
// it was read at is still the current one. Any write thus invalidates every cached read at once:
// coarse, but exact, and reads of hot, rarely written rows (a space fetched by its readers) stop
// reaching the database.
//
// On SQLite one process writes, and the version is its count of commits, in memory (the `users
// create` command writes users and tokens, which no cached read includes).
//
// On PostgreSQL several nodes write, so the version is the cluster's: the sequence
// quire_data_version, which every write takes the next value of once it has committed, before
// it returns (write). A read takes the version from a query that began after the read did
// (sharedVersion), so a write that returned before the read began is counted in it, whichever
// node made it: no stale read after a write returns. The version query is shared: while one is
// on its way, every read arriving meanwhile waits for the next, one query for all of them. How
// many share one depends on how many arrive during a round trip: at 32 clients on 2 cores, with
// the database on the same machine, about two (measured: one query per two GETs), and a round
// trip is most of what a GET of a space costs on PostgreSQL. So a node serving reads holds a
// lease instead (lease.go): it renews it every few milliseconds with the count it has seen,
// checks reads against that count without asking, and writers wait until every node holding a
// lease has seen their count. The query is what a read asks when its node holds no lease.
// The bump comes after the commit, not inside the transaction: a reader taking the version
// between a bump inside the transaction and its commit would cache the old rows under the new
// count. LISTEN/NOTIFY was considered to drop entries early, but a notification arrives after the
// commit it announces and the version query is needed anyway; entries are dropped when the
// version moves on, and the cache is bounded (cacheMaxEntries).

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

// dataVersion counts this process's committed writes (the version on SQLite).
type dataVersion struct{ n atomic.Uint64 }

func (d *dataVersion) current() uint64 { return d.n.Load() }
func (d *dataVersion) bump()           { d.n.Add(1) }

// spaceForUser is a cached FindSpaceForUser answer.
type spaceForUser struct {
	space  store.Space
	role   store.Role
	member bool
}

// sharedVersion reads the cluster's write count for reads that began before the query: one query
// in flight at a time, and the reads arriving while it runs share the next one (a query already
// running may have begun before a write they must see returned).
type sharedVersion struct {
	read func(context.Context) (uint64, error) // the version query

	mu       sync.Mutex
	inflight bool
	next     *versionRound // the round the reads arriving now wait for
}

type versionRound struct {
	done    chan struct{}
	reads   int // how many reads share it (under the mutex)
	version uint64
	err     error
}

// sharedVersionTimeout bounds one version query; a read whose version cannot be had goes to the
// database instead.
const sharedVersionTimeout = 2 * time.Second

// current returns a version read by a query that began after the call did.
func (v *sharedVersion) current(ctx context.Context) (uint64, error) {
	v.mu.Lock()
	if v.next == nil {
		v.next = &versionRound{done: make(chan struct{})}
	}
	r := v.next
	r.reads++
	if !v.inflight {
		v.inflight = true
		v.next = nil
		v.mu.Unlock()
		v.run(r)
	} else {
		v.mu.Unlock()
	}
	select {
	case <-r.done:
		return r.version, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// run makes round r's query, then starts the round that gathered meanwhile, if any, on its own
// goroutine: the read that ran r returns now.
func (v *sharedVersion) run(r *versionRound) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedVersionTimeout)
	r.version, r.err = v.read(ctx)
	cancel()
	close(r.done)
	v.mu.Lock()
	next := v.next
	v.next = nil
	v.inflight = next != nil
	v.mu.Unlock()
	if next != nil {
		go v.run(next)
	}
}

// newSharedVersion is the cluster's write count in PostgreSQL's sequence, read through p.
func newSharedVersion(p *db) *sharedVersion {
	return &sharedVersion{read: func(ctx context.Context) (uint64, error) {
		var n int64
		err := p.QueryRowContext(ctx, `SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM quire_data_version`).Scan(&n)
		return uint64(n), err
	}}
}
