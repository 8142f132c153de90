package store

import "strings"

// Pointer names a sibling: a space or a collection.
type Pointer struct {
	Kind string // "space" or "collection"
	ID   string
}

// Move says where an item goes: under Parent (when SetParent; nil is the top level), just
// before or after a sibling (at the end when neither).
type Move struct {
	SetParent bool
	Parent    *string
	Before    *Pointer
	After     *Pointer
}

// Reorder places an item among its siblings: before or after the sibling whose key is before or
// after (at most one of them; at the end when neither), keys naming items as key does. siblings
// may hold the item at its old place (matched by key), which it leaves. It answers the new order
// and whether the item stays at the index it had (nothing would change).
func Reorder[T any](siblings []T, item T, key func(T) string, before, after *string) (order []T, unchanged bool, err error) {
	if before != nil && after != nil {
		return nil, false, FieldErrorf("position", "give before or after, not both")
	}
	itemKey := key(item)
	oldIndex := -1
	rest := make([]T, 0, len(siblings))
	for i, s := range siblings {
		if key(s) == itemKey {
			oldIndex, item = i, s
			continue
		}
		rest = append(rest, s)
	}
	at := len(rest)
	if ref, field := before, "position.before"; ref != nil || after != nil {
		if ref == nil {
			ref, field = after, "position.after"
		}
		if *ref == itemKey {
			return nil, false, FieldErrorf(field, "an item cannot be placed next to itself")
		}
		at = -1
		for i, s := range rest {
			if key(s) == *ref {
				at = i
			}
		}
		if at < 0 {
			_, id, _ := strings.Cut(*ref, ":")
			return nil, false, FieldErrorf(field, "%q is not a sibling of the item (it has another parent, or is not here)", id)
		}
		if after != nil {
			at++
		}
	}
	order = make([]T, 0, len(rest)+1)
	order = append(order, rest[:at]...)
	order = append(order, item)
	order = append(order, rest[at:]...)
	return order, oldIndex == at, nil
}
