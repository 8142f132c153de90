package sqlstore

import (
	"sync"

	"github.com/quire-docs/quire/store"
)

// versionCache keeps page versions read from committed rows, by id, without bodies. A version
// never changes once committed (only valid_to, which is not cached) and its id is never reused,
// so an entry cannot go stale, whichever process wrote the row: listing a large revision reads
// only the ids of its versions (a covering index scan) and decodes each row once per process.
type versionCache struct {
	mu sync.RWMutex
	m  map[int64]*cachedVersion
}

type cachedVersion struct {
	page    store.RevisionPage
	version int64
	deleted bool
}

// versionCacheMax bounds the cache (about 300 bytes an entry); past it the cache starts over.
const versionCacheMax = 400_000

// lookup returns the cached entries of ids, in their order (nil where not cached), and the ids
// not cached.
func (c *versionCache) lookup(ids []int64) ([]*cachedVersion, []int64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	found := make([]*cachedVersion, len(ids))
	var missing []int64
	for i, id := range ids {
		if e := c.m[id]; e != nil {
			found[i] = e
		} else {
			missing = append(missing, id)
		}
	}
	return found, missing
}

func (c *versionCache) add(entries map[int64]*cachedVersion) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m)+len(entries) > versionCacheMax {
		c.m = make(map[int64]*cachedVersion, len(entries))
	}
	for id, e := range entries {
		c.m[id] = e
	}
}
