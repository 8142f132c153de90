package markdown

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Pages become HTML for the published sites: the tree the one parser reads (Parse), headings
// with the ids their document gives them, links and images resolved by the caller, code
// highlighted with chroma as CSS classes, and the whole output — raw HTML included — passed
// through a bluemonday policy, so nothing a page holds runs as script.

// Ref is where a link or an image of a page points, read as the document model reads it.
type Ref struct {
	Kind   string // url | page | anchor | file
	URL    string // kind url
	Page   string // kind page, or anchor into another page
	Space  string // a page of another space
	Anchor string
	File   string
}

// HTMLOptions tune a rendering. Options resolve page paths as documents do.
type HTMLOptions struct {
	Options
	// Link turns a link's ref into an href; ok false marks the link broken (nil: links stay as
	// written).
	Link func(Ref) (href string, ok bool)
	// Image turns an image's ref into a src; ok false marks it broken.
	Image func(Ref) (src string, ok bool)
	// Block renders an OpenAPI or a reusable-content block as HTML the caller has escaped or
	// sanitized; ok false leaves the block as the renderer shows it (htmlblocks.go).
	Block func(Block) (html []byte, ok bool)
}

// Heading is a heading of a rendered page, for its outline.
type Heading struct {
	Level int
	ID    string
	Text  string
}

var attrBroken = []byte("data-broken")

// htmlMD renders (never parses: Parse does) with raw HTML kept, for the policy to sanitize.
var htmlMD = goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.TaskList,
	extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute))),
	goldmark.WithRendererOptions(html.WithUnsafe(), renderer.WithNodeRenderers(util.Prioritized(webNodes{}, 100))))

// policy is what rendered pages may hold: bluemonday's user-content policy, plus the classes,
// heading ids and attributes the renderer itself writes.
var policy = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.RequireNoFollowOnLinks(false)
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[-a-zA-Z0-9_ ]+$`)).Globally()
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[-a-z0-9.+_]+$`)).OnElements("h1", "h2", "h3", "h4", "h5", "h6")
	p.AllowAttrs("aria-label").OnElements("a")
	p.AllowAttrs("role").Matching(regexp.MustCompile(`^note$`)).OnElements("div")
	p.AllowAttrs("loading").Matching(regexp.MustCompile(`^lazy$`)).OnElements("img")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("td", "th")
	p.AllowAttrs("type", "checked", "disabled").OnElements("input")
	p.AllowAttrs("title").OnElements("span")
	p.AllowElements("input", "kbd", "mark", "details", "summary")
	return p
}()

// ToHTML renders a page's markdown and answers its headings (levels 1 to 3) in order.
func (o HTMLOptions) ToHTML(src string) ([]byte, []Heading) {
	source := []byte(src)
	root := Parse(source)
	ids := headingIDs(root, source)
	var heads []Heading
	var links []*ast.Link
	var images []*ast.Image
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			id := ids[n]
			if id == "" {
				return ast.WalkSkipChildren, nil
			}
			n.SetAttributeString("id", []byte(id))
			if n.Level <= 3 {
				heads = append(heads, Heading{Level: n.Level, ID: id, Text: strings.TrimSpace(InlineText(n, source))})
			}
			a := ast.NewLink()
			a.Destination = []byte("#" + id)
			a.SetAttributeString("class", []byte("anchor"))
			a.AppendChild(a, ast.NewString([]byte("#")))
			n.AppendChild(n, a)
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			links = append(links, n)
		case *ast.Image:
			images = append(images, n)
		}
		return ast.WalkContinue, nil
	})
	for _, l := range links {
		if o.Link == nil {
			continue
		}
		href, ok := o.Link(o.ref(string(l.Destination)))
		if !ok {
			l.SetAttribute(attrBroken, []byte("1"))
			continue
		}
		l.Destination = []byte(href)
	}
	for _, im := range images {
		im.SetAttributeString("loading", []byte("lazy"))
		if o.Image == nil {
			continue
		}
		if src, ok := o.Image(o.ref(string(im.Destination))); ok {
			im.Destination = []byte(src)
		} else {
			im.Destination = nil
			im.SetAttributeString("class", []byte("broken-image"))
		}
	}
	place := embeds(root, o.Block)
	var buf bytes.Buffer
	if err := htmlMD.Renderer().Render(&buf, source, root); err != nil {
		// Rendering into a buffer fails only on a renderer bug: show the text rather than nothing.
		return policy.SanitizeBytes([]byte("<pre>" + string(util.EscapeHTML(source)) + "</pre>")), heads
	}
	out := policy.SanitizeBytes(buf.Bytes())
	if place != nil {
		out = place(out)
	}
	return out, heads
}

