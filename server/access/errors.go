package access

import "github.com/quire-docs/quire/store"

func forbidden(msg string) error { return store.Errorf(store.EFORBIDDEN, "%s", msg) }

// NotFoundAs renames a membership miss after the resource asked for, so an outsider's 404 says
// the same as a missing resource's.
func NotFoundAs(err error, what string) error {
	if store.ErrorCode(err) == store.ENOTFOUND {
		return store.NotFound(what)
	}
	return err
}
