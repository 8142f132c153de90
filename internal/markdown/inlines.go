package markdown

import (
	"strings"
)

// The marks markdown writes with delimiters, in the order they open.
var delimiters = map[string]string{"bold": "**", "italic": "*", "strikethrough": "~~"}

// inlines writes text and inline nodes. Marks open and close like a stack, so neighbouring runs
// that share a mark share its delimiters (**a *b*** rather than **a*****b***), and whitespace at
// a run's edge goes outside the delimiters, where markdown accepts them.
func (w *writer) inlines(nodes []*Node) string {
	var b strings.Builder
	var open []string
	closeTo := func(k int) {
		for len(open) > k {
			m := open[len(open)-1]
			open = open[:len(open)-1]
			s := b.String()
			t := strings.TrimRight(s, " \t\n")
			b.Reset()
			b.WriteString(t + delimiters[m] + s[len(t):])
		}
	}
	for _, n := range nodes {
		switch n.Object {
		case "text":
			for _, l := range n.Leaves {
				w.leaf(&b, l, &open, closeTo)
			}
		case "inline":
			switch n.Type {
			case "link":
				b.WriteString(w.link(n))
			case "inline-image":
				b.WriteString(w.imageMarkdown(n.Data, str(n.Data, "caption")))
			case "inline-math":
				if f := str(n.Data, "formula"); f != "" {
					b.WriteString("$$" + escapeText(f, w.inTable) + "$$")
				}
			case "emoji":
				b.WriteString(emojiText(str(n.Data, "code")))
			case "expression":
				b.WriteString(w.codeText(str(n.Data, "expression")))
			case "mention":
				b.WriteString(w.refLink(refOf(n), ""))
			case "button":
				// One that runs an action (search, ask) in the site's own UI is its label.
				b.WriteString(w.refLink(refOf(n), str(n.Data, "label")))
			case "annotation":
				// The annotated text, its note after it in parentheses.
				b.WriteString(w.inlines(n.Nodes))
				if note := strings.Join(strings.Fields(noteText(n)), " "); note != "" {
					b.WriteString(" (" + escapeText(note, w.inTable) + ")")
				}
			case "icon":
				// decorative: no text
			default:
				b.WriteString(w.inlines(n.Nodes))
			}
		default:
			b.WriteString(w.inlines(n.Nodes))
		}
	}
	closeTo(0)
	return b.String()
}

func (w *writer) leaf(b *strings.Builder, l *Leaf, open *[]string, closeTo func(int)) {
	text := l.Text
	if text == "" {
		return
	}
	code := false
	has := map[string]bool{}
	for _, m := range l.Marks {
		if m.Type == "code" {
			code = true
		} else if delimiters[m.Type] != "" {
			has[m.Type] = true
		}
	}
	// Keep the open marks this leaf has too, up to the first it lacks.
	k := 0
	for k < len(*open) && has[(*open)[k]] {
		k++
	}
	closeTo(k)
	if !code && strings.TrimSpace(text) == "" {
		b.WriteString(text) // no delimiters open around whitespace alone
		return
	}
	kept := map[string]bool{}
	for _, m := range (*open)[:k] {
		kept[m] = true
	}
	var opening []string
	for _, m := range l.Marks {
		if has[m.Type] && !kept[m.Type] {
			opening = append(opening, m.Type)
			kept[m.Type] = true
		}
	}
	if len(opening) > 0 {
		lead := text[:len(text)-len(strings.TrimLeft(text, " \t\n"))]
		b.WriteString(lead)
		text = text[len(lead):]
		for _, m := range opening {
			b.WriteString(delimiters[m])
			*open = append(*open, m)
		}
	}
	out := escapeText(text, w.inTable)
	if code {
		out = w.codeSpan(text)
	}
	for _, m := range htmlMarks {
		if hasMark(l, m.mark) {
			out = "<" + m.tag + ">" + out + "</" + m.tag + ">"
		}
	}
	b.WriteString(out)
}

// The marks markdown writes as HTML elements (which FromMarkdown reads back as the marks).
var htmlMarks = []struct{ mark, tag string }{{"keyboard", "kbd"}, {"superscript", "sup"}, {"subscript", "sub"}}

func hasMark(l *Leaf, mark string) bool {
	for _, m := range l.Marks {
		if m.Type == mark {
			return true
		}
	}
	return false
}

func (w *writer) link(n *Node) string {
	inner := w.inlines(n.Nodes)
	ref := refOf(n)
	dest := w.opts.destFor(ref)
	if dest == "" && str(ref, "kind") != "url" {
		return inner
	}
	if strings.HasPrefix(dest, "http://") || strings.HasPrefix(dest, "https://") || strings.HasPrefix(dest, "mailto:") {
		if Text(n.Nodes) == dest && len(n.Nodes) == 1 && len(n.Nodes[0].Leaves) == 1 && len(n.Nodes[0].Leaves[0].Marks) == 0 &&
			!strings.ContainsAny(dest, "<> \t\n") {
			return "<" + dest + ">"
		}
	}
	return "[" + inner + "](" + linkDest(dest) + ")"
}

// refLink is a link to a ref with a label (the destination when "", or the ref's own text when
// it has no destination: a user, a collection).
func (w *writer) refLink(ref map[string]any, label string) string {
	dest := w.opts.destFor(ref)
	if label == "" {
		label = dest
		if label == "" {
			label = refText(ref)
		}
	}
	if dest == "" {
		return escapeText(label, w.inTable)
	}
	return "[" + escapeText(label, w.inTable) + "](" + linkDest(dest) + ")"
}

// noteText is the plain text of an annotation's note.
func noteText(n *Node) string {
	var parts []string
	for _, f := range n.Fragments {
		parts = append(parts, Text(f.Nodes))
	}
	return strings.Join(parts, " ")
}
