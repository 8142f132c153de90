package store_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDriverOutsideTheImplementation keeps the contract apart from SQL: the server, the job
// runner and store itself build without any database driver; only store/sqlite (and store/postgres) link one, over the driver-free SQL code of store/sqlstore.
func TestNoDriverOutsideTheImplementation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-tags", "sqlite_fts5", "-deps",
		"github.com/quire-docs/quire/store", "github.com/quire-docs/quire/server/...",
		"github.com/quire-docs/quire/internal/jobs/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list named only %d packages: %s", len(deps), out)
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/mattn/go-sqlite3") || strings.HasPrefix(p, "github.com/jackc/pgx") ||
			strings.HasPrefix(p, "github.com/lib/pq") || strings.HasPrefix(p, "github.com/quire-docs/quire/store/sql") || p == "github.com/quire-docs/quire/store/postgres" {
			t.Errorf("%s is a dependency of server, jobs or store: only cmd may pick a backend", p)
		}
	}
}
