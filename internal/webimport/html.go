package webimport

import (
	"bytes"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
)

// FromHTML turns an HTML page into a Doc: its title (<title>, else its first <h1>) and its body
// as markdown, relative links made absolute against base (a page's URL; "" leaves them).
func FromHTML(src []byte, base string) (Doc, error) {
	root, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return Doc{}, err
	}
	title := textOf(find(root, "title"))
	if title == "" {
		title = textOf(find(root, "h1"))
	}
	var opts []converter.ConvertOptionFunc
	if base != "" {
		opts = append(opts, converter.WithDomain(base))
	}
	body := root
	if b := find(root, "body"); b != nil {
		body = b
	}
	// Scripts, styles and navigation chrome are not content.
	for _, tag := range []string{"script", "style", "nav", "noscript"} {
		for n := find(body, tag); n != nil; n = find(body, tag) {
			n.Parent.RemoveChild(n)
		}
	}
	md, err := htmltomarkdown.ConvertNode(body, opts...)
	if err != nil {
		return Doc{}, err
	}
	return Doc{Title: title, Markdown: strings.TrimSpace(string(md)) + "\n", SourceURL: base}, nil
}

// find is the first element named tag under n, in document order.
func find(n *html.Node, tag string) *html.Node {
	if n.Type == html.ElementNode && n.Data == tag {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, tag); f != nil {
			return f
		}
	}
	return nil
}

func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// links are the href of a page's <a> elements, in document order.
func links(src []byte) []string {
	root, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		return nil
	}
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "a" {
			for _, a := range n.Attr {
				if a.Key == "href" {
					out = append(out, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out
}
