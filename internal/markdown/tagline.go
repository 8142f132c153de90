package markdown

import (
	"bytes"
	"regexp"

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
