// Package richtext derives the API's rich-text document form of a page from its markdown, with
// goldmark's CommonMark + GFM parser.
package richtext

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Document is the rich-text form: blocks of inlines and text leaves.
type Document struct {
	Object string         `json:"object"` // "document"
	Data   map[string]any `json:"data"`
	Nodes  []*Node        `json:"nodes"`
}

// Node is a block, an inline or a text node.
type Node struct {
	Object string         `json:"object"` // block | inline | text
	Type   string         `json:"type,omitempty"`
	Key    string         `json:"key"`
	IsVoid *bool          `json:"isVoid,omitempty"`
	Data   map[string]any `json:"data,omitempty"`
	Nodes  []*Node        `json:"nodes,omitempty"`
	Leaves []*Leaf        `json:"leaves,omitempty"`
}

// Leaf is a run of text with the same marks.
type Leaf struct {
	Object string  `json:"object"` // "leaf"
	Text   string  `json:"text"`
	Marks  []*Mark `json:"marks"`
}

// Mark is a text style: bold, italic, code, strikethrough.
type Mark struct {
	Object string `json:"object"` // "mark"
	Type   string `json:"type"`
}

// SchemaVersion is the version of the document schema produced.
const SchemaVersion = 1

var md = goldmark.New(goldmark.WithExtensions(extension.GFM))

// FromMarkdown parses markdown into a document.
func FromMarkdown(src string) *Document {
	source := []byte(src)
	root := md.Parser().Parse(text.NewReader(source))
	c := &converter{src: source}
	doc := &Document{Object: "document", Data: map[string]any{"schemaVersion": SchemaVersion}, Nodes: []*Node{}}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		doc.Nodes = append(doc.Nodes, c.blocks(n)...)
	}
	return doc
}

type converter struct {
	src  []byte
	keys int
}

func (c *converter) key() string {
	c.keys++
	return strconv.Itoa(c.keys)
}

var (
	yes = func() *bool { b := true; return &b }()
	no  = func() *bool { b := false; return &b }()
)

func (c *converter) block(typ string, data map[string]any, children []*Node) *Node {
	if data == nil {
		data = map[string]any{}
	}
	if len(children) == 0 {
		children = []*Node{c.text("", nil)}
	}
	return &Node{Object: "block", Type: typ, Key: c.key(), IsVoid: no, Data: data, Nodes: children}
}

func (c *converter) void(typ string, data map[string]any) *Node {
	if data == nil {
		data = map[string]any{}
	}
	return &Node{Object: "block", Type: typ, Key: c.key(), IsVoid: yes, Data: data}
}

func (c *converter) text(s string, marks []string) *Node {
	leaf := &Leaf{Object: "leaf", Text: s, Marks: []*Mark{}}
	for _, m := range marks {
		leaf.Marks = append(leaf.Marks, &Mark{Object: "mark", Type: m})
	}
	return &Node{Object: "text", Key: c.key(), Leaves: []*Leaf{leaf}}
}

// blocks converts one markdown block node (several for a paragraph that holds only images).
func (c *converter) blocks(n ast.Node) []*Node {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if imgs := c.onlyImages(n); imgs != nil {
			return []*Node{c.block("images", nil, imgs)}
		}
		return []*Node{c.block("paragraph", nil, c.inlines(n, nil))}
	case *ast.Heading:
		level := min(max(n.Level, 1), 3)
		return []*Node{c.block("heading-"+strconv.Itoa(level), nil, c.inlines(n, nil))}
	case *ast.ThematicBreak:
		return []*Node{c.void("divider", nil)}
	case *ast.Blockquote:
		return []*Node{c.block("blockquote", nil, c.children(n))}
	case *ast.List:
		typ := "list-unordered"
		if n.IsOrdered() {
			typ = "list-ordered"
		}
		var items []*Node
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			data := map[string]any{}
			if tb, ok := it.FirstChild().(interface{ FirstChild() ast.Node }); ok {
				if box, ok := tb.FirstChild().(*east.TaskCheckBox); ok {
					typ = "list-tasks"
					data["checked"] = box.IsChecked
				}
			}
			items = append(items, c.block("list-item", data, c.children(it)))
		}
		return []*Node{c.block(typ, nil, items)}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		data := map[string]any{}
		if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
			if lang := strings.Fields(string(f.Language(c.src))); len(lang) > 0 {
				data["syntax"] = lang[0]
			}
		}
		lines := n.Lines()
		var codeLines []*Node
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			line := strings.TrimRight(string(seg.Value(c.src)), "\n")
			codeLines = append(codeLines, c.block("code-line", nil, []*Node{c.text(line, nil)}))
		}
		return []*Node{c.block("code", data, codeLines)}
	case *east.Table:
		var rows []*Node
		for r := n.FirstChild(); r != nil; r = r.NextSibling() {
			var cells []*Node
			for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
				cells = append(cells, c.block("table-cell", nil, c.inlines(cell, nil)))
			}
			rows = append(rows, c.block("table-row", nil, cells))
		}
		return []*Node{c.block("table", nil, rows)}
	case *ast.HTMLBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(c.src))
		}
		return []*Node{c.block("paragraph", nil, []*Node{c.text(strings.TrimRight(b.String(), "\n"), nil)})}
	}
	if n.HasChildren() {
		return c.children(n)
	}
	return nil
}