// ref reads a link destination as the document model does.
func (o HTMLOptions) ref(dest string) Ref {
	m := o.refFor(dest)
	return Ref{Kind: str(m, "kind"), URL: str(m, "url"), Page: str(m, "page"), Space: str(m, "space"),
		Anchor: str(m, "anchor"), File: str(m, "file")}
}

// CodeCSS is the stylesheet of highlighted code: GitHub's colours, and GitHub's dark ones when
// the reader prefers a dark scheme.
func CodeCSS() []byte {
	var b bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(true))
	_ = f.WriteCSS(&b, styles.Get("github"))
	b.WriteString("@media (prefers-color-scheme: dark) {\n")
	_ = f.WriteCSS(&b, styles.Get("github-dark"))
	b.WriteString("}\n")
	return b.Bytes()
}

var codeFormatter = chromahtml.New(chromahtml.WithClasses(true))

// webNodes renders what goldmark's HTML renderer does not, or not as the sites want: hints,
// links (broken ones marked), code blocks (highlighted).
type webNodes struct{}

func (webNodes) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(kindHint, renderHint)
	r.Register(kindOpenAPI, renderOpenAPI)
	r.Register(kindInclude, renderInclude)
	r.Register(ast.KindLink, renderLink)
	r.Register(ast.KindFencedCodeBlock, renderCode)
	r.Register(ast.KindCodeBlock, renderCode)
}

func renderHint(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		_, _ = w.WriteString(`<div class="hint hint-` + n.(*hintNode).style + `" role="note">` + "\n")
	} else {
		_, _ = w.WriteString("</div>\n")
	}
	return ast.WalkContinue, nil
}

func renderLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if _, broken := n.Attribute(attrBroken); broken {
		if entering {
			_, _ = w.WriteString(`<span class="broken-link" title="Broken link: `)
			_, _ = w.Write(util.EscapeHTML(n.Destination))
			_, _ = w.WriteString(`">`)
		} else {
			_, _ = w.WriteString("</span>")
		}
		return ast.WalkContinue, nil
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML(util.URLEscape(n.Destination, true)))
	_ = w.WriteByte('"')
	if n.Title != nil {
		_, _ = w.WriteString(` title="`)
		_, _ = w.Write(util.EscapeHTML(n.Title))
		_ = w.WriteByte('"')
	}
	if c, ok := n.AttributeString("class"); ok {
		if b, ok := c.([]byte); ok && string(b) == "anchor" {
			_, _ = w.WriteString(` class="anchor" aria-label="Link to this section"`)
		}
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

func renderCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	code := SourceText(node.Lines(), src)
	lang := ""
	if f, ok := node.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(src))
	}
	var lexer chroma.Lexer
	if lang != "" {
		lexer = lexers.Get(lang)
	}
	if lexer != nil {
		if it, err := chroma.Coalesce(lexer).Tokenise(nil, code); err == nil {
			var b bytes.Buffer
			if codeFormatter.Format(&b, styles.Get("github"), it) == nil {
				_, _ = w.Write(b.Bytes())
				_ = w.WriteByte('\n')
				return ast.WalkSkipChildren, nil
			}
		}
	}
	_, _ = w.WriteString(`<pre class="chroma"><code>`)
	_, _ = w.Write(util.EscapeHTML([]byte(code)))
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}
