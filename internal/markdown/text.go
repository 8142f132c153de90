package markdown

// Reading markdown as text: goldmark's parser as quire configures it, and the text of its nodes.

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Parse parses markdown into goldmark's tree.
func Parse(src []byte) ast.Node { return md.Parser().Parse(text.NewReader(src)) }

// InlineText is the text an inline container shows: escapes and entities resolved (not in code
// spans), line breaks as spaces.
func InlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(ch ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := ch.(type) {
		case *ast.Text:
			b.WriteString(TextValue(t, src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// blockText writes the plain text of a block: each paragraph, heading and code line on its own
// line.
func blockText(b *strings.Builder, n ast.Node, src []byte) {
	switch n := n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		b.WriteString(SourceText(n.Lines(), src))
		b.WriteByte('\n')
		return
	case *ast.HTMLBlock:
		return
	}
	if n.Type() == ast.TypeBlock && n.HasChildren() && n.FirstChild().Type() == ast.TypeInline {
		b.WriteString(strings.TrimSpace(InlineText(n, src)))
		b.WriteByte('\n')
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		blockText(b, c, src)
	}
}

// SourceText is the markdown source of segments as written: the lines of a code or HTML block,
// the pieces of a raw HTML inline.
func SourceText(segs *text.Segments, src []byte) string {
	var b strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

// TextValue is the text a text node shows: backslash escapes and entity references resolved, as
// an HTML renderer would, except in raw text (code spans).
func TextValue(t *ast.Text, src []byte) string {
	v := t.Segment.Value(src)
	if t.IsRaw() {
		return string(v)
	}
	return string(util.UnescapePunctuations(util.ResolveNumericReferences(util.ResolveEntityNames(v))))
}

// Headings take an explicit anchor as `# Title {#anchor}`.
// GitBook's {% hint %} blocks are hints.
var md = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithHeadingAttribute(),
	parser.WithBlockParsers(util.Prioritized(hintParser{}, 750), util.Prioritized(openAPIParser{}, 750),
		util.Prioritized(includeParser{}, 750))))
