package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// quire reads markdown through this one goldmark configuration (GFM, `{#anchor}` heading
// attributes, GitBook's hint blocks): documents, the links a page holds, the sections search
// indexes and the PDF export all see the same tree.

// Links returns the destinations of a markdown's links, images and autolinks, in order.
func Links(markdown string) []string {
	src := []byte(markdown)
	return links(Parse(src), src)
}

// LinksAndSections is Links and Sections of one markdown from one parse: a revision's write
// needs a page's links, and the merge that indexes it later its sections.
func LinksAndSections(pageTitle, markdown string, max int) ([]string, []Section) {
	src := []byte(markdown)
	root := Parse(src)
	return links(root, src), sections(root, src, pageTitle, max)
}

func links(root ast.Node, src []byte) []string {
	var out []string
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			out = append(out, string(n.Destination))
		case *ast.Image:
			out = append(out, string(n.Destination))
		case *ast.AutoLink:
			out = append(out, string(n.URL(src)))
		}
		return ast.WalkContinue, nil
	})
	return out
}

// Section is a part of a page as search indexes it: the text under one heading.
type Section struct {
	Anchor string // the id the heading has in the page's document; "" before the first heading
	Title  string
	Body   string
}

// Sections cuts a page into sections at its top-level headings (ATX or setext), at most max:
// the text before the first heading is a section titled with the page's title when there is
// some, or when there is no heading. A section's anchor is the id its heading gets in the page's
// document, so a search hit links where the reader lands. Bodies are plain text: markup gone,
// code kept as text.
func Sections(pageTitle, markdown string, max int) []Section {
	src := []byte(markdown)
	return sections(Parse(src), src, pageTitle, max)
}

func sections(root ast.Node, src []byte, pageTitle string, max int) []Section {
	ids := headingIDs(root, src)
	secs := []Section{{Title: pageTitle}}
	var body strings.Builder
	flush := func() {
		secs[len(secs)-1].Body = strings.TrimSpace(body.String())
		body.Reset()
	}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && len(secs) < max {
			flush()
			secs = append(secs, Section{Anchor: ids[h], Title: strings.TrimSpace(InlineText(h, src))})
			continue
		}
		blockText(&body, n, src)
	}
	flush()
	if secs[0].Body == "" && len(secs) > 1 {
		secs = secs[1:]
	}
	return secs
}

// headingIDs gives every heading the id FromMarkdown gives it, assigned in document order the
// same way (explicit {#id} first, else from its text, made unique).
func headingIDs(root ast.Node, src []byte) map[*ast.Heading]string {
	c := &converter{src: src, anchors: anchors{}}
	out := map[*ast.Heading]string{}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			if id, ok := c.heading(h).Data["id"].(string); ok {
				out[h] = id
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}
