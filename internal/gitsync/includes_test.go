package gitsync

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// Reusable contents are written as GitBook's Git Sync writes them — a file each under
// .gitbook/includes/, included by a path relative to the page — and read back the same way.
func TestIncludesLayout(t *testing.T) {
	sp := &Space{
		Pages: []*Page{
			{ID: "p-home", Title: "Home", Slug: "home", Path: "home", Markdown: "Hi.\n\n{% include \"rc1\" %}\n",
				Children: []*Page{{ID: "p-deep", Title: "Deep", Slug: "deep", Path: "home/deep",
					Markdown: "{% include \"rc2\" %}\n\n{% include \"unknown-id\" %}\n"}}},
		},
		Reusable: []*store.ReusableContent{
			{ID: "rc1", Title: "Warning!", Markdown: "# Careful\n\nSee [deep](/pages/p-deep).\n\n{% include \"rc2\" %}\n"},
			{ID: "rc2", Title: "Warning", Markdown: "Twice.\n"},
		},
	}
	dir := filepath.Join(t.TempDir(), "out")
	stats, err := Export(dir, sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, dir)
	if stats.Reusable != 2 || got[".gitbook/includes/warning.md"] != "---\ntitle: Warning!\n---\n\n# Careful\n\nSee [deep](../../home/deep.md).\n\n{% include \"warning-2.md\" %}\n" ||
		got[".gitbook/includes/warning-2.md"] != "---\ntitle: Warning\n---\n\nTwice.\n" {
		t.Fatalf("%+v\n%q", stats, got)
	}
	if !strings.Contains(got["README.md"], "{% include \".gitbook/includes/warning.md\" %}") ||
		!strings.Contains(got["home/deep.md"], "{% include \"../.gitbook/includes/warning-2.md\" %}") ||
		!strings.Contains(got["home/deep.md"], "{% include \"unknown-id\" %}") {
		t.Fatalf("pages: %q", got)
	}

	im, err := Read(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Reusable) != 2 || im.Reusable[0].Title != "Warning!" || im.Reusable[0].Slug != "warning" || im.Reusable[1].Slug != "warning-2" {
		t.Fatalf("read: %+v %+v", *im.Reusable[0], *im.Reusable[1])
	}
	ref1, ref2 := im.Reusable[0].Ref, im.Reusable[1].Ref
	if md := im.Reusable[0].Markdown; !strings.HasPrefix(md, "# Careful\n") || !strings.Contains(md, "{% include \""+ref2+"\" %}") ||
		!strings.Contains(md, "(/pages/"+im.Pages[1].Ref+")") {
		t.Fatalf("the first one's markdown: %q", md)
	}
	if !strings.Contains(im.Pages[0].Markdown, "{% include \""+ref1+"\" %}") || !strings.Contains(im.Pages[1].Markdown, "{% include \""+ref2+"\" %}") ||
		!strings.Contains(im.Pages[1].Markdown, "{% include \"unknown-id\" %}") {
		t.Fatalf("pages read: %q / %q", im.Pages[0].Markdown, im.Pages[1].Markdown)
	}
	for _, n := range im.Notes {
		t.Errorf("note: %v", n)
	}
}

// An include of a path that is no reusable content's file is left out, and noted.
func TestIncludeOfNoFile(t *testing.T) {
	notes := 0
	out := includesIn("A\n{% include \"../.gitbook/includes/none.md\" %}\nB\n", "guide/page.md", map[string]string{},
		func(string, int, string, ...any) { notes++ })
	if out != "A\nB\n" || notes != 1 {
		t.Fatalf("%q, %d notes", out, notes)
	}
}
