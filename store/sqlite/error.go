package sqlite

import (
	"github.com/quire-docs/quire/store"
)

// ErrNotFound is the not-found error for a kind of thing, named in the message.
func notFound(what string) *store.Error { return store.Errorf(store.ENOTFOUND, "%s not found.", what) }
