package server

// What a content batch's parts share: the error that names the change at fault, and a page's
// metadata as the batch and its front matter give it.

import "github.com/quire-docs/quire/store"

// batchError is a 400 naming the change (and field) at fault.
func batchError(i int, field, format string, args ...any) error {
	return store.ChangeError(i, store.FieldErrorf(field, format, args...))
}

// pageMeta is the metadata fields every page operation shares (RevisionPageUpdate).
type pageMeta struct {
	Title, Slug, Emoji, Icon, Description, Condition *string
	Hidden, NoIndex, NoRobotsIndex                   *bool
}
