package store

import (
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/markdown"
)

// Link extraction takes any markdown: destinations come out without a panic, each resolves to a
// page, a file or a URL (or is not a link to keep), and rewriting the batch's refs is stable.
func FuzzLinkExtraction(f *testing.F) {
	for _, seed := range []string{
		"See [install](/pages/abc) and ![x](/files/f1 \"t\").",
		"[rel](../guide/README.md#top) <https://example.com> [a](#anchor) [m](mailto:a@b.c)",
		"[ref][1]\n\n[1]: /pages/ref1 \"T\"",
		"[x](./doc.md) [y](./file-ref) [z](<./spaced name.md>)",
		"```\n[not](/pages/code)\n```\n`[nor](/files/inline)`",
		"[bad](http://[::1]:namedport) [odd](javascript:alert(1)) [%zz](/pages/%zz)",
		"| a | [b](/pages/b) |\n|---|---|\n| [c](c.md) | d |",
		"[nested [brackets]](/pages/n) [unclosed](/pages/u",
	} {
		f.Add(seed)
	}
	pages := fuzzPages{byID: map[string]bool{"abc": true}, byPath: map[string]string{"guide": "g1", "doc": "d1"}}
	refs := map[string]string{"ref1": "P1", "file-ref": "F1"}
	f.Fuzz(func(t *testing.T, md string) {
		for _, dest := range markdown.Links(md) {
			kind, target, ok := ResolveLink(dest, "guide/intro", pages)
			if !ok {
				continue
			}
			if kind != "page" && kind != "file" && kind != "url" {
				t.Fatalf("%q resolved to kind %q", dest, kind)
			}
			if target == "" && kind != "file" {
				t.Fatalf("%q resolved to an empty %s target", dest, kind)
			}
		}
		if got := RewriteRefs(md, nil, nil); got != md {
			t.Fatalf("rewriting without refs changed the markdown:\n%q\n%q", md, got)
		}
		once := RewriteRefs(md, refs, refs)
		if twice := RewriteRefs(once, refs, refs); twice != once {
			t.Fatalf("rewriting refs is not stable:\n%q\n%q", once, twice)
		}
		if !strings.Contains(md, "/") && once != md {
			t.Fatalf("markdown without a path was rewritten: %q -> %q", md, once)
		}
	})
}

// fuzzPages resolves links against fixed pages.
type fuzzPages struct {
	byID   map[string]bool
	byPath map[string]string
}

func (f fuzzPages) HasPage(id string) bool { return f.byID[id] }

func (f fuzzPages) PathID(path string) (string, bool) {
	id, ok := f.byPath[path]
	return id, ok
}
