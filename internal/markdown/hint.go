package markdown

import (
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GitBook's own markdown writes hints as
//
//	{% hint style="info" %}
//	…blocks…
//	{% endhint %}
//
// quire reads them (as it reads GitHub's `> [!NOTE]` alerts) and writes the alert form.

var kindHint = ast.NewNodeKind("GitBookHint")

type hintNode struct {
	ast.BaseBlock
	style string
}

func (n *hintNode) Kind() ast.NodeKind { return kindHint }

func (n *hintNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Style": n.style}, nil)
}

var (
	hintOpen = regexp.MustCompile(`^\{%\s*hint\s+style\s*=\s*"(info|warning|danger|success)"\s*%\}\s*$`)
	hintEnd  = regexp.MustCompile(`^\{%\s*endhint\s*%\}\s*$`)
)

type hintParser struct{}

func (hintParser) Trigger() []byte { return []byte{'{'} }

func (hintParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 {
		return nil, parser.NoChildren
	}
	m := hintOpen.FindSubmatch(line[pos:])
	if m == nil {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &hintNode{style: string(m[1])}, parser.HasChildren
}

func (hintParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if w, pos := util.IndentWidth(line, reader.LineOffset()); w <= 3 && hintEnd.Match(line[pos:]) {
		reader.AdvanceToEOL()
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (hintParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}

func (hintParser) CanInterruptParagraph() bool { return true }

func (hintParser) CanAcceptIndentedLine() bool { return false }
