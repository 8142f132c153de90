package pdf

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func render(t *testing.T, doc Document, pages ...Page) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, doc, pages); err != nil {
		t.Fatal(err)
	}
	out := buf.Bytes()
	if !bytes.HasPrefix(out, []byte("%PDF-")) || !bytes.HasSuffix(bytes.TrimRight(out, "\r\n"), []byte("%%EOF")) {
		t.Fatalf("not a PDF: %.40q … %q", out, out[max(0, len(out)-20):])
	}
	return out
}

func TestPDFRenderMarkdown(t *testing.T) {
	md := "# Alpha\n\nText with **bold**, _italic_, `code` and ~~gone~~.\nA soft break.  \nA hard one.\n\n" +
		"- one\n- two\n  1. nested\n  2. more\n- [x] done\n\n" +
		"3. three\n4. four\n\n" +
		"```go\nfmt.Println(1)\n\tindented()\n```\n\n" +
		"> quoted *words*\n>\n> - in a list\n\n" +
		"See [the docs](https://example.com/docs) or [here](/pages/abc) or <https://auto.example>.\n\n" +
		"![A diagram](https://example.com/d.png)\n\n" +
		"| Name | Value |\n|------|-------|\n| a | 1 |\n\n---\n\n<div>raw html</div>\n\n" +
		"#### Small heading\n\nAn escaped \\*star\\* and an &amp; entity.\n"
	out := render(t, Document{Title: "Release notes", Subtitle: "Handbook", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		Page{Title: "Alpha Guide", Markdown: md},
		Page{Title: "Beta Notes", Markdown: "Beta body", Depth: 1},
		Page{Title: "Empty"},
	)
	for _, want := range []string{
		"(Release notes)", "(Handbook)", "(Alpha Guide)", "(Beta Notes)", "(Beta body)", "(Empty)",
		"(Alpha)", "(bold)", "(code)", "fmt.Println\\(1\\)", "(    indented\\(\\))", "(\x95)", "(3.)", "(4.)", "([x] )",
		"(the docs)", " \\(https://example.com/docs\\)", "/URI (https://example.com/docs)", " \\(/pages/abc\\)",
		"https://auto.example", "([A diagram])", "(Name  |  Value)", "raw html", "(Small heading)", "*star*", "& entity",
		"/Creator (quire)", "/Count 3",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the PDF lacks %q", want)
		}
	}
	// The PDF's Title is the document title, in UTF-16.
	if !bytes.Contains(out, []byte("/Title ("+escape(utf16Text("Release notes"))+")")) {
		t.Error("the PDF's Title is not set")
	}
	if bytes.Contains(out, []byte("**bold**")) || bytes.Contains(out, []byte("&amp;")) {
		t.Error("markdown syntax printed as text")
	}
}

// escape is fpdf's escaping of a PDF string.
func escape(s string) string {
	return strings.NewReplacer("\\", "\\\\", "(", "\\(", ")", "\\)", "\r", "\\r").Replace(s)
}

func TestPDFRenderNonLatin(t *testing.T) {
	text := "日本語 ✓ Ünïcödé — “quotes” €5 😀 \x00\x1b bad\xff utf-8"
	out := render(t, Document{Title: text, Subtitle: text},
		Page{Title: text, Markdown: "# " + text + "\n\n" + text + "\n\n- " + text + "\n\n```\n" + text + "\n```\n\n[" + text + "](https://例え.jp/" + text + ")\n"},
		Page{Title: "Second " + text, Depth: 3}, // a depth deeper than the outline allows is clamped
	)
	// Latin-1 and Windows-1252 characters are kept, others become "?".
	want := "??? ? \xdcn\xefc\xf6d\xe9 \x97 \x93quotes\x94 \x805 ?  bad? utf-8"
	if got := encode(text); got != want {
		t.Errorf("encode = %q, want %q", got, want)
	}
	if !bytes.Contains(out, []byte("("+want+")")) {
		t.Errorf("the PDF lacks the encoded title %q", want)
	}
}

func TestPDFRenderHostileLayout(t *testing.T) {
	// Deep nesting, very long words and lines, many pages: all must lay out and finish.
	var b strings.Builder
	for i := 0; i < 40; i++ {
		b.WriteString(strings.Repeat("  ", i) + "- level\n")
	}
	b.WriteString("\n" + strings.Repeat(">", 40) + " deep quote\n\n")
	b.WriteString(strings.Repeat("x", 5000) + "\n\n```\n" + strings.Repeat("y", 3000) + "\n```\n")
	pages := []Page{{Title: strings.Repeat("Long title ", 40), Markdown: b.String()}}
	for i := 0; i < 200; i++ {
		pages = append(pages, Page{Title: "Page", Markdown: "Some text.", Depth: i % 3})
	}
	out := render(t, Document{Title: "Stress"}, pages...)
	if !bytes.Contains(out, []byte("deep quote")) {
		t.Error("the PDF lacks the deep quote")
	}
}

func TestPDFRenderEmpty(t *testing.T) {
	render(t, Document{})
}
