package sqlstore

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store/storetest"
)

// The store stages of the GET /v1/spaces/{id} request path, on a real database file. Benchmarks
// only run with -bench (make bench).

// benchStore is a fresh store with one user (and its token), one organization and one space.
func benchStore(b *testing.B) (st *Store, token, spaceID string) {
	b.Helper()
	st = openTestStore(b)
	o := storetest.MustOwner(b, st, "bench@example.com")
	return st, o.Token, o.MustSpace(b, st, "Docs").ID
}

// BenchmarkTokenLookup is the uncached half of authentication: SHA-256 of the token and the
// indexed join of tokens and users.
func BenchmarkTokenLookup(b *testing.B) {
	st, token, _ := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		u, _, err := st.FindUserByToken(ctx, token)
		if err != nil || u.ID == "" {
			b.Fatalf("FindUserByToken: %v", err)
		}
	}
}

// BenchmarkStoreFindSpace reads one space by id through the reader pool.
func BenchmarkStoreFindSpace(b *testing.B) {
	st, _, spaceID := benchStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		sp, err := st.FindSpace(ctx, spaceID)
		if err != nil || sp.ID != spaceID {
			b.Fatalf("FindSpace: %v", err)
		}
	}
}
