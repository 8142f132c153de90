package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/quire-docs/quire/store/sqlite"
)

// A backup taken while writers are busy opens, passes the integrity check and holds every write
// acknowledged before it started; restoring it gives a database quire serves.
func TestBackupDuringWritesAndRestore(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs real server processes")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "quire.db")
	token := mustCreateUser(t, db)
	_, url := startQuire(t, db)
	status, org := call(t, "POST", url+"/v1/orgs", token, map[string]any{"title": "Acme"})
	if status != http.StatusCreated {
		t.Fatalf("create organization: %d", status)
	}
	orgID := org["id"].(string)

	var mu sync.Mutex
	var acked []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				status, c := call(t, "POST", url+"/v1/orgs/"+orgID+"/collections", token, map[string]any{"title": fmt.Sprintf("w%d-%d", w, i)})
				if status == http.StatusCreated {
					mu.Lock()
					acked = append(acked, c["id"].(string))
					mu.Unlock()
				}
			}
		}(w)
	}
	waitUntil(func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= 50 })
	mu.Lock()
	before := append([]string(nil), acked...)
	mu.Unlock()
	backupFile := filepath.Join(dir, "backup.db")
	if out, err := combinedQuire("backup", "--db", db, "--to", backupFile); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	waitUntil(func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= len(before)+10 }) // writes go on after it
	close(stop)
	wg.Wait()
	if len(before) == 0 {
		t.Fatal("no write was acknowledged before the backup")
	}

	// A second backup to the same file is refused: backups never overwrite.
	if out, err := combinedQuire("backup", "--db", db, "--to", backupFile); err == nil || !strings.Contains(string(out), "exists") {
		t.Fatalf("a backup over an existing file: %v %s", err, out)
	}

	restored := filepath.Join(dir, "restored.db")
	if out, err := combinedQuire("restore", "--from", backupFile, "--db", restored); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	if out, err := combinedQuire("restore", "--from", backupFile, "--db", restored); err == nil || !strings.Contains(string(out), "exists") {
		t.Fatalf("a restore over an existing database: %v %s", err, out)
	}
	st, err := sqlite.Open(context.Background(), restored)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CheckIntegrity(context.Background()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	_, url = startQuire(t, restored)
	for _, id := range before {
		if status, _ := call(t, "GET", url+"/v1/collections/"+id, token, nil); status != http.StatusOK {
			t.Fatalf("collection %s, acknowledged before the backup, is missing from it: %d", id, status)
		}
	}
	t.Logf("backup taken during writes holds all %d writes acknowledged before it (of %d)", len(before), len(acked))

	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte("not a database"), 0o644)
	if out, err := combinedQuire("restore", "--from", garbage, "--db", filepath.Join(dir, "x.db")); err == nil {
		t.Fatalf("restoring garbage succeeded: %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); err == nil {
		t.Fatal("a failed restore left a database behind")
	}
}
