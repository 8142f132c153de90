package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// FromMarkdown parses markdown into a document, without context (see Options).
func FromMarkdown(src string) *Document { return Options{}.FromMarkdown(src) }

// FromMarkdown parses markdown into a document.
func (o Options) FromMarkdown(src string) *Document {
	source := []byte(src)
	root := md.Parser().Parse(text.NewReader(source))
	c := &converter{src: source, opts: o, anchors: anchors{}}
	doc := &Document{Object: "document", Data: map[string]any{"schemaVersion": SchemaVersion}, Nodes: []*Node{}}
	doc.Nodes = append(doc.Nodes, c.fit(c.children(root), inTop)...)
	return doc
}

// Where a block sits decides which blocks the public schema allows there.
type container int

const (
	inTop   container = iota // the document: every top-level block
	inItem                   // a list item: the essentials, code, hint, quote, table
	inQuote                  // a blockquote: the essentials and quotes
	inHint                   // a hint: the essentials
)

func allowed(where container, typ string) bool {
	switch typ {
	case "paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered", "list-tasks", "divider":
		return true
	case "blockquote":
		return where != inHint
	case "hint", "code", "table":
		return where == inTop || where == inItem
	}
	return where == inTop
}

// fit turns the blocks a container does not allow into ones it does: a hint or quote gives its
// content, images become a paragraph of inline images, code a paragraph of code text per line, a
// table a paragraph per row.
func (c *converter) fit(blocks []*Node, where container) []*Node {
	var out []*Node
	for _, b := range blocks {
		if allowed(where, b.Type) {
			out = append(out, b)
			continue
		}
		switch b.Type {
		case "hint", "blockquote":
			for _, ch := range c.fit(b.Nodes, where) {
				if !emptyParagraph(ch) {
					out = append(out, ch)
				}
			}
		case "images":
			var inl []*Node
			for _, img := range b.Nodes {
				data := map[string]any{"ref": img.Data["ref"]}
				if alt, ok := img.Data["alt"]; ok {
					data["alt"] = alt
				}
				if len(img.Fragments) > 0 {
					data["caption"] = Text(img.Fragments[0].Nodes)
				}
				inl = append(inl, &Node{Object: "inline", Type: "inline-image", Key: c.key(), IsVoid: yes, Data: data})
			}
			out = append(out, c.textBlock("paragraph", nil, inl))
		case "code":
			for _, l := range b.Nodes {
				if line := Text(l.Nodes); strings.TrimSpace(line) != "" {
					out = append(out, c.textBlock("paragraph", nil, []*Node{c.text(line, []string{"code"})}))
				}
			}
		case "table":
			for _, row := range tableRows(b) {
				if text := strings.TrimSpace(strings.Join(row, " | ")); text != "" {
					out = append(out, c.textBlock("paragraph", nil, []*Node{c.text(text, nil)}))
				}
			}
		}
	}
	return out
}

// trimBreaks drops line breaks at a paragraph's edges (a hard break after nothing): markdown
// cannot write them.
func trimBreaks(inl []*Node) []*Node {
	if len(inl) > 0 && inl[0].Object == "text" {
		inl[0].Leaves[0].Text = strings.TrimLeft(inl[0].Leaves[0].Text, "\n")
		if inl[0].Leaves[0].Text == "" && len(inl) > 1 {
			inl = inl[1:]
		}
	}
	if k := len(inl) - 1; k >= 0 && inl[k].Object == "text" {
		inl[k].Leaves[0].Text = strings.TrimRight(inl[k].Leaves[0].Text, "\n")
	}
	return inl
}

// emptyParagraph is the paragraph an empty container holds (markdown has no empty paragraph).
func emptyParagraph(n *Node) bool {
	return n.Type == "paragraph" && len(n.Nodes) == 1 && n.Nodes[0].Object == "text" && Text(n.Nodes) == ""
}

