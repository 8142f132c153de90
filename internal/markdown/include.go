package markdown

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GitBook's markdown (Git Sync) writes a page's reference to a reusable content as a tag on a
// line of its own:
//
//	{% include ".gitbook/includes/warning.md" %}
//
// quire reads it as a reusable-content block whose ref names what the tag names (a reusable
// content's id, or a path the caller resolves), and writes the block back as the tag.

var kindInclude = ast.NewNodeKind("GitBookInclude")

type includeNode struct {
	ast.BaseBlock
	name string
}

func (n *includeNode) Kind() ast.NodeKind { return kindInclude }

func (n *includeNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Name": n.name}, nil)
}

var includeTag = regexp.MustCompile(`^\{%\s*include\s+"([^"]+)"\s*%\}\s*$`)

type includeParser struct{}

func (includeParser) Trigger() []byte { return []byte{'{'} }

func (includeParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	m := tagLine(reader, includeTag)
	if m == nil {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &includeNode{name: string(m[1])}, parser.NoChildren
}

func (includeParser) Continue(ast.Node, text.Reader, parser.Context) parser.State {
	return parser.Close
}

func (includeParser) Close(ast.Node, text.Reader, parser.Context) {}

func (includeParser) CanInterruptParagraph() bool { return true }

func (includeParser) CanAcceptIndentedLine() bool { return false }

// includeBlock converts a tag to its reusable-content block.
func (c *converter) includeBlock(n *includeNode) *Node {
	ref := map[string]any{"kind": "reusable-content", "reusableContent": n.name}
	return &Node{Object: "block", Type: "reusable-content", Key: c.key(), IsVoid: yes, Data: map[string]any{"ref": ref}}
}

// renderInclude renders nothing where the caller does not render the reusable content itself.
func renderInclude(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		renderEmbed(w, n)
	}
	return ast.WalkSkipChildren, nil
}

// includeTagOf writes a reusable-content block as its tag, or "" when it names none (or a name a
// tag cannot hold).
func includeTagOf(n *Node) string {
	name := str(refOf(n), "reusableContent")
	if name == "" || strings.ContainsAny(name, "\"\n") {
		return ""
	}
	return `{% include "` + name + `" %}`
}
