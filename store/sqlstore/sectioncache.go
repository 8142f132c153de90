package sqlstore

import (
	"sync"

	"github.com/quire-docs/quire/store"
)

// sectionCache keeps the search sections of the page bodies revisions wrote, from the parse that
// found their links, until the merge that indexes them: a merge of 1,000 new pages otherwise
// parsed all their markdown a second time (about a third of its CPU). It is keyed by body id and
// an entry serves only the same page title and markdown (a rolled-back body's id may come again
// with other text), so what it answers is what parsing would; a miss (another node, an evicted or
// never seen body) parses. Entries go when used or, oldest first, past maxSectionCacheBytes.
type sectionCache struct {
	mu      sync.Mutex
	entries map[int64]sectionEntry
	order   []sectionKey // insertion order, for eviction
	bytes   int
	seq     uint64
}

type sectionEntry struct {
	title, markdown string
	sections        []store.SearchSection
	size            int
	seq             uint64
}

type sectionKey struct {
	body int64
	seq  uint64
}

// maxSectionCacheBytes bounds the text the cache holds (markdown and sections): the pages of a
// few change requests of 1,000 pages.
const maxSectionCacheBytes = 32 << 20

// put keeps the sections of a body as written under a page title.
func (c *sectionCache) put(body int64, title, markdown string, sections []store.SearchSection) {
	if body == 0 {
		return
	}
	size := len(title) + len(markdown)
	for _, s := range sections {
		size += len(s.Anchor) + len(s.Title) + len(s.Body) + 48
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[int64]sectionEntry{}
	}
	c.dropLocked(body)
	c.seq++
	c.entries[body] = sectionEntry{title: title, markdown: markdown, sections: sections, size: size, seq: c.seq}
	c.order = append(c.order, sectionKey{body, c.seq})
	c.bytes += size
	for c.bytes > maxSectionCacheBytes && len(c.order) > 0 {
		k := c.order[0]
		c.order = c.order[1:]
		if e, ok := c.entries[k.body]; ok && e.seq == k.seq {
			c.dropLocked(k.body)
		}
	}
	if len(c.order) > 2*len(c.entries)+1024 { // keys of entries used or replaced pile up
		live := c.order[:0]
		for _, k := range c.order {
			if e, ok := c.entries[k.body]; ok && e.seq == k.seq {
				live = append(live, k)
			}
		}
		c.order = live
	}
}

// take answers the sections of a body for a page title and markdown, and forgets them.
func (c *sectionCache) take(body int64, title, markdown string) ([]store.SearchSection, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[body]
	if !ok {
		return nil, false
	}
	c.dropLocked(body)
	if e.title != title || e.markdown != markdown {
		return nil, false
	}
	return e.sections, true
}

func (c *sectionCache) dropLocked(body int64) {
	if e, ok := c.entries[body]; ok {
		delete(c.entries, body)
		c.bytes -= e.size
	}
}
