package access

import (
	"context"

	"github.com/quire-docs/quire/store"
)

type callerKey struct{}

// WithCaller returns a context whose requests are made by u (a user, or an installation's caller
// with InstallationID set).
func WithCaller(ctx context.Context, u *store.User) context.Context {
	return context.WithValue(ctx, callerKey{}, u)
}

// Caller returns the authenticated caller of a request; nil when none authenticated.
func Caller(ctx context.Context) *store.User {
	u, _ := ctx.Value(callerKey{}).(*store.User)
	return u
}
