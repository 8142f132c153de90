package markdown

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// parse converts markdown and checks what every document must hold: the document object, the
// schema version, unique keys on every node, and well-formed node objects.
func parse(t *testing.T, src string) *Document {
	t.Helper()
	doc := FromMarkdown(src)
	if doc.Object != "document" {
		t.Fatalf("object %q", doc.Object)
	}
	if doc.Data["schemaVersion"] != SchemaVersion {
		t.Fatalf("data %v", doc.Data)
	}
	if doc.Nodes == nil {
		t.Fatalf("nodes is nil (must be an empty array on the wire)")
	}
	keys := map[string]bool{}
	var check func(n *Node, depth int)
	check = func(n *Node, depth int) {
		if n.Key == "" {
			t.Fatalf("node without a key: %+v", n)
		}
		if keys[n.Key] {
			t.Fatalf("key %q used twice in %s", n.Key, dump(doc))
		}
		keys[n.Key] = true
		switch n.Object {
		case "block", "inline":
			if n.Type == "" {
				t.Fatalf("%s without a type", n.Object)
			}
			if n.Leaves != nil {
				t.Fatalf("%s %s with leaves", n.Object, n.Type)
			}
			if n.IsVoid != nil && *n.IsVoid {
				if n.Nodes != nil {
					t.Fatalf("void %s with nodes", n.Type)
				}
			} else if len(n.Nodes) == 0 {
				t.Fatalf("non-void %s %s without nodes", n.Object, n.Type)
			}
			if depth == 0 && n.Object != "block" {
				t.Fatalf("top-level %s", n.Object)
			}
		case "text":
			if len(n.Leaves) == 0 || n.Nodes != nil {
				t.Fatalf("text node %+v", n)
			}
			for _, l := range n.Leaves {
				if l.Object != "leaf" || l.Marks == nil {
					t.Fatalf("leaf %+v", l)
				}
			}
		default:
			t.Fatalf("node object %q", n.Object)
		}
		for _, ch := range n.Nodes {
			check(ch, depth+1)
		}
	}
	for _, n := range doc.Nodes {
		check(n, 0)
	}
	validatePublic(t, doc)
	// The wire form round-trips.
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var back Document
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return doc
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// types lists the types of nodes.
func types(nodes []*Node) []string {
	out := []string{}
	for _, n := range nodes {
		if n.Object == "text" {
			out = append(out, "text")
		} else {
			out = append(out, n.Type)
		}
	}
	return out
}

func wantTypes(t *testing.T, what string, nodes []*Node, want ...string) {
	t.Helper()
	if got := types(nodes); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: types %v, want %v\n%s", what, got, want, dump(nodes))
	}
}

// plain is the text of a node and its descendants.
func plain(nodes []*Node) string {
	var b strings.Builder
	for _, n := range nodes {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
		b.WriteString(plain(n.Nodes))
	}
	return b.String()
}

// span is a leaf's text with its marks, for comparisons.
type span struct {
	Text  string
	Marks string
}

// spans flattens the text leaves under nodes (links included) with their marks joined by "+".
func spans(nodes []*Node) []span {
	var out []span
	for _, n := range nodes {
		for _, l := range n.Leaves {
			var m []string
			for _, mk := range l.Marks {
				if mk.Object != "mark" {
					panic("mark object " + mk.Object)
				}
				m = append(m, mk.Type)
			}
			out = append(out, span{l.Text, strings.Join(m, "+")})
		}
		out = append(out, spans(n.Nodes)...)
	}
	return out
}

func TestRichtextEmpty(t *testing.T) {
	for _, src := range []string{"", "\n\n", "   \n"} {
		doc := parse(t, src)
		if len(doc.Nodes) != 0 {
			t.Fatalf("%q: nodes %s", src, dump(doc.Nodes))
		}
		if b, _ := json.Marshal(doc); !strings.Contains(string(b), `"nodes":[]`) {
			t.Fatalf("%q: wire form %s", src, b)
		}
	}
}

