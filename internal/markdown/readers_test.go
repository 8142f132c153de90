package markdown

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Sections of a page with every kind of block (testdata/sections.md, also a document fixture):
// the golden file holds anchors, titles and plain
// bodies; fenced code keeps its '#' lines as text; a setext heading starts a section.
func TestSectionsGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "sections.md"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(Sections("Page", string(src), 64), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "sections.search.json"), append(got, '\n'))
}

// A section's anchor is the id its heading has in the page's document: a search hit links where
// the reader lands.
func TestSectionAnchorsAreDocumentHeadingIDs(t *testing.T) {
	eachFixture(t, func(t *testing.T, name, src string) {
		var ids []string
		for _, n := range FromMarkdown(src).Nodes {
			if strings.HasPrefix(n.Type, "heading-") {
				if id, _ := n.Data["id"].(string); id != "" {
					ids = append(ids, id)
				}
			}
		}
		var anchors []string
		for _, s := range Sections("Page", src, 1000) {
			if s.Anchor != "" {
				anchors = append(anchors, s.Anchor)
			}
		}
		if !reflect.DeepEqual(anchors, ids) {
			t.Errorf("%s: section anchors %q, document heading ids %q", name, anchors, ids)
		}
	})
}

func TestSectionsLimitAndEmptyIntro(t *testing.T) {
	// max counts the text before the first heading too (dropped here: there is none).
	secs := Sections("Page", "# A\n\none\n\n# B\n\ntwo\n\n# C\n\nthree\n", 3)
	if len(secs) != 2 || secs[0].Title != "A" || secs[1].Title != "B" || !strings.Contains(secs[1].Body, "three") {
		t.Fatalf("past the limit, headings are body text: %+v", secs)
	}
	if secs := Sections("Page", "no heading at all", 64); len(secs) != 1 || secs[0].Title != "Page" || secs[0].Anchor != "" {
		t.Fatalf("a page without headings is one section under its title: %+v", secs)
	}
	if secs := Sections("Page", "", 64); len(secs) != 1 || secs[0].Body != "" {
		t.Fatalf("an empty page: %+v", secs)
	}
}

func TestLinks(t *testing.T) {
	src := "[a](/pages/p1) ![i](/files/f1 \"t\") <https://example.com> [r][1]\n\n" +
		"`[not](/pages/code)`\n\n```\n[nor](/pages/fence)\n```\n\n[1]: ../guide.md\n"
	want := []string{"/pages/p1", "/files/f1", "https://example.com", "../guide.md"}
	if got := Links(src); !reflect.DeepEqual(got, want) {
		t.Fatalf("Links = %q, want %q", got, want)
	}
}
