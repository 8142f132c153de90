package gitsync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return err
	})
	return out
}

func TestExportLayout(t *testing.T) {
	sub := &Page{ID: "p-sub", Title: "Sub", Slug: "sub", Path: "welcome/sub",
		Markdown: "Up to [welcome](/pages/p-welcome), over to [the other](/pages/other#x), [gone](/pages/nope), " +
			"[sibling](../other.md) and ![pic](/files/f2) <img src=\"/files/f1\">"}
	sp := &Space{
		Pages: []*Page{
			{ID: "p-welcome", Title: "Welcome", Slug: "welcome", Path: "welcome", Children: []*Page{sub}},
			{ID: "p-other", Title: "Something else", Slug: "other", Path: "other", Meta: Meta{Hidden: true}},
			{ID: "p-readme", Title: "Readme", Slug: "readme", Path: "readme"},
		},
		Files: []*File{{ID: "f1", Name: "a.png", Data: []byte("1")}, {ID: "f2", Name: "a.png", Data: []byte("2")},
			{ID: "f3", Name: "../../evil.png", Data: []byte("3")}},
	}
	dir := filepath.Join(t.TempDir(), "out")
	stats, err := Export(dir, sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, dir)
	var names []string
	for n := range got {
		names = append(names, n)
	}
	for _, want := range []string{"README.md", "welcome/sub.md", "other.md", "readme-2.md", ".gitbook/assets/a.png",
		".gitbook/assets/a (1).png", ".gitbook/assets/evil.png", "SUMMARY.md", ".gitbook.yaml"} {
		if _, ok := got[want]; !ok {
			t.Errorf("no %s among %v", want, names)
		}
	}
	if len(got) != 9 || stats.Pages != 4 || stats.Files != 3 || stats.Links != 5 || stats.Unresolved != 0 {
		t.Errorf("%d files written, %+v", len(got), stats)
	}
	wantSub := "# Sub\n\nUp to [welcome](../README.md), over to [the other](../other.md#x), [gone](/pages/nope), " +
		"[sibling](../other.md) and ![pic](<../.gitbook/assets/a (1).png>) <img src=\"../.gitbook/assets/a.png\">\n"
	if got["welcome/sub.md"] != wantSub {
		t.Errorf("welcome/sub.md:\n%s", got["welcome/sub.md"])
	}
	if !strings.Contains(got["SUMMARY.md"], "* [Welcome](README.md)\n  * [Sub](welcome/sub.md)\n") {
		t.Errorf("SUMMARY.md:\n%s", got["SUMMARY.md"])
	}

	// Read back: the same tree, slugs from the files.
	im, err := Read(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tree []string
	for _, p := range im.Pages {
		tree = append(tree, p.Title+"/"+p.Slug)
	}
	if strings.Join(tree, " ") != "Welcome/welcome Sub/sub Something else/other Readme/readme-2" || !im.Pages[2].Meta.Hidden {
		t.Errorf("read back: %v", tree)
	}
	if _, err := Export(dir, sp, nil); err == nil {
		t.Error("exported into a non-empty directory")
	}
}

// A first page whose slug its title does not give is not the root README: .gitbook.yaml names its
// file, so that its slug comes back.
func TestExportReadmeNamed(t *testing.T) {
	sp := &Space{Pages: []*Page{{ID: "a", Title: "Start here", Slug: "intro", Path: "intro"}}}
	dir := t.TempDir()
	if _, err := Export(dir, sp, nil); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, dir)
	if !strings.Contains(got[".gitbook.yaml"], "readme: intro.md\n") || got["intro.md"] != "# Start here\n" {
		t.Fatalf("%v", got)
	}
	im, err := Read(dir, nil)
	if err != nil || len(im.Pages) != 1 || im.Pages[0].Slug != "intro" {
		t.Fatalf("read back: %+v %v", im, err)
	}
}

// A repository whose docs live in a folder, as .gitbook.yaml's root says.
func TestReadRoot(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		".gitbook.yaml":                   "root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\n",
		"docs/toc.md":                     "# My product\n\n* [Guide](guide.md)\n",
		"docs/intro.md":                   "Hello, see the [guide](guide.md).\n",
		"docs/guide.md":                   "# The guide\n\n![img](img/x.png)\n",
		"docs/img/x.png":                  "png",
		"README.md":                       "not a page: outside the root",
		"docs/.gitbook/assets/unused.gif": "gif",
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
	}
	im, err := Read(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if im.Title != "My product" || len(im.Pages) != 2 || im.Pages[0].File != "docs/intro.md" || im.Pages[0].Title != "Intro" ||
		im.Pages[0].Slug != "intro" || im.Pages[1].Title != "The guide" || len(im.Files) != 2 {
		t.Fatalf("%+v", im)
	}
	if !strings.Contains(im.Pages[0].Markdown, "(/pages/"+im.Pages[1].Ref+")") ||
		!strings.Contains(im.Pages[1].Markdown, "(/files/"+im.Files[0].Ref+")") {
		t.Fatalf("links: %q %q", im.Pages[0].Markdown, im.Pages[1].Markdown)
	}
}

// A relative link to nothing is kept as written and counted; import keeps it too, and notes it.
func TestExportCountsUnresolved(t *testing.T) {
	sp := &Space{Pages: []*Page{{ID: "a", Title: "A", Slug: "a", Path: "a",
		Markdown: "[lost](missing.md) [pic](img/x.png) [web](https://example.com) [id](/pages/zz)"}}}
	dir := t.TempDir()
	stats, err := Export(dir, sp, nil)
	if err != nil || stats.Unresolved != 2 || stats.Links != 0 {
		t.Fatalf("%+v %v", stats, err)
	}
	im, err := Read(dir, nil)
	if err != nil || len(im.Notes) != 2 || im.Notes[0].Error() != `README.md:3: link "missing.md": missing.md does not exist: kept as written` ||
		!strings.Contains(im.Pages[0].Markdown, "[lost](missing.md) [pic](img/x.png)") {
		t.Fatalf("read back: %+v %v", im, err)
	}
}

