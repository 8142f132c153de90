package sqlite

import (
	"encoding/base64"
	"encoding/json"

	"github.com/quire-docs/quire/store"
)

// cursor is the sort key of the last item of a page: keyset pagination resumes after it, so a
// deep page costs what the first one does.
type cursor []string

func encodeCursor(keys ...string) string {
	b, _ := json.Marshal(keys)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor returns the keys of a cursor, nil for the first page, or an EINVALID error when
// the cursor was not made by encodeCursor with n keys.
func decodeCursor(s string, n int) (cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	var keys []string
	if err == nil {
		err = json.Unmarshal(b, &keys)
	}
	if err != nil || len(keys) != n {
		return nil, store.Errorf(store.EINVALID, "page: not a page cursor this list answered.")
	}
	return keys, nil
}

// finishPage trims the one extra row a list query fetched to learn whether a next page exists,
// and encodes the next cursor from the last kept item.
func finishPage[T any](items []T, limit, count int, key func(T) []string) store.List[T] {
	out := store.List[T]{Items: items, Count: count}
	if len(items) > limit {
		out.Items = items[:limit]
		out.Next = encodeCursor(key(out.Items[limit-1])...)
	}
	if out.Items == nil {
		out.Items = []T{}
	}
	return out
}
