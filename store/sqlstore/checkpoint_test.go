package sqlstore

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/quire-docs/quire/store"
)

// A commit does not checkpoint the WAL itself (the writer's bound is the backstop), yet what it
// wrote reaches the database file soon after: a copy of the file alone, without its WAL, holds it.
func TestWALCheckpointedAfterCommits(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := OpenSQLite(ctx, filepath.Join(dir, "quire.db"), testIsUnique)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	var bound int
	if err := st.writer.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&bound); err != nil {
		t.Fatal(err)
	}
	if bound != walBackstopPages {
		t.Fatalf("the writer checkpoints past %d pages, want the backstop %d", bound, walBackstopPages)
	}

	u := &store.User{Email: "wal@example.com", DisplayName: "WAL"}
	if _, err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	st.checkpointer.wait()

	file, err := os.ReadFile(filepath.Join(dir, "quire.db"))
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(copyPath, file, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+copyPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE id = ?`, u.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatal("the user committed is not in the database file: the WAL was not checkpointed after the commit")
	}
}
