package sqlstore

import (
	"context"
	"errors"
	"testing"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/quire-docs/quire/store"
)

// The package's own tests open SQLite files, so their binary links the driver that store/sqlite
// links for the program, and classifies its errors the same way (store/sqlite cannot be imported
// here: it imports this package).
func testIsUnique(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique
}

// openTestStore opens a fresh SQLite store in the test's temporary directory, closed at cleanup.
func openTestStore(tb testing.TB) *Store {
	tb.Helper()
	st, err := OpenSQLite(context.Background(), tb.TempDir()+"/quire.db", testIsUnique)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// mergeChanges merges into a space a change request of one batch of changes, as userID, and
// answers the batch's refs.
func mergeChanges(t *testing.T, st *Store, spaceID, userID string, changes ...store.PageChange) map[string]string {
	t.Helper()
	ctx := context.Background()
	cr, err := st.CreateChangeRequest(ctx, spaceID, userID, "edit")
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.UpdateChangeRequestContent(ctx, spaceID, cr.ID, userID, changes)
	if err != nil {
		t.Fatal(err)
	}
	if _, conflicts, err := st.MergeChangeRequest(ctx, spaceID, cr.ID, userID); err != nil || conflicts {
		t.Fatalf("merge: %v (conflicts %v)", err, conflicts)
	}
	return res.Refs
}
