package markdown

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// everyKind is a document holding every block, inline and mark kind of the public specs
// (testdata/every-kind.json; the server's tests send it through every operation taking one).
func everyKind(t *testing.T) (*Document, []byte) {
	t.Helper()
	raw, err := os.ReadFile("testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc Document
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return &doc, raw
}

// A document read and written again is the same JSON: every node's data, meta, fragments and
// fragment types, the document's meta, kept as given.
func TestEveryKindRoundTripsAsJSON(t *testing.T) {
	doc, raw := everyKind(t)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	_ = json.Unmarshal(raw, &want)
	_ = json.Unmarshal(out, &got)
	wantJSON, _ := json.Marshal(want)
	gotJSON, _ := json.Marshal(got)
	if !bytes.Equal(wantJSON, gotJSON) {
		t.Fatalf("document changed in a round trip:\n%s\nwant\n%s", gotJSON, wantJSON)
	}
}

// Every kind is written as markdown that keeps what it shows: its text, its link, its label.
func TestEveryKindToMarkdown(t *testing.T) {
	doc, _ := everyKind(t)
	md := ToMarkdown(doc)
	for _, c := range []struct{ kind, want string }{
		{"heading-1", "# Every kind\n"},
		{"heading-2", "## Second\n"},
		{"heading-3", "### Third\n"},
		{"bold, italic, code", "**bold** *italic* `code`"},
		{"keyboard", "<kbd>Ctrl</kbd>"},
		{"strikethrough", "~~struck~~"},
		{"color (text kept)", " red x"},
		{"superscript", "x<sup>2</sup>"},
		{"subscript", "H<sub>2</sub>O"},
		{"link", "[there](https://example.com/)"},
		{"emoji", "👋"},
		{"expression", "`space.vars.version`"},
		{"inline-math", "$$a^2+b^2$$"},
		{"inline-image", "![pic](https://example.com/i.png)"},
		{"annotation", "term (A note)"},
		{"mention", "@ada"},
		{"button with a ref", "[Start](https://example.com/start)"},
		{"button with an action", " Ask\n"},
		{"list-ordered, math in an item", "3. three\n\n   $$x=1$$"},
		{"list-unordered", "- dot"},
		{"list-tasks", "[x] done"},
		{"divider", "\n---\n"},
		{"blockquote", "> quoted"},
		{"hint, embed in it", "> [!WARNING]\n> careful\n>\n> <https://example.com/video>"},
		{"prompt", "Summarize\n\n```text\nSummarize this page\n```"},
		{"images", "![diagram](/files/f1)"},
		{"file", "[/files/f2](/files/f2)"},
		{"drawing", "[/files/f3](/files/f3)"},
		{"embed", "<https://example.com/embed>"},
		{"code", "```js\nlet a = 1\nlet b = 2\n```"},
		{"code-line with an expression", "```sh\necho space.vars.version\n```"},
		{"math", "$$E=mc^2$$"},
		{"expandable", "**More**\n\nHidden text"},
		{"tabs", "**Linux**\n\napt install\n\n**Mac**\n\nbrew install"},
		{"table (grid)", "| Name | Count |\n| --- | --- |\n| apples | 4 |"},
		{"table (cards)", "| Title | Link |\n| --- | --- |\n| Card one | sp-card |"},
		{"swagger", "[GET /pets](https://example.com/openapi.json)"},
		{"openapi-operation", "{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"post\" %}\n{% endopenapi-operation %}"},
		{"openapi-schemas", "{% openapi-schemas spec=\"petstore\" schemas=\"Pet,Owner\" grouped=\"true\" %}"},
		{"openapi-webhook", "{% openapi-webhook spec=\"petstore\" name=\"newPet\" method=\"post\" %}"},
		{"content-ref", "<https://example.com/related>"},
		{"integration", "<https://example.com/int>"},
		{"stepper", "1. First step\n2. Second step"},
		{"if", "Beta only"},
		{"columns", "Left\n\nRight"},
		{"updates", "**2025-01-02**\n\nReleased"},
		{"reusable-content", "{% include \"rc1\" %}"}, // the tag naming it: its content is not in this document
	} {
		if !strings.Contains(md, c.want) {
			t.Errorf("%s: markdown lacks %q:\n%s", c.kind, c.want, md)
		}
	}
}

// The marks markdown writes as HTML are read back as the same marks; other tags stay text.
func TestHTMLMarksReadBack(t *testing.T) {
	doc := FromMarkdown("press <kbd>Ctrl</kbd>, x<sup>2</sup>, H<sub>2</sub>O, <b>b</b>, <kbd>open\n")
	var marked []string
	for _, n := range doc.Nodes[0].Nodes {
		for _, l := range n.Leaves {
			for _, m := range l.Marks {
				marked = append(marked, m.Type+":"+l.Text)
			}
		}
	}
	if got := strings.Join(marked, " "); got != "keyboard:Ctrl superscript:2 subscript:2" {
		t.Errorf("marks read %q", got)
	}
	if text := Text(doc.Nodes[0].Nodes); !strings.Contains(text, "<b>b</b>") || !strings.HasSuffix(text, "<kbd>open") {
		t.Errorf("other tags are not kept as text: %q", text)
	}
	if back := ToMarkdown(doc); !strings.Contains(back, "<kbd>Ctrl</kbd>") || !strings.Contains(back, "x<sup>2</sup>") {
		t.Errorf("marks not written back: %q", back)
	}
}

// The plain text of void inlines is what they show.
func TestTextOfVoidInlines(t *testing.T) {
	doc, _ := everyKind(t)
	text := Text(doc.Nodes[4].Nodes)
	for _, want := range []string{"👋", "space.vars.version", "a^2+b^2", "term", "@ada", "Start", "Ask"} {
		if !strings.Contains(text, want) {
			t.Errorf("text %q lacks %q", text, want)
		}
	}
}

// Find names where a block of a kind sits, inside nodes and fragments alike.
func TestFindBlock(t *testing.T) {
	doc, _ := everyKind(t)
	if at, ok := Find(doc, "if"); !ok || doc.Nodes[atoi(t, at)].Type != "if" {
		t.Fatalf("if at %q %v", at, ok)
	}
	if at, ok := Find(doc, "stepper-step"); !ok || !strings.HasSuffix(at, "].nodes[0]") {
		t.Errorf("stepper-step at %q", at)
	}
	nested := &Document{Nodes: []*Node{{Object: "block", Type: "expandable", Fragments: []*Node{
		{Object: "fragment", Nodes: []*Node{{Object: "block", Type: "paragraph"}, {Object: "block", Type: "if"}}}}}}}
	if at, ok := Find(nested, "if"); !ok || at != "nodes[0].fragments[0].nodes[1]" {
		t.Errorf("nested if at %q", at)
	}
	if _, ok := Find(nested, "tabs"); ok {
		t.Error("found a kind the document does not hold")
	}
	if _, ok := Find(nil, "if"); ok {
		t.Error("found in no document")
	}
}

// atoi reads the index of a top-level path ("nodes[7]").
func atoi(t *testing.T, path string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "nodes["), "]"))
	if err != nil {
		t.Fatalf("%q is not a top-level path", path)
	}
	return n
}

// The published page of a document of every kind shows the marks markdown writes as HTML, and
// the text of every kind.
func TestEveryKindToHTML(t *testing.T) {
	doc, _ := everyKind(t)
	out, heads := HTMLOptions{}.ToHTML(ToMarkdown(doc))
	html := string(out)
	for _, want := range []string{"<kbd>Ctrl</kbd>", "x<sup>2</sup>", "H<sub>2</sub>O", "term (A note)", "Hidden text", "apt install",
		"First step", "E=mc^2", "Released", "<strong>More</strong>"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q:\n%s", want, html)
		}
	}
	if len(heads) != 3 {
		t.Errorf("headings %+v", heads)
	}
}
