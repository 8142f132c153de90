package server

import "testing"

// The page-list cache keeps a list up to half its budget (a space of 100,000 pages is 58 MB of
// a 128 MB budget), evicts the least recently used past the budget, and keeps nothing larger.
func TestPageListCacheBounds(t *testing.T) {
	c := newPageListCache(100)
	key := func(s string) pageListKey { return pageListKey{space: s, revision: "r"} }
	c.put(key("big"), make([]byte, 50))
	if _, ok := c.get(key("big")); !ok {
		t.Fatal("a list of half the budget is not kept")
	}
	c.put(key("huge"), make([]byte, 51))
	if _, ok := c.get(key("huge")); ok {
		t.Fatal("a list over half the budget is kept")
	}
	c.put(key("a"), make([]byte, 30))
	c.get(key("big")) // used more recently than a
	c.put(key("b"), make([]byte, 30))
	if _, ok := c.get(key("a")); ok {
		t.Error("the least recently used list stayed past the budget")
	}
	for _, k := range []string{"big", "b"} {
		if _, ok := c.get(key(k)); !ok {
			t.Errorf("list %s went; only the least recently used should", k)
		}
	}
	if c.size > c.max {
		t.Errorf("the cache holds %d bytes of a budget of %d", c.size, c.max)
	}
}
