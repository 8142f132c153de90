package server

import (
	"sync"
	"time"

	"github.com/quire-docs/quire/store"
)

// tokenCache keeps recent token lookups for a few seconds: the hot path of every request. Unknown
// tokens are kept too (user nil), so a client repeating an invented token costs no lookup.
// Tokens are only ever created, never changed, so a short cache is safe; a user changing their
// profile forgets their entries on this node (forgetUser), and other nodes' expire.
type tokenCache struct {
	mu      sync.Mutex
	entries map[string]tokenEntry
}

type tokenEntry struct {
	user    *store.User // nil: no such token
	expires time.Time
}

const tokenCacheTTL = 10 * time.Second

func (t *tokenCache) get(key string, now time.Time) (u *store.User, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.entries[key]
	if !ok || now.After(e.expires) {
		return nil, false
	}
	return e.user, true
}

func (t *tokenCache) put(key string, u *store.User, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.entries) > 10000 {
		t.entries = map[string]tokenEntry{}
	}
	t.entries[key] = tokenEntry{user: u, expires: now.Add(tokenCacheTTL)}
}

// forgetUser drops the entries of a user, whose profile changed.
func (t *tokenCache) forgetUser(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, e := range t.entries {
		if e.user != nil && e.user.ID == id {
			delete(t.entries, k)
		}
	}
}
