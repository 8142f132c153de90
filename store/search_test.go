package store

import (
	"reflect"
	"strings"
	"testing"
)

// Sections for search are cut at ATX headings (not inside code fences), with markdown reduced to
// its text; the part before the first heading is the page's own section.
func TestSplitSections(t *testing.T) {
	md := "Intro **bold** text.\n\n## Install\n\nRun `go`.\n\n```sh\n# not a heading\n```\n\n### Deep ##\n\n![logo](/files/x) see [docs](https://x.y).\n"
	secs := SplitSections("Page", md)
	var titles, anchors []string
	for _, s := range secs {
		titles, anchors = append(titles, s.Title), append(anchors, s.Anchor)
	}
	if !reflect.DeepEqual(titles, []string{"Page", "Install", "Deep"}) || !reflect.DeepEqual(anchors, []string{"", "install", "deep"}) {
		t.Fatalf("sections %q anchors %q", titles, anchors)
	}
	if secs[0].Body != "Intro bold text." || !strings.Contains(secs[1].Body, "not a heading") || secs[2].Body != "logo see docs." {
		t.Fatalf("bodies %q / %q / %q", secs[0].Body, secs[1].Body, secs[2].Body)
	}
	if got := SearchTokens("Hello, wörld  foo-bar"); !reflect.DeepEqual(got, []string{"hello", "wörld", "foo", "bar"}) {
		t.Fatalf("tokens %q", got)
	}
}