func (c *converter) children(n ast.Node) []*Node {
	var out []*Node
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		out = append(out, c.blocks(ch)...)
	}
	return out
}

// onlyImages returns image blocks when a paragraph holds nothing but images (and spaces).
func (c *converter) onlyImages(n ast.Node) []*Node {
	var imgs []*Node
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch := ch.(type) {
		case *ast.Image:
			imgs = append(imgs, c.void("image", map[string]any{
				"ref": map[string]any{"kind": "url", "url": string(ch.Destination)}, "alt": plainText(ch, c.src),
			}))
		case *ast.Text:
			if strings.TrimSpace(textValue(ch, c.src)) != "" {
				return nil
			}
		default:
			return nil
		}
	}
	return imgs
}

// inlines converts the inline children of n, with the marks of the enclosing spans.
func (c *converter) inlines(n ast.Node, marks []string) []*Node {
	var out []*Node
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch := ch.(type) {
		case *ast.Text:
			s := textValue(ch, c.src)
			if ch.SoftLineBreak() || ch.HardLineBreak() {
				s += "\n"
			}
			out = append(out, c.text(s, marks))
		case *ast.String:
			out = append(out, c.text(string(ch.Value), marks))
		case *ast.CodeSpan:
			out = append(out, c.text(plainText(ch, c.src), append(append([]string{}, marks...), "code")))
		case *ast.Emphasis:
			m := "italic"
			if ch.Level >= 2 {
				m = "bold"
			}
			out = append(out, c.inlines(ch, append(append([]string{}, marks...), m))...)
		case *east.Strikethrough:
			out = append(out, c.inlines(ch, append(append([]string{}, marks...), "strikethrough"))...)
		case *ast.Link:
			children := c.inlines(ch, marks)
			if len(children) == 0 {
				children = []*Node{c.text("", nil)}
			}
			out = append(out, &Node{Object: "inline", Type: "link", Key: c.key(), IsVoid: no,
				Data: map[string]any{"ref": map[string]any{"kind": "url", "url": string(ch.Destination)}}, Nodes: children})
		case *ast.AutoLink:
			url := string(ch.URL(c.src))
			out = append(out, &Node{Object: "inline", Type: "link", Key: c.key(), IsVoid: no,
				Data: map[string]any{"ref": map[string]any{"kind": "url", "url": url}}, Nodes: []*Node{c.text(url, marks)}})
		case *ast.Image:
			out = append(out, &Node{Object: "inline", Type: "inline-image", Key: c.key(), IsVoid: yes,
				Data: map[string]any{"ref": map[string]any{"kind": "url", "url": string(ch.Destination)}, "alt": plainText(ch, c.src)}})
		case *ast.RawHTML:
			var b strings.Builder
			for i := 0; i < ch.Segments.Len(); i++ {
				seg := ch.Segments.At(i)
				b.Write(seg.Value(c.src))
			}
			out = append(out, c.text(b.String(), marks))
		default:
			out = append(out, c.inlines(ch, marks)...)
		}
	}
	return mergeTexts(out)
}

// mergeTexts joins neighbouring text nodes with the same marks: the parser cuts text where a
// link might start, which is no boundary in the document.
func mergeTexts(nodes []*Node) []*Node {
	out := nodes[:0]
	for _, n := range nodes {
		if k := len(out); k > 0 && n.Object == "text" && out[k-1].Object == "text" && sameMarks(out[k-1].Leaves[0], n.Leaves[0]) {
			out[k-1].Leaves[0].Text += n.Leaves[0].Text
			continue
		}
		out = append(out, n)
	}
	return out
}

func sameMarks(a, b *Leaf) bool {
	if len(a.Marks) != len(b.Marks) {
		return false
	}
	for i := range a.Marks {
		if a.Marks[i].Type != b.Marks[i].Type {
			return false
		}
	}
	return true
}

// plainText is the text content of an inline node.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(ch ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := ch.(type) {
		case *ast.Text:
			b.WriteString(textValue(t, src))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// textValue is the text a text node shows: backslash escapes and entity references resolved, as
// an HTML renderer would, except in raw text (code spans).
func textValue(t *ast.Text, src []byte) string {
	v := t.Segment.Value(src)
	if t.IsRaw() {
		return string(v)
	}
	return string(util.UnescapePunctuations(util.ResolveNumericReferences(util.ResolveEntityNames(v))))
}