// Groups are "## " headings of SUMMARY.md over their pages (in a folder of the group's slug),
// link pages are items linking to their URL; neither has a file. Read back, they are a group and
// a link again, and exporting that gives the same files.
func TestExportGroupsAndLinks(t *testing.T) {
	sp := &Space{Pages: []*Page{
		{ID: "intro", Title: "Intro", Slug: "intro", Path: "intro"},
		{ID: "g", Title: "Getting started", Slug: "getting-started", Path: "getting-started", Kind: KindGroup, Children: []*Page{
			{ID: "install", Title: "Install", Slug: "install", Path: "getting-started/install", Markdown: "See [intro](/pages/intro)."},
			{ID: "status", Title: "Status (live)", Slug: "status-live", Path: "getting-started/status-live", Kind: KindLink,
				URL: "https://status.example.com/"},
			{ID: "nothing", Title: "Nowhere", Slug: "nowhere", Path: "getting-started/nowhere", Kind: KindLink},
			{ID: "toinstall", Title: "Read install", Slug: "read-install", Path: "getting-started/read-install", Kind: KindLink,
				LinkPage: "install"},
			{ID: "togroup", Title: "The group", Slug: "the-group", Path: "getting-started/the-group", Kind: KindLink,
				LinkPage: "g"},
			{ID: "tospace", Title: "Other space", Slug: "other-space", Path: "other-space", Kind: KindLink, LinkSpace: "sp2"},
			{ID: "topage", Title: "Their FAQ", Slug: "their-faq", Path: "their-faq", Kind: KindLink, LinkSpace: "sp2", LinkPage: "faq"},
		}},
	}}
	dir := filepath.Join(t.TempDir(), "out")
	stats, err := Export(dir, sp, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, dir)
	wantSummary := "# Table of contents\n\n* [Intro](README.md)\n\n## Getting started\n\n* [Install](getting-started/install.md)\n" +
		"* [Status (live)](https://status.example.com/)\n* [Read install](getting-started/install.md \"link\")\n" +
		"* [Other space](/spaces/sp2 \"link\")\n* [Their FAQ](/spaces/sp2/pages/faq \"link\")\n"
	if got["SUMMARY.md"] != wantSummary {
		t.Errorf("SUMMARY.md:\n%s", got["SUMMARY.md"])
	}
	if got["getting-started/install.md"] != "# Install\n\nSee [intro](../README.md).\n" || len(got) != 4 {
		t.Errorf("files: %v", got)
	}
	if stats.Pages != 2 || stats.SkippedLinks != 2 {
		t.Errorf("stats %+v", stats)
	}
	im, err := Read(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tree []string
	for _, p := range im.Pages {
		tree = append(tree, p.Title+"/"+p.Kind+"/"+p.URL+p.LinkSpace+":"+p.LinkPage)
	}
	if strings.Join(tree, " ") != "Intro//: Getting started/group/: Install//: Status (live)/link/https://status.example.com/: "+
		"Read install/link/:"+im.Pages[2].Ref+" Other space/link/sp2: Their FAQ/link/sp2:faq" ||
		im.Pages[2].Parent != 1 || im.Pages[3].Parent != 1 || im.Pages[4].Parent != 1 || im.Pages[6].Parent != 1 {
		t.Errorf("read back: %q", tree)
	}
	// Exported again, the same SUMMARY.md.
	again := filepath.Join(t.TempDir(), "again")
	back := &Space{}
	byRef := map[string]*Page{}
	for _, p := range im.Pages {
		gp := &Page{ID: p.Ref, Title: p.Title, Slug: p.Slug, Kind: p.Kind, URL: p.URL, LinkPage: p.LinkPage, LinkSpace: p.LinkSpace}
		byRef[p.Ref] = gp
		if p.Parent < 0 {
			back.Pages = append(back.Pages, gp)
		} else {
			parent := byRef[im.Pages[p.Parent].Ref]
			parent.Children = append(parent.Children, gp)
		}
	}
	if _, err := Export(again, back, nil); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, again)["SUMMARY.md"]; got != wantSummary {
		t.Errorf("SUMMARY.md exported again:\n%s", got)
	}
	// A link item opening a page SUMMARY.md does not list, or a malformed space path, is refused.
	for _, bad := range []string{"* [X](missing.md \"link\")", "* [X](/spaces/ \"link\")", "* [X](/spaces/a/b \"link\")"} {
		_ = os.WriteFile(filepath.Join(dir, "SUMMARY.md"), []byte(wantSummary+bad+"\n"), 0o644)
		if _, err := Read(dir, nil); err == nil {
			t.Errorf("%s read", bad)
		}
	}
}

// A space that opens on a group names its first page as the README in .gitbook.yaml.
func TestExportOpensOnAGroup(t *testing.T) {
	sp := &Space{Pages: []*Page{{ID: "g", Title: "Guides", Slug: "guides", Path: "guides", Kind: KindGroup, Children: []*Page{
		{ID: "a", Title: "First", Slug: "first", Path: "guides/first"}}}}}
	dir := t.TempDir()
	if _, err := Export(dir, sp, nil); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, dir); !strings.Contains(got[".gitbook.yaml"], "readme: guides/first.md\n") {
		t.Fatalf("%v", got)
	}
	im, err := Read(dir, nil)
	if err != nil || len(im.Pages) != 2 || im.Pages[0].Kind != KindGroup || im.Pages[1].Slug != "first" {
		t.Fatalf("read back: %+v %v", im, err)
	}
}
