package store

import (
	"encoding/base64"
	"encoding/json"
)

// DefaultLimit is the page size when the caller gives none.
const DefaultLimit = 50

// Page asks for one page of a list: Cursor is the opaque `page` a previous list answered as its
// next page ("" for the first page).
type Page struct {
	Cursor string
	Limit  int
}

// List is one page of a list: the items, the total count under the same filters, and the cursor
// of the next page ("" on the last page).
type List[T any] struct {
	Items []T
	Count int
	Next  string
}

// Size is the number of items the page asks for (DefaultLimit when unset).
func (p Page) Size() int {
	if p.Limit <= 0 {
		return DefaultLimit
	}
	return p.Limit
}

// Cursor is the sort key of the last item of a page: keyset pagination resumes after it, so a
// deep page costs what the first one does.
type Cursor []string

// EncodeCursor makes the opaque cursor of a page from the sort keys of its last item.
func EncodeCursor(keys ...string) string {
	b, _ := json.Marshal(keys)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor returns the keys of a cursor, nil for the first page, or an EINVALID error when
// the cursor was not made by EncodeCursor with n keys.
func DecodeCursor(s string, n int) (Cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	var keys []string
	if err == nil {
		err = json.Unmarshal(b, &keys)
	}
	if err != nil || len(keys) != n {
		return nil, FieldErrorf("page", "not a page cursor this list answered")
	}
	return keys, nil
}

// FinishPage trims the one extra row a list query fetched to learn whether a next page exists,
// and encodes the next cursor from the last kept item.
func FinishPage[T any](items []T, limit, count int, key func(T) []string) List[T] {
	out := List[T]{Items: items, Count: count}
	if len(items) > limit {
		out.Items = items[:limit]
		out.Next = EncodeCursor(key(out.Items[limit-1])...)
	}
	if out.Items == nil {
		out.Items = []T{}
	}
	return out
}
