package translate

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/quire-docs/quire/internal/markdown"
	"github.com/yuin/goldmark/ast"
)

// Text is a piece of content split into what stays as it is and what goes to the translator.
// Markdown is parsed with the project's goldmark parser and only its text nodes are sent: code
// blocks, inline code, HTML, link and image targets, autolinks, heading anchors and the
// surrounding syntax never leave. Inside text, Liquid-style tags ({% … %}, {{ … }}: conditions,
// hints) and the glossary's terms stay too.
type Text struct {
	parts []part
}

type part struct {
	text      string // literal: written as is; to translate: the plain text sent
	translate bool
	escape    bool  // the translation goes back into markdown: escape what would become syntax
	quoted    *Text // a YAML value: rendered, then written double-quoted
}

// Segments are the texts to send, in order.
func (t *Text) Segments() []string {
	var out []string
	for _, p := range t.parts {
		switch {
		case p.quoted != nil:
			out = append(out, p.quoted.Segments()...)
		case p.translate:
			out = append(out, p.text)
		}
	}
	return out
}

// Words counts the words of the segments.
func (t *Text) Words() int {
	n := 0
	for _, s := range t.Segments() {
		n += len(strings.Fields(s))
	}
	return n
}

// Render puts translations (one per segment, in order) back in place.
func (t *Text) Render(translations []string) string {
	out, _ := t.render(translations)
	return out
}

func (t *Text) render(translations []string) (string, []string) {
	var b strings.Builder
	for _, p := range t.parts {
		switch {
		case p.quoted != nil:
			var v string
			v, translations = p.quoted.render(translations)
			b.WriteString(strconv.Quote(v))
		case p.translate:
			tr := strings.Join(strings.Fields(translations[0]), " ")
			translations = translations[1:]
			if p.escape {
				tr = escapeMarkdown(tr)
			}
			b.WriteString(tr)
		default:
			b.WriteString(p.text)
		}
	}
	return b.String(), translations
}

// Plain splits a plain-text field (a title, a description): all of it is text.
func Plain(s string, terms []Term) *Text {
	t := &Text{}
	t.addText(s, terms, false)
	return t
}

// Markdown splits a page's markdown.
func Markdown(src string, terms []Term) *Text {
	t := &Text{}
	body, offset := src, 0
	if fm, n := frontmatter(src); n > 0 {
		t.addFrontmatter(fm, terms)
		body, offset = src[n:], n
	}
	b := []byte(body)
	doc := markdown.Parse(b)
	type span struct{ start, stop int }
	var spans []span
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML, *ast.AutoLink:
			return ast.WalkSkipChildren, nil
		}
		if tx, ok := n.(*ast.Text); ok {
			s := span{tx.Segment.Start, tx.Segment.Stop}
			// Text runs split by the parser (a soft line break, a bracket that opened nothing)
			// are one sentence: sent together when only a bare newline lies between them.
			if k := len(spans) - 1; k >= 0 && s.start >= spans[k].stop && strings.Trim(body[spans[k].stop:s.start], "\n") == "" &&
				strings.Count(body[spans[k].stop:s.start], "\n") <= 1 {
				spans[k].stop = s.stop
			} else {
				spans = append(spans, s)
			}
		}
		return ast.WalkContinue, nil
	})
	last := 0
	for _, s := range spans {
		if s.start < last { // never expected from the parser: keep the text rather than garble it
			continue
		}
		t.literal(src[offset+last : offset+s.start])
		t.addText(unescapeMarkdown(body[s.start:s.stop]), terms, true)
		last = s.stop
	}
	t.literal(body[last:])
	return t
}

func (t *Text) literal(s string) {
	if s == "" {
		return
	}
	if k := len(t.parts) - 1; k >= 0 && !t.parts[k].translate && t.parts[k].quoted == nil {
		t.parts[k].text += s
		return
	}
	t.parts = append(t.parts, part{text: s})
}

// liquid matches the template tags that stay as they are inside text.
var liquid = regexp.MustCompile(`\{%.*?%\}|\{\{.*?\}\}`)

