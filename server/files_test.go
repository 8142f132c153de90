package server_test

import (
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestFilesLayered draws each package of quire by which file uses which file's package-level
// definitions (functions, methods, types, variables, constants, resolved by go/types) and fails on
// a cycle: a foundation file using a feature file above it, where a newcomer reading from the
// bottom up would find a name defined later. A cycle is reported with the names that make each
// of its edges.
func TestFilesLayered(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("type-checks the module")
	}
	if raceDetector {
		t.Skip("type-checks the module: a static check, run without the race detector")
	}
	const mod = "github.com/quire-docs/quire/"
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		BuildFlags: []string{"-tags", "sqlite_fts5"}}
	pkgs, err := packages.Load(cfg, mod+"...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("loaded only %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		if cycles := fileCycles(p.Fset, p.Types, p.TypesInfo); len(cycles) > 0 {
			t.Errorf("%s: its files use each other both ways:\n%s", strings.TrimPrefix(p.PkgPath, mod), strings.Join(cycles, "\n"))
		}
	}
}

// fileCycles answers each cycle among a package's files (Tarjan's strongly connected components
// of the file graph), one line per edge inside it.
func fileCycles(fset *token.FileSet, pkg *types.Package, info *types.Info) []string {
	edges := map[string]map[string][]string{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			continue
		}
		if _, isFunc := obj.(*types.Func); !isFunc && obj.Parent() != pkg.Scope() {
			continue // a local
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if from == to || !strings.HasSuffix(from, ".go") {
			continue
		}
		if edges[from] == nil {
			edges[from] = map[string][]string{}
		}
		if !slices.Contains(edges[from][to], obj.Name()) {
			edges[from][to] = append(edges[from][to], obj.Name())
		}
	}
	var files []string
	for f := range edges {
		files = append(files, f)
	}
	sort.Strings(files)
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var out []string
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		on[v] = true
		var next []string
		for w := range edges[v] {
			next = append(next, w)
		}
		sort.Strings(next)
		for _, w := range next {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var scc []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[w] = false
			scc = append(scc, w)
			if w == v {
				break
			}
		}
		if len(scc) < 2 {
			return
		}
		sort.Strings(scc)
		for _, a := range scc {
			for _, b := range scc {
				if names := edges[a][b]; len(names) > 0 {
					sort.Strings(names)
					out = append(out, "  "+a+" -> "+b+": "+strings.Join(names, " "))
				}
			}
		}
		out = append(out, "")
	}
	for _, f := range files {
		if _, seen := index[f]; !seen {
			visit(f)
		}
	}
	return out
}
