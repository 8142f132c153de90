package pdf

import (
	"strings"

	"github.com/quire-docs/quire/internal/markdown"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Inline text: runs of styled words set into lines, links and their URLs, and the text encodings
// the core fonts and the PDF outline need. The block level is in render.go.

func (r *renderer) textColor(link bool) {
	switch {
	case link:
		r.pdf.SetTextColor(30, 80, 170)
	case r.quote > 0:
		r.pdf.SetTextColor(100, 100, 100)
	default:
		r.pdf.SetTextColor(20, 20, 20)
	}
}

// run queues text in a style, to flow from the cursor and wrap at the right margin. Neighbouring
// runs in the same style are written as one (the parser cuts text at every word a link might
// start at).
func (r *renderer) run(s string, size float64, st style, url string) {
	if s == "" {
		return
	}
	if r.pending.Len() > 0 && (r.pendingSize != size || r.pendingStyle != st || r.pendingURL != url) {
		r.flush()
	}
	r.pending.WriteString(s)
	r.pendingSize, r.pendingStyle, r.pendingURL = size, st, url
}

// flush writes the queued run.
func (r *renderer) flush() {
	if r.pending.Len() == 0 {
		return
	}
	s, size, st, url := r.pending.String(), r.pendingSize, r.pendingStyle, r.pendingURL
	r.pending.Reset()
	family, fs, sz := "Helvetica", "", size
	if st.mono {
		family, sz = "Courier", size-0.5
	}
	if st.bold {
		fs += "B"
	}
	if st.italic {
		fs += "I"
	}
	if st.strike {
		fs += "S"
	}
	if st.link && url != "" {
		fs += "U"
	}
	r.pdf.SetFont(family, fs, sz)
	r.textColor(st.link)
	if st.muted {
		r.pdf.SetTextColor(110, 110, 110)
	}
	h := lineHeight(size)
	if url != "" {
		r.pdf.WriteLinkString(h, encode(s), url)
		return
	}
	r.pdf.Write(h, encode(s))
}

// paragraph writes the inline content of a block and ends its last line.
func (r *renderer) paragraph(n ast.Node, size float64, st style) {
	r.inlines(n, size, st, "")
	r.flush()
	r.pdf.Ln(lineHeight(size))
}

// inlines writes the inline content of a node. Inside a link (st.link) every run points at url
// ("" when the link is not clickable) and keeps to the link's style: line breaks are spaces,
// images are not muted, and strikethrough and raw HTML are left out.
func (r *renderer) inlines(n ast.Node, size float64, st style, url string) {
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch := ch.(type) {
		case *ast.Text:
			r.run(markdown.TextValue(ch, r.src), size, st, url)
			switch {
			case ch.HardLineBreak() && !st.link:
				r.flush()
				r.pdf.Ln(lineHeight(size))
			case ch.SoftLineBreak() || ch.HardLineBreak():
				r.run(" ", size, st, url)
			}
		case *ast.String:
			r.run(string(ch.Value), size, st, url)
		case *ast.CodeSpan:
			mono := st
			mono.mono = true
			r.run(markdown.InlineText(ch, r.src), size, mono, url)
		case *ast.Emphasis:
			em := st
			if ch.Level >= 2 {
				em.bold = true
			} else {
				em.italic = true
			}
			r.inlines(ch, size, em, url)
		case *east.Strikethrough:
			s := st
			s.strike = !st.link
			r.inlines(ch, size, s, url)
		case *east.TaskCheckBox:
			box := "[ ] "
			if ch.IsChecked {
				box = "[x] "
			}
			mono := st
			mono.mono = true
			r.run(box, size, mono, url)
		case *ast.Link:
			dest := string(ch.Destination)
			label := markdown.InlineText(ch, r.src)
			ln := st
			ln.link = true
			r.inlines(ch, size, ln, clickable(dest))
			if dest != "" && dest != label {
				muted := st
				muted.muted = true
				r.run(" ("+dest+")", size, muted, "")
			}
		case *ast.AutoLink:
			target := string(ch.URL(r.src))
			ln := st
			ln.link = true
			if ch.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(target, "mailto:") {
				target = "mailto:" + target
			}
			r.run(string(ch.Label(r.src)), size, ln, clickable(target))
		case *ast.Image:
			alt := strings.TrimSpace(markdown.InlineText(ch, r.src))
			if alt == "" {
				alt = "image"
			}
			img := st
			if !st.link {
				img.italic, img.muted = true, true
			}
			r.run("["+alt+"]", size, img, url)
		case *ast.RawHTML:
			if !st.link {
				r.run(markdown.SourceText(ch.Segments, r.src), size, st, url)
			}
		default:
			r.inlines(ch, size, st, url)
		}
	}
}

// clickable returns the URL a link annotation may point at: absolute web and mail URLs only.
func clickable(url string) string {
	lower := strings.ToLower(url)
	for _, scheme := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(lower, scheme) {
			return url
		}
	}
	return ""
}