// addText adds text: the tags in it stay, the glossary's terms are written as the glossary says
// (kept, or the target language's term), the rest is sent without its surrounding spaces, and
// pieces without a letter (numbers, punctuation) are not sent at all.
func (t *Text) addText(s string, terms []Term, escape bool) {
	for s != "" {
		start, stop := len(s), len(s)
		if m := liquid.FindStringIndex(s); m != nil {
			start, stop = m[0], m[1]
		}
		var term *Term
		for i := range terms {
			if j := indexWord(s[:start], terms[i].From); j >= 0 {
				start, stop, term = j, j+len(terms[i].From), &terms[i]
			}
		}
		t.addPiece(s[:start], escape)
		if start < len(s) {
			kept := s[start:stop]
			if term != nil {
				kept = term.To
			}
			if escape && term != nil {
				kept = escapeMarkdown(kept)
			}
			t.literal(kept)
		}
		s = s[stop:]
	}
}

func (t *Text) addPiece(s string, escape bool) {
	core := strings.TrimSpace(s)
	if core == "" || !strings.ContainsFunc(core, unicode.IsLetter) {
		if escape {
			s = escapeMarkdown(s)
		}
		t.literal(s)
		return
	}
	i := strings.Index(s, core)
	t.literal(s[:i])
	t.parts = append(t.parts, part{text: strings.Join(strings.Fields(core), " "), translate: true, escape: escape})
	t.literal(s[i+len(core):])
}

// indexWord finds term in s as a whole word (not inside a longer word), -1 when absent.
func indexWord(s, term string) int {
	for from := 0; term != ""; {
		i := strings.Index(s[from:], term)
		if i < 0 {
			return -1
		}
		i += from
		before, after := i == 0 || !isWordByte(s[i-1]), i+len(term) == len(s) || !isWordByte(s[i+len(term)])
		if before && after {
			return i
		}
		from = i + 1
	}
	return -1
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// unescapeMarkdown turns the source of a text node into the text it stands for: backslash
// escapes and character references resolved.
func unescapeMarkdown(s string) string {
	if strings.ContainsRune(s, '\\') {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(punctuation, s[i+1]) >= 0 {
				i++
			}
			b.WriteByte(s[i])
		}
		s = b.String()
	}
	if strings.ContainsRune(s, '&') {
		s = html.UnescapeString(s)
	}
	return s
}

const punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// markdownSyntax is what a translation must not turn into markup where it goes back in
// (a "{" would let it open a {% … %} tag).
var markdownSyntax = strings.NewReplacer(`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `|`, `\|`, `&`, `\&`, `{`, `\{`)

func escapeMarkdown(s string) string { return markdownSyntax.Replace(s) }

// frontmatter returns a leading YAML frontmatter block and its length with the closing line.
func frontmatter(src string) (string, int) {
	if !strings.HasPrefix(src, "---\n") {
		return "", 0
	}
	end := strings.Index(src[4:], "\n---")
	if end < 0 {
		return "", 0
	}
	n := 4 + end + len("\n---")
	if n < len(src) && src[n] != '\n' {
		return "", 0
	}
	if n < len(src) {
		n++
	}
	return src[:n], n
}

// fmTextKey matches the frontmatter fields whose value is text a reader sees.
var fmTextKey = regexp.MustCompile(`^(title|description):[ \t]+`)

// addFrontmatter keeps the frontmatter's keys and other values; the one-line plain or
// double-quoted values of title and description are translated and written back double-quoted.
func (t *Text) addFrontmatter(fm string, terms []Term) {
	for _, line := range strings.SplitAfter(fm, "\n") {
		m := fmTextKey.FindStringIndex(line)
		value := strings.TrimRight(line, "\n")
		if m == nil || len(value) == m[1] {
			t.literal(line)
			continue
		}
		v := value[m[1]:]
		if uq, err := strconv.Unquote(v); err == nil && v[0] == '"' {
			v = uq
		} else if strings.ContainsAny(v[:1], `"'|>[{&*!%@`+"`") {
			t.literal(line) // another YAML form: kept rather than rewritten wrongly
			continue
		}
		t.literal(line[:m[1]])
		t.parts = append(t.parts, part{quoted: Plain(v, terms)})
		t.literal(line[len(value):])
	}
}
