package sqlstore

import (
	"fmt"
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

// allCached is view.all without bodies, through the cache: per element of the chain, the ids of
// the versions valid there, then the rows of those not cached yet.
func (v *view) allCached(c *versionCache) ([]*store.RevisionPage, error) {
	var out []*store.RevisionPage
	seen := map[string]bool{}
	for i, el := range v.c {
		valid, vargs := v.validAt(el)
		rows, err := v.q.QueryContext(v.ctx, `SELECT p.id FROM page_versions p WHERE `+valid, vargs...)
		if err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: unable to load pages: %w", err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		found, missing := c.lookup(ids)
		if len(missing) > 0 {
			read, err := v.versionsByID(missing)
			if err != nil {
				return nil, err
			}
			c.add(read)
			for k, id := range ids {
				if found[k] == nil {
					found[k] = read[id]
				}
			}
		}
		// One allocation for the pages of the element: a large revision makes no garbage per page.
		slab := make([]store.RevisionPage, 0, len(ids))
		for _, e := range found {
			if e == nil || seen[e.page.ID] {
				continue
			}
			if i < len(v.c)-1 {
				seen[e.page.ID] = true
			}
			if !e.deleted {
				slab = append(slab, e.page)
				out = append(out, &slab[len(slab)-1])
			}
		}
	}
	return out, nil
}

// versionsByID reads page versions by row id.
func (v *view) versionsByID(ids []int64) (map[int64]*cachedVersion, error) {
	out := make(map[int64]*cachedVersion, len(ids))
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := v.q.QueryContext(v.ctx, `SELECT `+pageColumns+`, p.id, p.deleted FROM page_versions p
			WHERE p.id IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		for rows.Next() {
			e := &cachedVersion{}
			if err := scanPage(rows, &e.page, &e.version, &e.deleted); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: unable to load pages: %w", err)
			}
			out[e.version] = e
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
	}
	return out, nil
}
