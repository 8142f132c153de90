package markdown

import (
	"regexp"
	"strconv"
	"strings"
)

// ToMarkdown writes a document as markdown, without context (see Options).
func ToMarkdown(doc *Document) string { return Options{}.ToMarkdown(doc) }

// ToMarkdown writes a document as markdown that FromMarkdown reads back to the same document (for
// the nodes it produces; other nodes are written as near as markdown allows, or as their text).
func (o Options) ToMarkdown(doc *Document) string {
	if doc == nil {
		return ""
	}
	w := &writer{opts: o, anchors: anchors{}}
	out := w.blocks(doc.Nodes)
	if out != "" {
		out += "\n"
	}
	return out
}

var hintMarkers = map[string]string{"info": "NOTE", "success": "TIP", "warning": "WARNING", "danger": "CAUTION"}

func isList(n *Node) bool {
	return n.Object == "block" && (n.Type == "list-ordered" || n.Type == "list-unordered" || n.Type == "list-tasks")
}

// blocks writes blocks separated by blank lines. Two lists in a row get different markers, or
// markdown would read them as one.
func (w *writer) blocks(nodes []*Node) string {
	var parts []string
	alt := false
	for i, n := range nodes {
		if isList(n) && i > 0 && isList(nodes[i-1]) && (n.Type == "list-ordered") == (nodes[i-1].Type == "list-ordered") {
			alt = !alt
		} else {
			alt = false
		}
		if s := w.block(n, alt); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

func (w *writer) block(n *Node, alt bool) string {
	if n.Object == "text" || n.Object == "inline" {
		return w.paragraph([]*Node{n})
	}
	switch n.Type {
	case "paragraph":
		return w.paragraph(n.Nodes)
	case "heading-1", "heading-2", "heading-3":
		return w.heading(n)
	case "divider":
		return "---"
	case "blockquote":
		return prefixLines(w.blocks(n.Nodes), ">")
	case "hint":
		marker := hintMarkers[str(n.Data, "style")]
		if marker == "" {
			marker = "NOTE"
		}
		body := w.blocks(n.Nodes)
		if body == "" {
			return "> [!" + marker + "]"
		}
		return "> [!" + marker + "]\n" + prefixLines(body, ">")
	case "code":
		return w.code(n)
	case "list-ordered", "list-unordered", "list-tasks":
		return w.list(n, alt)
	case "images":
		var imgs []string
		for _, img := range n.Nodes {
			if s := w.image(img); s != "" {
				imgs = append(imgs, s)
			}
		}
		return strings.Join(imgs, "\n")
	case "image":
		return w.image(n)
	case "table":
		return w.table(n)
	case "math":
		return "$$" + escapeText(str(n.Data, "formula"), false) + "$$"
	case "file", "drawing", "content-ref":
		return w.refParagraph(refOf(n))
	case "embed", "integration":
		if u := str(n.Data, "url"); u != "" {
			return "<" + u + ">"
		}
		return ""
	case "swagger":
		label := strings.TrimSpace(strings.ToUpper(str(n.Data, "method")) + " " + str(n.Data, "path"))
		if dest := w.opts.destFor(refOf(n)); dest != "" {
			return "[" + escapeText(label, false) + "](" + linkDest(dest) + ")"
		}
		return w.codeText(label)
	case "openapi-operation", "openapi-webhook", "openapi-schemas":
		if tag := openAPITag(n); tag != "" {
			return tag
		}
		return w.codeText(openAPILabel(n))
	case "expandable":
		// The title (bold) over the body: markdown has no folding that every reader of a
		// page (search, translation, the PDF) sees through.
		var parts []string
		if t := fragmentNamed(n, "expandable-title"); t != nil {
			parts = append(parts, w.titled(Text(t.Nodes)))
		}
		if b := fragmentNamed(n, "expandable-body"); b != nil {
			parts = append(parts, w.blocks(b.Nodes))
		}
		return joinBlocks(append(parts, w.blocks(n.Nodes)))
	case "tabs", "updates":
		var parts []string
		for _, it := range n.Nodes {
			parts = append(parts, w.block(it, false))
		}
		return joinBlocks(parts)
	case "tabs-item":
		return joinBlocks([]string{w.titled(str(n.Data, "title")), w.blocks(n.Nodes)})
	case "update":
		date := str(n.Data, "date")
		if len(date) >= 10 {
			date = date[:10]
		}
		return joinBlocks([]string{w.titled(date), w.blocks(n.Nodes)})
	case "stepper":
		// Steps are the items of a numbered list.
		list := &Node{Object: "block", Type: "list-ordered"}
		for _, step := range n.Nodes {
			list.Nodes = append(list.Nodes, &Node{Object: "block", Type: "list-item", Nodes: step.Nodes})
		}
		return w.list(list, alt)
	case "prompt":
		return joinBlocks([]string{w.paragraph([]*Node{plainText(str(n.Data, "description"))}), w.blocks(n.Nodes)})
	case "code-line":
		return w.codeText(Text(n.Nodes))
	case "reusable-content":
		// Its content lives in the reusable content it names, not in this document: the tag names it.
		return includeTagOf(n)
	}
	// Other containers (if, columns, column, list items, stepper steps) give their content.
	if len(n.Nodes) > 0 {
		if n.Nodes[0].Object == "block" {
			return w.blocks(n.Nodes)
		}
		return w.paragraph(n.Nodes)
	}
	return ""
}

// refParagraph is a block pointing at a ref: a link whose text is its destination, or the
// ref's own text when it has none (a user, a collection).
func (w *writer) refParagraph(ref map[string]any) string {
	if dest := w.opts.destFor(ref); dest != "" {
		return w.link(&Node{Object: "inline", Type: "link", Data: map[string]any{"ref": ref}, Nodes: []*Node{plainText(dest)}})
	}
	return escapeText(refText(ref), false)
}

// titled is a title over a part of a block (a tab, an expandable, an update), as a bold line.
func (w *writer) titled(title string) string {
	title = strings.TrimSpace(strings.ReplaceAll(title, "\n", " "))
	if title == "" {
		return ""
	}
	return w.paragraph([]*Node{{Object: "text", Leaves: []*Leaf{{Text: title, Marks: []*Mark{{Object: "mark", Type: "bold"}}}}}})
}

// joinBlocks joins written blocks with blank lines, leaving out empty ones.
func joinBlocks(parts []string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}

// plainText is a text node of unmarked text.
func plainText(s string) *Node {
	return &Node{Object: "text", Leaves: []*Leaf{{Object: "leaf", Text: s}}}
}

var (
	blankRun       = regexp.MustCompile(`\n[ \t]*\n[\n \t]*`)
	orderedStart   = regexp.MustCompile(`^(\d{1,9})([.)])`)
	blockStartChar = "#>-+={"
)

// paragraph writes inlines as a paragraph: no blank line inside, no line that markdown would
// read as the start of another block.
func (w *writer) paragraph(nodes []*Node) string {
	s := blankRun.ReplaceAllString(w.inlines(nodes), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimRight(strings.TrimLeft(l, " \t"), " \t")
		if l != "" && strings.ContainsRune(blockStartChar, rune(l[0])) {
			l = `\` + l
		} else if m := orderedStart.FindStringSubmatchIndex(l); m != nil {
			l = l[:m[4]] + `\` + l[m[4]:]
		}
		lines[i] = l
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func (w *writer) heading(n *Node) string {
	level, _ := strconv.Atoi(strings.TrimPrefix(n.Type, "heading-"))
	text := strings.TrimSpace(strings.ReplaceAll(w.inlines(n.Nodes), "\n", " "))
	// A closing run of #s or a trailing {…} would be read as heading syntax.
	if strings.HasSuffix(text, "#") {
		text = text[:len(text)-1] + `\#`
	}
	text = strings.ReplaceAll(text, "{", `\{`)
	out := strings.Repeat("#", level) + " " + text
	id := str(n.Data, "id")
	if auto := w.anchors.auto(Text(n.Nodes)); id != auto && id != "" {
		out += " {#" + id + "}"
	}
	w.anchors.use(id)
	return strings.TrimRight(out, " ")
}

func (w *writer) code(n *Node) string {
	var lines []string
	for _, l := range n.Nodes {
		lines = append(lines, Text(l.Nodes))
	}
	body := strings.Join(lines, "\n")
	fence := "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	syntax := str(n.Data, "syntax")
	if strings.ContainsAny(syntax, "` \t\n") {
		syntax = ""
	}
	return fence + syntax + "\n" + body + "\n" + fence
}

func (w *writer) list(n *Node, alt bool) string {
	start := 1
	switch v := n.Data["start"].(type) {
	case float64:
		start = int(v)
	case int:
		start = v
	}
	bullet, delim := "-", "."
	if alt {
		bullet, delim = "*", ")"
	}
	var items []string
	loose := false
	for i, it := range n.Nodes {
		marker := bullet + " "
		if n.Type == "list-ordered" {
			marker = strconv.Itoa(start+i) + delim + " "
		}
		body, itemLoose := w.item(it)
		loose = loose || itemLoose
		if n.Type == "list-tasks" {
			box := "[ ] "
			if checked, _ := it.Data["checked"].(bool); checked {
				box = "[x] "
			}
			body = box + body
		}
		if body == "" {
			items = append(items, strings.TrimRight(marker, " "))
			continue
		}
		items = append(items, marker+indentLines(body, len(marker)))
	}
	sep := "\n"
	if loose {
		sep = "\n\n"
	}
	return strings.Join(items, sep)
}

// item writes a list item's blocks; it is loose when two of them are apart by a blank line (a
// nested list follows its paragraph directly).
func (w *writer) item(it *Node) (string, bool) {
	var b strings.Builder
	loose := false
	written := 0
	for i, ch := range it.Nodes {
		s := w.block(ch, false)
		if s == "" {
			continue
		}
		if written > 0 {
			if isList(ch) && it.Nodes[i-1].Type == "paragraph" {
				b.WriteString("\n")
			} else {
				b.WriteString("\n\n")
				loose = true
			}
		}
		b.WriteString(s)
		written++
	}
	return b.String(), loose
}

func (w *writer) image(img *Node) string {
	caption := ""
	if f := fragmentNamed(img, "caption"); f != nil {
		caption = strings.TrimSpace(Text(f.Nodes))
	}
	return w.imageMarkdown(img.Data, caption)
}

func (w *writer) table(n *Node) string {
	cols, rows := tableShape(n)
	if len(cols) == 0 {
		return ""
	}
	w.inTable = true
	defer func() { w.inTable = false }()
	row := func(cells []string) string {
		return "| " + strings.Join(cells, " | ") + " |"
	}
	var head, delims []string
	for _, c := range cols {
		head = append(head, escapeText(c.title, true))
		switch c.align {
		case "center":
			delims = append(delims, ":---:")
		case "right":
			delims = append(delims, "---:")
		default:
			delims = append(delims, "---")
		}
	}
	lines := []string{row(head), row(delims)}
	for _, r := range rows {
		var cells []string
		for _, c := range cols {
			var s string
			if f := cellFragment(n, r[c.id]); f != nil {
				var parts []string
				for _, b := range f.Nodes {
					if b.Object == "block" && b.Nodes != nil && len(b.Nodes) > 0 && b.Nodes[0].Object != "block" {
						parts = append(parts, w.inlines(b.Nodes))
					} else {
						parts = append(parts, escapeText(Text([]*Node{b}), true))
					}
				}
				s = strings.Join(parts, " ")
			} else {
				s = escapeText(cellText(r[c.id]), true)
			}
			cells = append(cells, strings.TrimSpace(strings.ReplaceAll(s, "\n", " ")))
		}
		lines = append(lines, row(cells))
	}
	return strings.Join(lines, "\n")
}

// prefixLines puts a blockquote marker before every line.
func prefixLines(s, marker string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = marker
		} else {
			lines[i] = marker + " " + l
		}
	}
	return strings.Join(lines, "\n")
}

// indentLines indents every line but the first (blank lines stay blank).
func indentLines(s string, width int) string {
	pad := strings.Repeat(" ", width)
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = pad + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}
