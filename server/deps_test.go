package server_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLayers keeps the HTTP side's packages apart (issue 26): the web pages import no API
// handler and the API imports no web page (cmd/quire mounts both); the access rules, beneath
// both, know nothing of HTTP; and no package of quire's but the store implementations imports
// database/sql or a driver.
func TestLayers(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/quire-docs/quire/"
	goList := func(args ...string) []string {
		out, err := exec.Command("go", append([]string{"list", "-tags", "sqlite_fts5"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	for _, c := range []struct{ pkg, never, why string }{
		{"server/web", mod + "server", "the web reaches data through the store and the access rules, never through API handlers"},
		{"server", mod + "server/web", "the API does not import the web; cmd/quire mounts both"},
		{"server/access", mod + "server", "the access rules sit beneath the API"},
		{"server/access", mod + "server/web", "the access rules sit beneath the web"},
		{"server/access", "github.com/labstack/echo/v4", "the access rules know nothing of HTTP"},
	} {
		if deps := goList("-deps", mod+c.pkg); slices.Contains(deps, c.never) {
			t.Errorf("%s depends on %s: %s", c.pkg, c.never, c.why)
		}
	}
	sqlAllowed := []string{mod + "store/sqlstore", mod + "store/sqlite", mod + "store/postgres", mod + "store/postgres/pgtest"}
	for _, line := range goList("-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"...") {
		pkg, imports, _ := strings.Cut(line, " ")
		if slices.Contains(sqlAllowed, pkg) {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "database/sql") || strings.HasPrefix(imp, "github.com/mattn/go-sqlite3") || strings.HasPrefix(imp, "github.com/jackc/pgx") {
				t.Errorf("%s imports %s: only the store implementations speak SQL", pkg, imp)
			}
		}
	}
}
