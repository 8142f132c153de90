package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// The inline side of markdown → document: text with marks, links, images.

// image is a block image (in an images block): its ref a space file for /files/<id>, else a URL;
// a title becomes its caption.
func (c *converter) image(img *ast.Image) *Node {
	data := map[string]any{"ref": c.imageRef(destination(img.Destination))}
	if alt := InlineText(img, c.src); alt != "" {
		data["alt"] = alt
	}
	frags := []*Node{}
	if len(img.Title) > 0 {
		frags = append(frags, &Node{Object: "fragment", Key: c.key(), Fragment: "caption",
			Nodes: []*Node{c.textBlock("paragraph", nil, []*Node{c.text(string(img.Title), nil)})}})
	}
	return &Node{Object: "block", Type: "image", Key: c.key(), IsVoid: yes, Data: data, Fragments: frags}
}

func (c *converter) inlineImage(img *ast.Image) *Node {
	data := map[string]any{"ref": c.imageRef(destination(img.Destination))}
	if alt := InlineText(img, c.src); alt != "" {
		data["alt"] = alt
	}
	if len(img.Title) > 0 {
		data["caption"] = string(img.Title)
	}
	return &Node{Object: "inline", Type: "inline-image", Key: c.key(), IsVoid: yes, Data: data}
}

// imageRef: images refer to a file or a URL only.
func (c *converter) imageRef(dest string) map[string]any {
	if ref := c.opts.refFor(dest); ref["kind"] == "file" {
		return ref
	}
	return map[string]any{"kind": "url", "url": strings.TrimSpace(dest)}
}

// onlyImages returns image blocks when a paragraph holds nothing but images (and spaces).
func (c *converter) onlyImages(n ast.Node) []*Node {
	var imgs []*Node
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch := ch.(type) {
		case *ast.Image:
			imgs = append(imgs, c.image(ch))
		case *ast.Text:
			if strings.TrimSpace(TextValue(ch, c.src)) != "" {
				return nil
			}
		default:
			return nil
		}
	}
	return imgs
}

func (c *converter) link(ref map[string]any, children []*Node) *Node {
	if len(children) == 0 {
		children = []*Node{c.text("", nil)}
	}
	return &Node{Object: "inline", Type: "link", Key: c.key(), IsVoid: no, Data: map[string]any{"ref": ref}, Nodes: children}
}

// inlines converts the inline children of n, with the marks of the enclosing spans.
func (c *converter) inlines(n ast.Node, marks []string) []*Node {
	return c.inlineRange(n.FirstChild(), nil, marks)
}

// inlineRange converts the siblings from first up to stop (nil: the last).
func (c *converter) inlineRange(first, stop ast.Node, marks []string) []*Node {
	var out []*Node
	afterBox := false
	for node := first; node != nil && node != stop; node = node.NextSibling() {
		switch ch := node.(type) {
		case *east.TaskCheckBox:
			afterBox = true
			continue
		case *ast.Text:
			s := TextValue(ch, c.src)
			if afterBox {
				s = strings.TrimLeft(s, " ")
			}
			if ch.SoftLineBreak() || ch.HardLineBreak() {
				s = strings.TrimRight(s, " \t") + "\n" // spaces before a break show as nothing
			}
			out = append(out, c.text(s, marks))
		case *ast.String:
			out = append(out, c.text(string(ch.Value), marks))
		case *ast.CodeSpan:
			// CommonMark reads a code span's line endings as spaces.
			code := strings.ReplaceAll(InlineText(ch, c.src), "\n", " ")
			out = append(out, c.text(code, withMark(marks, "code")))
		case *ast.Emphasis:
			m := "italic"
			if ch.Level >= 2 {
				m = "bold"
			}
			out = append(out, c.inlines(ch, withMark(marks, m))...)
		case *east.Strikethrough:
			out = append(out, c.inlines(ch, withMark(marks, "strikethrough"))...)
		case *ast.Link:
			out = append(out, c.link(c.opts.refFor(destination(ch.Destination)), c.inlines(ch, marks)))
		case *ast.AutoLink:
			label, url := string(ch.Label(c.src)), string(ch.URL(c.src))
			if ch.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
				url = "mailto:" + url
			}
			out = append(out, c.link(map[string]any{"kind": "url", "url": url}, []*Node{c.text(label, marks)}))
		case *ast.Image:
			out = append(out, c.inlineImage(ch))
		case *ast.RawHTML:
			raw := SourceText(ch.Segments, c.src)
			if mark, end := c.htmlMark(ch, raw); end != nil {
				out = append(out, c.inlineRange(ch.NextSibling(), end, withMark(marks, mark))...)
				node = end
				continue
			}
			out = append(out, c.text(raw, marks))
		default:
			out = append(out, c.inlines(ch, marks)...)
		}
		afterBox = false
	}
	return mergeTexts(out)
}

// htmlMark reads <kbd>, <sup> and <sub> (as ToMarkdown writes those marks): the mark an opening
// tag stands for and its closing tag among the following siblings (nil: none, the tag is text).
func (c *converter) htmlMark(open ast.Node, raw string) (string, ast.Node) {
	var mark string
	for _, m := range htmlMarks {
		if strings.EqualFold(raw, "<"+m.tag+">") {
			mark = m.mark
			break
		}
	}
	if mark == "" {
		return "", nil
	}
	closing := raw[:1] + "/" + raw[1:]
	for s := open.NextSibling(); s != nil; s = s.NextSibling() {
		if r, ok := s.(*ast.RawHTML); ok && strings.EqualFold(SourceText(r.Segments, c.src), closing) {
			return mark, s
		}
	}
	return "", nil
}

// withMark adds a mark to a copy of marks (once: *a *b** is italic, not italic twice).
func withMark(marks []string, m string) []string {
	for _, have := range marks {
		if have == m {
			return marks
		}
	}
	return append(append([]string{}, marks...), m)
}

// destination is a link destination as written, its escapes and entity references resolved.
func destination(raw []byte) string {
	return string(util.UnescapePunctuations(util.ResolveNumericReferences(util.ResolveEntityNames(raw))))
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
