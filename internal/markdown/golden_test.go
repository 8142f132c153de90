package markdown

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenNames lists the markdown fixtures: testdata/<name>.md, each with <name>.json (the document
// it converts to) and <name>.out.md (the markdown that document converts back to).
func goldenNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if base := filepath.Base(f); !strings.HasSuffix(base, ".out.md") {
			names = append(names, strings.TrimSuffix(base, ".md"))
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no fixtures in testdata/")
	}
	return names
}

// eachFixture runs f as a subtest named for each markdown fixture, given its source.
func eachFixture(t *testing.T, f func(t *testing.T, name, src string)) {
	t.Helper()
	for _, name := range goldenNames(t) {
		src, err := os.ReadFile(filepath.Join("testdata", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { f(t, name, string(src)) })
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/markdown/ -update to write it)", err)
	}
	if string(want) != string(got) {
		t.Fatalf("%s differs (run go test ./internal/markdown/ -update and review the diff)\n--- got\n%s", path, got)
	}
}

// Markdown → document → markdown: the document is the golden one, the markdown it gives back is
// the golden one, and that markdown reads back as the same document.
func TestRichtextGolden(t *testing.T) {
	eachFixture(t, func(t *testing.T, name, src string) {
		doc := FromMarkdown(src)
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("testdata", name+".json"), append(b, '\n'))
		out := ToMarkdown(doc)
		golden(t, filepath.Join("testdata", name+".out.md"), []byte(out))
		// Keys count the parser's text segments, which escaping changes: compare without them.
		again, _ := json.MarshalIndent(withoutKeys(FromMarkdown(out)), "", "  ")
		if b := mustJSON(t, withoutKeys(doc)); string(again) != b {
			t.Fatalf("first difference at %s\n"+"the markdown written back reads as another document:\n%s\n--- markdown\n%s", firstDiff(b, string(again)), again, out)
		}
		// The written markdown is a fixed point.
		if out2 := ToMarkdown(FromMarkdown(out)); out2 != out {
			t.Fatalf("markdown not stable:\n%s\n--- then\n%s", out, out2)
		}
	})
}

// firstDiff shows where two texts part, with some context.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return "want …" + a[from:min(len(a), i+100)] + "\n got …" + b[from:min(len(b), i+100)]
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutKeys is the document as generic JSON with every "key" removed.
func withoutKeys(doc *Document) any {
	b, _ := json.Marshal(doc)
	var v any
	_ = json.Unmarshal(b, &v)
	var strip func(any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			delete(v, "key")
			for _, x := range v {
				strip(x)
			}
		case []any:
			for _, x := range v {
				strip(x)
			}
		}
	}
	strip(v)
	return v
}
