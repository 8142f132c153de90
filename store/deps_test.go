package store_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDriverOutsideTheImplementation keeps the contract apart from SQL: the server, the job
// runner and store itself build without any database driver or SQL code; store/sqlstore, the SQL
// both backends share, links no driver either; only store/sqlite and store/postgres link one.
func TestNoDriverOutsideTheImplementation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	deps := func(pkgs ...string) []string {
		out, err := exec.Command("go", append([]string{"list", "-tags", "sqlite_fts5", "-deps"}, pkgs...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		d := strings.Fields(string(out))
		if len(d) < 20 {
			t.Fatalf("go list named only %d packages: %s", len(d), out)
		}
		return d
	}
	driver := func(p string) bool {
		return strings.HasPrefix(p, "github.com/mattn/go-sqlite3") || strings.HasPrefix(p, "github.com/jackc/pgx") ||
			strings.HasPrefix(p, "github.com/lib/pq") || p == "github.com/quire-docs/quire/store/sqlite" ||
			p == "github.com/quire-docs/quire/store/postgres"
	}
	for _, p := range deps("github.com/quire-docs/quire/store", "github.com/quire-docs/quire/server/...",
		"github.com/quire-docs/quire/internal/jobs/...") {
		if driver(p) || p == "github.com/quire-docs/quire/store/sqlstore" {
			t.Errorf("%s is a dependency of server, jobs or store: only cmd may pick a backend", p)
		}
	}
	for _, p := range deps("github.com/quire-docs/quire/store/sqlstore") {
		if driver(p) {
			t.Errorf("%s is a dependency of store/sqlstore: the drivers are linked by store/sqlite and store/postgres", p)
		}
	}
}
