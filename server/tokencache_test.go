package server

import (
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// A token lookup is kept tokenCacheTTL and no longer: an expired or revoked token stops
// authenticating on every node within it (TestCreateIntegrationInstallationToken asks a node with
// nothing cached).
func TestTokenCacheEntriesExpire(t *testing.T) {
	t.Parallel()
	c := &tokenCache{entries: map[string]tokenEntry{}}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	u := &store.User{ID: "u1"}
	c.put("known", u, t0)
	c.put("unknown", nil, t0)
	if got, ok := c.get("known", t0.Add(tokenCacheTTL)); !ok || got != u {
		t.Errorf("at the TTL: %v, %v; want the user, cached", got, ok)
	}
	if got, ok := c.get("unknown", t0.Add(tokenCacheTTL)); !ok || got != nil {
		t.Errorf("an unknown token at the TTL: %v, %v; want nil, cached", got, ok)
	}
	for _, key := range []string{"known", "unknown"} {
		if got, ok := c.get(key, t0.Add(tokenCacheTTL+time.Millisecond)); ok {
			t.Errorf("%s past the TTL: %v, still cached", key, got)
		}
	}
	if tokenCacheTTL > 10*time.Second {
		t.Errorf("tokenCacheTTL %v: a revoked token would authenticate on other nodes for longer than ten seconds", tokenCacheTTL)
	}
}
