package markdown

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Markdown → document → markdown → document gives the same document (keys aside), and both
// documents validate against the public schema.
func FuzzRichtextRoundTrip(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, file := range files {
		b, _ := os.ReadFile(file)
		f.Add(string(b))
	}
	f.Add("**a*b***")
	f.Fuzz(func(t *testing.T, src string) {
		doc := FromMarkdown(src)
		out := ToMarkdown(doc)
		a, _ := json.Marshal(withoutKeys(doc))
		b, _ := json.Marshal(withoutKeys(FromMarkdown(out)))
		if string(a) != string(b) {
			t.Fatalf("round trip of %q through %q:\n%s\n%s", src, out, a, b)
		}
	})
}
