package server

import (
	"container/list"
	"net/http"
	"sync"
)

// The page list of a space's current revision, or of a change request's, is read whole by
// clients that sync or render a space, and at 20,000 pages it is 11 MB of JSON that took most of
// a hundred milliseconds to read, convert and encode (issue 31). A revision's content never
// changes, so its encoded list is kept: the answer's bytes depend on the revision, its space (the
// pair was checked when the entry was made), the server's base URL, and the git commit the
// revision was synced with (read on every request, since an export can record one later). Every
// other read is the same for any reader of the space. Entries are evicted least recently used
// past pageListBytes; a list larger than half of that is encoded each time instead. At 100,000
// pages a list is 58 MB, which took seconds to build each time when lists over 16 MB were not
// kept: one such space fits, or several of 20,000 pages.
type pageListCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *pageListEntry, most recently used first
	items map[pageListKey]*list.Element
}

type pageListKey struct{ space, revision, commit string }

type pageListEntry struct {
	key  pageListKey
	body []byte
}

// pageListBytes bounds the cache.
const pageListBytes = 128 << 20

func newPageListCache(max int) *pageListCache {
	return &pageListCache{max: max, order: list.New(), items: map[pageListKey]*list.Element{}}
}

func (c *pageListCache) get(k pageListKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*pageListEntry).body, true
}

func (c *pageListCache) put(k pageListKey, body []byte) {
	if len(body) > c.max/2 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	c.items[k] = c.order.PushFront(&pageListEntry{k, body})
	c.size += len(body)
	for c.size > c.max {
		last := c.order.Back()
		e := last.Value.(*pageListEntry)
		c.order.Remove(last)
		delete(c.items, e.key)
		c.size -= len(e.body)
	}
}

// encodedPages is a page list's JSON, answered as it is.
type encodedPages []byte

func (b encodedPages) write(w http.ResponseWriter) error { return writeEncodedJSON(w, b) }

func (b encodedPages) VisitListPagesResponse(w http.ResponseWriter) error { return b.write(w) }

func (b encodedPages) VisitListPagesInChangeRequestResponse(w http.ResponseWriter) error {
	return b.write(w)
}