func TestRichtextHeadings(t *testing.T) {
	doc := parse(t, "# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six\n\nSetext\n======\n\nSub\n---\n")
	wantTypes(t, "headings", doc.Nodes, "heading-1", "heading-2", "heading-3", "heading-3", "heading-3", "heading-3",
		"heading-1", "heading-2")
	for i, want := range []string{"One", "Two", "Three", "Four", "Five", "Six", "Setext", "Sub"} {
		if got := plain(doc.Nodes[i].Nodes); got != want {
			t.Fatalf("heading %d text %q, want %q", i, got, want)
		}
		if *doc.Nodes[i].IsVoid {
			t.Fatalf("heading is void")
		}
	}
	// A heading with marks keeps them.
	doc = parse(t, "## A *b* `c`\n")
	if got, want := spans(doc.Nodes[0].Nodes), []span{{"A ", ""}, {"b", "italic"}, {" ", ""}, {"c", "code"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("heading spans %v, want %v", got, want)
	}
	// An empty heading still has a text node.
	doc = parse(t, "#\n")
	wantTypes(t, "empty heading", doc.Nodes, "heading-1")
	wantTypes(t, "empty heading children", doc.Nodes[0].Nodes, "text")
}

func TestRichtextMarks(t *testing.T) {
	doc := parse(t, "plain *it* _it2_ **bold** __bold2__ `code` ~~gone~~ ***both*** **bold *and it***")
	wantTypes(t, "paragraph", doc.Nodes, "paragraph")
	got := spans(doc.Nodes[0].Nodes)
	want := []span{
		{"plain ", ""}, {"it", "italic"}, {" ", ""}, {"it2", "italic"}, {" ", ""}, {"bold", "bold"}, {" ", ""},
		{"bold2", "bold"}, {" ", ""}, {"code", "code"}, {" ", ""}, {"gone", "strikethrough"}, {" ", ""},
	}
	if !reflect.DeepEqual(got[:len(want)], want) {
		t.Fatalf("spans\n got %v\nwant %v", got, want)
	}
	// ***both*** carries both marks, nested either way round.
	both := got[len(want)]
	if both.Text != "both" || (both.Marks != "italic+bold" && both.Marks != "bold+italic") {
		t.Fatalf("***both*** → %v", both)
	}
	rest := got[len(want)+1:]
	if len(rest) < 3 || rest[1] != (span{"bold ", "bold"}) || rest[2] != (span{"and it", "bold+italic"}) {
		t.Fatalf("nested marks %v", rest)
	}
	// Marks inside a code span are literal text.
	doc = parse(t, "`**not bold**`")
	if got := spans(doc.Nodes[0].Nodes); !reflect.DeepEqual(got, []span{{"**not bold**", "code"}}) {
		t.Fatalf("code span %v", got)
	}
	// Strikethrough around emphasis.
	doc = parse(t, "~~a **b**~~")
	if got := spans(doc.Nodes[0].Nodes); !reflect.DeepEqual(got, []span{{"a ", "strikethrough"}, {"b", "strikethrough+bold"}}) {
		t.Fatalf("strikethrough %v", got)
	}
}

func TestRichtextEscapesAndEntities(t *testing.T) {
	doc := parse(t, `a \* b \_c\_ &amp; &copy; &#65; &#x42;`)
	if got := plain(doc.Nodes); got != "a * b _c_ & © A B" {
		t.Fatalf("text %q", got)
	}
	// Code spans are raw.
	doc = parse(t, "`\\* &amp;`")
	if got := spans(doc.Nodes); !reflect.DeepEqual(got, []span{{`\* &amp;`, "code"}}) {
		t.Fatalf("code span %v", got)
	}
	// So is fenced code.
	doc = parse(t, "```\n\\* &amp;\n```\n")
	if got := plain(doc.Nodes); got != `\* &amp;` {
		t.Fatalf("code %q", got)
	}
}

func TestRichtextLineBreaks(t *testing.T) {
	doc := parse(t, "one\ntwo  \nthree\\\nfour")
	wantTypes(t, "paragraph", doc.Nodes, "paragraph")
	if got := plain(doc.Nodes); got != "one\ntwo\nthree\nfour" {
		t.Fatalf("text %q", got)
	}
}

func linkRef(t *testing.T, n *Node) map[string]any {
	t.Helper()
	if n.Object != "inline" || n.Type != "link" || *n.IsVoid {
		t.Fatalf("not a link: %s", dump(n))
	}
	return refOf(n)
}

func linkURL(t *testing.T, n *Node) string {
	t.Helper()
	ref := linkRef(t, n)
	if ref["kind"] != "url" {
		t.Fatalf("link ref %v", n.Data)
	}
	u, _ := ref["url"].(string)
	return u
}

func TestRichtextLinks(t *testing.T) {
	doc := parse(t, `See [the **docs**](https://example.com/docs "Title") and [rel](../other.md) and [empty]().`)
	p := doc.Nodes[0]
	wantTypes(t, "inlines", p.Nodes, "text", "link", "text", "link", "text", "link", "text")
	if u := linkURL(t, p.Nodes[1]); u != "https://example.com/docs" {
		t.Fatalf("url %q", u)
	}
	if got := spans(p.Nodes[1].Nodes); !reflect.DeepEqual(got, []span{{"the ", ""}, {"docs", "bold"}}) {
		t.Fatalf("link text %v", got)
	}
	if u := linkURL(t, p.Nodes[3]); u != "../other.md" {
		t.Fatalf("relative url %q", u)
	}
	if u := linkURL(t, p.Nodes[5]); u != "" {
		t.Fatalf("empty url %q", u)
	}
	if plain(p.Nodes[0:1]) != "See " || plain(p.Nodes[6:]) != "." {
		t.Fatalf("around links %s", dump(p.Nodes))
	}

	// A link inside emphasis keeps the mark on its text.
	doc = parse(t, "*[x](/pages/abc)*")
	l := doc.Nodes[0].Nodes[0]
	if !reflect.DeepEqual(linkRef(t, l), map[string]any{"kind": "page", "page": "abc"}) || !reflect.DeepEqual(spans(l.Nodes), []span{{"x", "italic"}}) {
		t.Fatalf("emphasised link %s", dump(l))
	}

	// Reference links resolve.
	doc = parse(t, "[ref][r]\n\n[r]: https://ref.example/\n")
	wantTypes(t, "reference", doc.Nodes, "paragraph")
	if u := linkURL(t, doc.Nodes[0].Nodes[0]); u != "https://ref.example/" {
		t.Fatalf("reference url %q", u)
	}
}

func TestRichtextAutolinks(t *testing.T) {
	doc := parse(t, "<https://a.example/x> and https://b.example/y?q=1 and www.c.example and <mailto:me@example.com>")
	p := doc.Nodes[0]
	wantTypes(t, "inlines", p.Nodes, "link", "text", "link", "text", "link", "text", "link")
	for i, want := range map[int]string{0: "https://a.example/x", 2: "https://b.example/y?q=1", 4: "http://www.c.example", 6: "mailto:me@example.com"} {
		if u := linkURL(t, p.Nodes[i]); u != want {
			t.Fatalf("autolink %d url %q, want %q", i, u, want)
		}
		if plain(p.Nodes[i].Nodes) == "" {
			t.Fatalf("autolink %d without text", i)
		}
	}
	if plain(p.Nodes[0].Nodes) != "https://a.example/x" {
		t.Fatalf("autolink text %q", plain(p.Nodes[0].Nodes))
	}
}

func TestRichtextLists(t *testing.T) {
	t.Run("unordered", func(t *testing.T) {
		doc := parse(t, "- one\n- two *it*\n  - nested\n* other list\n")
		wantTypes(t, "top", doc.Nodes, "list-unordered", "list-unordered")
		items := doc.Nodes[0].Nodes
		wantTypes(t, "items", items, "list-item", "list-item")
		wantTypes(t, "first item", items[0].Nodes, "paragraph")
		if plain(items[0].Nodes) != "one" {
			t.Fatalf("item text %q", plain(items[0].Nodes))
		}
		wantTypes(t, "second item", items[1].Nodes, "paragraph", "list-unordered")
		if plain(items[1].Nodes[1].Nodes) != "nested" {
			t.Fatalf("nested %q", plain(items[1].Nodes[1].Nodes))
		}
		if _, ok := items[0].Data["checked"]; ok {
			t.Fatalf("plain item has checked: %v", items[0].Data)
		}
	})
	t.Run("ordered", func(t *testing.T) {
		doc := parse(t, "1. one\n2. two\n\n   more\n3. three\n")
		wantTypes(t, "top", doc.Nodes, "list-ordered")
		items := doc.Nodes[0].Nodes
		wantTypes(t, "items", items, "list-item", "list-item", "list-item")
		wantTypes(t, "loose item", items[1].Nodes, "paragraph", "paragraph")
		if plain(items[2].Nodes) != "three" {
			t.Fatalf("item %q", plain(items[2].Nodes))
		}
	})
	t.Run("tasks", func(t *testing.T) {
		doc := parse(t, "- [x] done\n- [ ] todo\n- [X] also done\n")
		wantTypes(t, "top", doc.Nodes, "list-tasks")
		items := doc.Nodes[0].Nodes
		wantTypes(t, "items", items, "list-item", "list-item", "list-item")
		for i, want := range []bool{true, false, true} {
			if items[i].Data["checked"] != want {
				t.Fatalf("item %d checked %v, want %v", i, items[i].Data["checked"], want)
			}
		}
		for i, want := range []string{"done", "todo", "also done"} {
			if got := strings.TrimSpace(plain(items[i].Nodes)); got != want {
				t.Fatalf("item %d text %q, want %q", i, got, want)
			}
			if strings.Contains(plain(items[i].Nodes), "[") {
				t.Fatalf("checkbox left in text %q", plain(items[i].Nodes))
			}
		}
	})
}

func TestRichtextCode(t *testing.T) {
	doc := parse(t, "```go title.go\nfunc main() {\n\n\tprintln(\"*hi*\")\n}\n```\n\n~~~\nplain\n~~~\n\n    indented\n")
	wantTypes(t, "blocks", doc.Nodes, "code", "code", "code")
	c := doc.Nodes[0]
	if c.Data["syntax"] != "go" {
		t.Fatalf("syntax %v", c.Data)
	}
	wantTypes(t, "lines", c.Nodes, "code-line", "code-line", "code-line", "code-line")
	for i, want := range []string{"func main() {", "", "\tprintln(\"*hi*\")", "}"} {
		if got := spans(c.Nodes[i].Nodes); !reflect.DeepEqual(got, []span{{want, ""}}) {
			t.Fatalf("line %d %v, want %q", i, got, want)
		}
	}
	if _, ok := doc.Nodes[1].Data["syntax"]; ok {
		t.Fatalf("fence without info has syntax %v", doc.Nodes[1].Data)
	}
	if plain(doc.Nodes[1].Nodes) != "plain" || plain(doc.Nodes[2].Nodes) != "indented" {
		t.Fatalf("code text %q %q", plain(doc.Nodes[1].Nodes), plain(doc.Nodes[2].Nodes))
	}
}

func TestRichtextBlockquoteAndDivider(t *testing.T) {
	doc := parse(t, "> quoted *text*\n>\n> - item\n\n---\n\nafter\n\n***\n")
	wantTypes(t, "blocks", doc.Nodes, "blockquote", "divider", "paragraph", "divider")
	wantTypes(t, "quote", doc.Nodes[0].Nodes, "paragraph", "list-unordered")
	if got := spans(doc.Nodes[0].Nodes[0].Nodes); !reflect.DeepEqual(got, []span{{"quoted ", ""}, {"text", "italic"}}) {
		t.Fatalf("quote spans %v", got)
	}
	d := doc.Nodes[1]
	if d.IsVoid == nil || !*d.IsVoid || len(d.Nodes) != 0 {
		t.Fatalf("divider %s", dump(d))
	}
}

func TestRichtextImages(t *testing.T) {
	doc := parse(t, "![A cat](https://img.example/cat.png)\n\n![one](a.png) ![two *x*](b.png)\n\nText with ![inline](c.png) image.\n")
	wantTypes(t, "blocks", doc.Nodes, "images", "images", "paragraph")
	imgs := doc.Nodes[0]
	if *imgs.IsVoid {
		t.Fatalf("images block is void")
	}
	wantTypes(t, "images", imgs.Nodes, "image")
	img := imgs.Nodes[0]
	ref, _ := img.Data["ref"].(map[string]any)
	if !*img.IsVoid || img.Object != "block" || ref["kind"] != "url" || ref["url"] != "https://img.example/cat.png" || img.Data["alt"] != "A cat" {
		t.Fatalf("image %s", dump(img))
	}
	// An image of the space's files refers to the file; a title is its caption.
	doc2 := parse(t, `![Chart](/files/f1 "Sales by month")`)
	img = doc2.Nodes[0].Nodes[0]
	if !reflect.DeepEqual(refOf(img), map[string]any{"kind": "file", "file": "f1"}) || len(img.Fragments) != 1 ||
		img.Fragments[0].Fragment != "caption" || Text(img.Fragments[0].Nodes) != "Sales by month" {
		t.Fatalf("file image %s", dump(img))
	}
	wantTypes(t, "two images", doc.Nodes[1].Nodes, "image", "image")
	if doc.Nodes[1].Nodes[1].Data["alt"] != "two x" {
		t.Fatalf("alt %v", doc.Nodes[1].Nodes[1].Data["alt"])
	}
	p := doc.Nodes[2]
	wantTypes(t, "inline image", p.Nodes, "text", "inline-image", "text")
	ii := p.Nodes[1]
	if ii.Object != "inline" || !*ii.IsVoid || ii.Data["alt"] != "inline" {
		t.Fatalf("inline image %s", dump(ii))
	}
}

func TestRichtextTable(t *testing.T) {
	doc := parse(t, "| Name | **Value** |\n|:-----|------:|\n| a | `1` |\n| b | [l](https://l.example) |\n")
	wantTypes(t, "blocks", doc.Nodes, "table")
	tbl := doc.Nodes[0]
	if !*tbl.IsVoid || tbl.Nodes != nil {
		t.Fatalf("table %s", dump(tbl))
	}
	cols, rows := tableShape(tbl)
	if !reflect.DeepEqual(cols, []tableColumn{{"c1", "Name", "left"}, {"c2", "Value", "right"}}) {
		t.Fatalf("columns %v", cols)
	}
	if len(rows) != 2 || len(tbl.Fragments) != 4 {
		t.Fatalf("rows %v, fragments %s", rows, dump(tbl.Fragments))
	}
	cell := func(r int, c string) []*Node {
		f := cellFragment(tbl, rows[r][c])
		if f == nil || f.Object != "fragment" || len(f.Nodes) != 1 || f.Nodes[0].Type != "paragraph" {
			t.Fatalf("cell %d %s: %s", r, c, dump(f))
		}
		return f.Nodes[0].Nodes
	}
	if got := spans(cell(0, "c2")); !reflect.DeepEqual(got, []span{{"1", "code"}}) {
		t.Fatalf("code cell %v", got)
	}
	if u := linkURL(t, cell(1, "c2")[0]); u != "https://l.example" {
		t.Fatalf("link cell %q", u)
	}
	if plain(cell(1, "c1")) != "b" {
		t.Fatalf("cell %q", plain(cell(1, "c1")))
	}
	if got := tableRows(tbl); !reflect.DeepEqual(got, [][]string{{"Name", "Value"}, {"a", "1"}, {"b", "l"}}) {
		t.Fatalf("rows %q", got)
	}
}

func TestRichtextMixedDocument(t *testing.T) {
	src := "# Title\n\nIntro with a [link](https://x.example).\n\n- a\n- b\n\n```sh\necho hi\n```\n\n![img](i.png)\n\n> q\n\n---\n\n| h |\n|---|\n| c |\n\n<div>html</div>\n"
	doc := parse(t, src)
	wantTypes(t, "blocks", doc.Nodes, "heading-1", "paragraph", "list-unordered", "code", "images", "blockquote", "divider", "table", "paragraph")
	// Keys are unique across the document and stable for the same input.
	again := FromMarkdown(src)
	if !reflect.DeepEqual(doc, again) {
		t.Fatalf("not deterministic")
	}
	if !strings.Contains(plain(doc.Nodes[8:]), "html") {
		t.Fatalf("html block text %q", plain(doc.Nodes[8:]))
	}
}

func TestRichtextUniqueKeysLarge(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("## Section\n\nSome *text* and [a link](https://e.example) and `code`.\n\n- [ ] task\n- [x] done\n\n")
	}
	doc := parse(t, b.String()) // parse checks uniqueness
	if len(doc.Nodes) != 600 {
		t.Fatalf("%d top-level nodes", len(doc.Nodes))
	}
}

// The parser cuts plain text where a link could start; the document keeps one text node.
func TestRichtextNeighbouringTextJoins(t *testing.T) {
	doc := FromMarkdown("How to use the product.\n")
	p := doc.Nodes[0]
	if len(p.Nodes) != 1 || p.Nodes[0].Leaves[0].Text != "How to use the product." {
		t.Fatalf("paragraph = %+v", p.Nodes)
	}
	mixed := FromMarkdown("plain **bold** plain www.example.com tail\n").Nodes[0]
	var texts []string
	for _, n := range mixed.Nodes {
		if n.Object == "text" {
			texts = append(texts, n.Leaves[0].Text)
		}
	}
	if len(texts) < 3 || texts[0] != "plain " || texts[1] != "bold" {
		t.Fatalf("texts = %q", texts)
	}
}