// blocks converts one markdown block node (none or several for some).
func (c *converter) blocks(n ast.Node) []*Node {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if imgs := c.onlyImages(n); imgs != nil {
			return []*Node{c.block("images", nil, imgs)}
		}
		return []*Node{c.textBlock("paragraph", nil, trimBreaks(c.inlines(n, nil)))}
	case *ast.Heading:
		return []*Node{c.heading(n)}
	case *ast.ThematicBreak:
		return []*Node{{Object: "block", Type: "divider", Key: c.key(), IsVoid: yes, Data: map[string]any{}}}
	case *ast.Blockquote:
		if style, first := c.alert(n); style != "" {
			children := c.children(n)
			if first {
				children = children[1:]
			}
			return []*Node{c.block("hint", map[string]any{"style": style}, c.nonEmpty(c.fit(children, inHint)))}
		}
		return []*Node{c.block("blockquote", nil, c.nonEmpty(c.fit(c.children(n), inQuote)))}
	case *openAPINode:
		return []*Node{c.openAPIBlock(n)}
	case *includeNode:
		return []*Node{c.includeBlock(n)}
	case *hintNode:
		return []*Node{c.block("hint", map[string]any{"style": n.style}, c.nonEmpty(c.fit(c.children(n), inHint)))}
	case *ast.List:
		return []*Node{c.list(n)}
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
			line := strings.TrimRight(string(seg.Value(c.src)), "\r\n")
			codeLines = append(codeLines, c.block("code-line", nil, []*Node{c.text(line, nil)}))
		}
		if len(codeLines) == 0 {
			codeLines = []*Node{c.block("code-line", nil, []*Node{c.text("", nil)})}
		}
		return []*Node{c.block("code", data, codeLines)}
	case *east.Table:
		return []*Node{c.table(n)}
	case *ast.HTMLBlock:
		html := SourceText(n.Lines(), c.src)
		if n.HasClosure() {
			html += string(n.ClosureLine.Value(c.src))
		}
		return []*Node{c.textBlock("paragraph", nil, []*Node{c.text(strings.TrimRight(html, "\n"), nil)})}
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

// nonEmpty gives a container with no blocks an empty paragraph.
func (c *converter) nonEmpty(blocks []*Node) []*Node {
	if len(blocks) == 0 {
		return []*Node{c.textBlock("paragraph", nil, nil)}
	}
	return blocks
}

func (c *converter) heading(n *ast.Heading) *Node {
	level := min(max(n.Level, 1), 3)
	inl := c.inlines(n, nil)
	// A setext heading may span lines; a heading is one line.
	var lineBreaks func([]*Node)
	lineBreaks = func(nodes []*Node) {
		for _, t := range nodes {
			for _, l := range t.Leaves {
				l.Text = strings.ReplaceAll(l.Text, "\n", " ")
			}
			lineBreaks(t.Nodes)
		}
	}
	lineBreaks(inl)
	id := ""
	if v, ok := n.AttributeString("id"); ok {
		if b, ok := v.([]byte); ok {
			id = string(b)
			if !validAnchor.MatchString(id) {
				id = slug(id)
			}
		}
	}
	if id == "" {
		id = c.anchors.auto(Text(inl))
	}
	c.anchors.use(id)
	data := map[string]any{}
	if id != "" {
		data["id"] = id
	}
	return c.textBlock("heading-"+strconv.Itoa(level), data, inl)
}

// GitHub's alerts (> [!NOTE] …) are hints.
var alertStyles = map[string]string{"NOTE": "info", "IMPORTANT": "info", "TIP": "success", "WARNING": "warning", "CAUTION": "danger"}

// alert returns the hint style of a blockquote that opens with an alert marker, and whether the
// marker was its whole first paragraph (else it is cut from that paragraph's text).
func (c *converter) alert(n *ast.Blockquote) (string, bool) {
	p, ok := n.FirstChild().(*ast.Paragraph)
	if !ok || p.Lines().Len() == 0 {
		return "", false
	}
	seg := p.Lines().At(0)
	first := strings.TrimSpace(string(seg.Value(c.src)))
	if !strings.HasPrefix(first, "[!") || !strings.HasSuffix(first, "]") {
		return "", false
	}
	style := alertStyles[strings.ToUpper(first[2:len(first)-1])]
	if style == "" {
		return "", false
	}
	if p.Lines().Len() == 1 {
		return style, true
	}
	// Cut the marker line: drop the paragraph's inline nodes up to the first line break.
	for ch := p.FirstChild(); ch != nil; {
		next := ch.NextSibling()
		t, isText := ch.(*ast.Text)
		p.RemoveChild(p, ch)
		if isText && (t.SoftLineBreak() || t.HardLineBreak()) {
			break
		}
		ch = next
	}
	return style, false
}

func (c *converter) list(n *ast.List) *Node {
	typ, data := "list-unordered", map[string]any{}
	if n.IsOrdered() {
		typ = "list-ordered"
		if n.Start != 1 {
			data["start"] = n.Start
		}
	}
	var items []*Node
	tasks := false
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		idata := map[string]any{}
		if tb := it.FirstChild(); tb != nil {
			if box, ok := tb.FirstChild().(*east.TaskCheckBox); ok {
				tasks = true
				idata["checked"] = box.IsChecked
			}
		}
		items = append(items, c.block("list-item", idata, c.nonEmpty(c.fit(c.children(it), inItem))))
	}
	if tasks && !n.IsOrdered() {
		typ = "list-tasks"
		for _, it := range items {
			if _, ok := it.Data["checked"]; !ok {
				it.Data["checked"] = false
			}
		}
	} else {
		for _, it := range items {
			delete(it.Data, "checked")
		}
	}
	return c.block(typ, data, items)
}
