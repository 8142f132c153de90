package sqlstore

import (
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// The section cache answers only for the title and markdown it was given, once, and holds no more
// than its bound, dropping the oldest bodies first.
func TestSectionCache(t *testing.T) {
	var c sectionCache
	secs := []store.SearchSection{{Title: "T", Body: "text"}}
	c.put(1, "T", "text", secs)
	if _, ok := c.take(1, "Other", "text"); ok {
		t.Fatal("answered for another title")
	}
	c.put(1, "T", "text", secs)
	if _, ok := c.take(1, "T", "other text"); ok {
		t.Fatal("answered for other markdown")
	}
	c.put(1, "T", "text", secs)
	if got, ok := c.take(1, "T", "text"); !ok || len(got) != 1 || got[0].Body != "text" {
		t.Fatalf("take: %+v %v", got, ok)
	}
	if _, ok := c.take(1, "T", "text"); ok {
		t.Fatal("answered twice")
	}
	big := strings.Repeat("x", maxSectionCacheBytes/4)
	for body := int64(1); body <= 6; body++ {
		c.put(body, "T", big, nil)
	}
	if c.bytes > maxSectionCacheBytes || len(c.entries) != 3 {
		t.Fatalf("holds %d bytes in %d entries; bound %d", c.bytes, len(c.entries), maxSectionCacheBytes)
	}
	if _, ok := c.take(1, "T", big); ok {
		t.Fatal("the oldest body was kept")
	}
	if _, ok := c.take(6, "T", big); !ok {
		t.Fatal("the newest body was dropped")
	}
}
