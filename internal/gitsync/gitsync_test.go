package gitsync

import (
	"strings"
	"testing"
)

func TestParseSummary(t *testing.T) {
	src := "# Table of contents\n\n* [Intro](README.md)\n* [Guide \\[beta\\]](guide/README.md)\n  * [Setup](<guide/set up.md>)\n" +
		"    - [Deep](guide/set%20up/deep.md)\n  * [Use](guide/use.md)\n\n## Reference\n\n* [API](api.md)\n"
	s, err := ParseSummary("SUMMARY.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != "Table of contents" || len(s.Entries) != 3 {
		t.Fatalf("title %q, %d entries", s.Title, len(s.Entries))
	}
	guide := s.Entries[1]
	if guide.Title != "Guide [beta]" || guide.Path != "guide/README.md" || len(guide.Children) != 2 {
		t.Fatalf("guide: %+v", guide)
	}
	if setup := guide.Children[0]; setup.Path != "guide/set up.md" || setup.Line != 5 || len(setup.Children) != 1 ||
		setup.Children[0].Path != "guide/set up/deep.md" {
		t.Fatalf("setup: %+v", setup)
	}
	if g := s.Entries[2]; g.Path != "" || g.Title != "Reference" || len(g.Children) != 1 || g.Children[0].Path != "api.md" {
		t.Fatalf("group: %+v", g)
	}
	// What it writes reads back the same.
	again, err := ParseSummary("SUMMARY.md", WriteSummary(s))
	if err != nil {
		t.Fatal(err)
	}
	if string(WriteSummary(again)) != string(WriteSummary(s)) {
		t.Fatalf("not stable:\n%s", WriteSummary(again))
	}
}

func TestParseSummaryErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"NotAList", "# Contents\n\n* [A](a.md)\nsome text\n", "SUMMARY.md:4: expected a list item"},
		{"NoLink", "* [A](a.md)\n* B\n", "SUMMARY.md:2: a list item must be a single link"},
		{"NotMarkdown", "* [A](a.md)\n* [B](b.png)\n", "SUMMARY.md:2: b.png is not a markdown (.md) file"},
		// An http(s) or mailto item is a link page; another scheme is refused.
		{"URL", "* [A](ftp://example.com/a.md)\n", "SUMMARY.md:1: ftp://example.com/a.md links outside"},
		{"Outside", "* [A](../a.md)\n", "SUMMARY.md:1: ../a.md is outside the root"},
		{"Twice", "* [A](a.md)\n* [B](./a.md)\n", "SUMMARY.md:2: a.md is already listed at line 1"},
		{"NoTitle", "* [](a.md)\n", "SUMMARY.md:1: the link has no title"},
		{"IndentedFirst", "* [A](a.md)\n## G\n* [B](b.md)\n    * [C](c.md)\n* [D](d.md)\n  * [E](e.md)\n", ""},
		{"Indentation", "    * [A](a.md)\n  * [B](b.md)\n", "SUMMARY.md:2: inconsistent indentation"},
		{"OpenComment", "<!-- x\n* [A](a.md)\n", "SUMMARY.md: an HTML comment is not closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSummary("SUMMARY.md", []byte(tc.src))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestPageFile(t *testing.T) {
	meta := Meta{Description: "Line one: with a colon", Icon: "book", Emoji: "👋", Hidden: true, NoIndex: true, If: `visitor.claims.beta`}
	data, err := FormatPage(meta, "Title", "\n\nBody [x](y.md)\n\n\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "emoji: \"👋\"\n") || !strings.HasSuffix(string(data), "# Title\n\nBody [x](y.md)\n") {
		t.Fatalf("written:\n%s", data)
	}
	pf, err := ParsePage("p.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if pf.Meta != meta || pf.Title != "Title" || pf.Body != "Body [x](y.md)\n" || pf.BodyLine != 12 {
		t.Fatalf("read back: %+v", pf)
	}
	if again, _ := FormatPage(pf.Meta, pf.Title, pf.Body); string(again) != string(data) {
		t.Fatalf("not stable:\n%s", again)
	}
	// quire's "condition" is read as GitBook's "if".
	if pf, _ := ParsePage("p.md", []byte("---\ncondition: visitor.claims.beta\n---\n")); pf.Meta.If != "visitor.claims.beta" {
		t.Errorf("condition: %+v", pf.Meta)
	}
	// No heading: no title; the body is all of it.
	if pf, _ := ParsePage("p.md", []byte("## Sub\ntext\n")); pf.Title != "" || pf.Body != "## Sub\ntext\n" || pf.BodyLine != 1 {
		t.Fatalf("no heading: %+v", pf)
	}
	for _, tc := range []struct{ src, want string }{
		{"---\ndescription: a\nhidden: maybe\n---\n# T\n", "p.md:3: frontmatter:"},
		{"---\ndescription: [a\n---\n", "p.md:"},
		{"---\ndescription: a\n", "p.md:1: the frontmatter is not closed"},
		{"---\n- a\n---\n", "p.md:2: the frontmatter must be a mapping"},
	} {
		if _, err := ParsePage("p.md", []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestRewriteLinks(t *testing.T) {
	md := "[a](x.md) ![b](<y z.png> \"t\")\n```\n[c](code.md)\n```\n[r]: ref.md\n<img src=\"i.png\"> `[d](span.md)` ``[e](`two`.md)``\n"
	var seen []string
	out, err := RewriteLinks(md, 10, func(dest string, line int, inline bool) (string, bool, error) {
		seen = append(seen, dest)
		if dest == "ref.md" && (line != 14 || inline) {
			t.Errorf("ref.md at line %d inline %v", line, inline)
		}
		return "new/" + dest, false, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "[a](new/x.md) ![b](<new/y z.png> \"t\")\n```\n[c](code.md)\n```\n[r]: new/ref.md\n<img src=\"new/i.png\"> `[d](span.md)` ``[e](`two`.md)``\n"
	if out != want || strings.Join(seen, ",") != "x.md,y z.png,ref.md,i.png" {
		t.Fatalf("got %q (saw %v)", out, seen)
	}
}
