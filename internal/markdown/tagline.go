package markdown

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// tagLine matches the line a block parser is offered (indented at most three columns) against a
// liquid tag's pattern: its submatches, nil when it is no such tag.
func tagLine(reader text.Reader, re *regexp.Regexp) [][]byte {
	line, _ := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 {
		return nil
	}
	return re.FindSubmatch(bytes.TrimRight(line[pos:], "\r\n"))
}

// attrEmbed marks a block whose HTML the caller gives (htmlblocks.go) with its placeholder.
var attrEmbed = []byte("data-embed")

// renderEmbed writes the placeholder of a block the caller renders, answering false for the
// others.
func renderEmbed(w util.BufWriter, n ast.Node) bool {
	v, ok := n.Attribute(attrEmbed)
	if !ok {
		return false
	}
	_, _ = w.WriteString("<p>")
	_, _ = w.Write(v.([]byte))
	_, _ = w.WriteString("</p>\n")
	return true
}
