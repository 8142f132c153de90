package translate

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// glossaryTerms are the terms the golden files keep as they are.
var glossaryTerms = Kept([]string{"Quire Cloud", "Quire"})

// upper is the golden files' translator: deterministic, and visible in every translated byte.
func upper(segments []string) []string {
	out := make([]string, len(segments))
	for i, s := range segments {
		out[i] = strings.ToUpper(s)
	}
	return out
}

// Each testdata/*.md is split; what would be sent is testdata/*.segments.txt (one per line) and the
// page put back with upper-cased translations is testdata/*.out.md.
func TestGoldenMarkdown(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.md")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".out.md") {
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text := Markdown(string(src), glossaryTerms)
			segs := text.Segments()
			golden(t, strings.TrimSuffix(f, ".md")+".segments.txt", strings.Join(segs, "\n")+"\n")
			golden(t, strings.TrimSuffix(f, ".md")+".out.md", text.Render(upper(segs)))
			// Sending the segments back untranslated leaves the page's meaning as it was.
			if again := Markdown(text.Render(segs), glossaryTerms).Segments(); strings.Join(again, "\n") != strings.Join(segs, "\n") {
				t.Errorf("an identity translation changed the segments:\n%q\n%q", segs, again)
			}
		})
	}
	if n == 0 {
		t.Fatal("no golden files")
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Nothing of the code, URLs, link targets, file references or conditions reaches the translator.
func TestMarkdownSendsOnlyText(t *testing.T) {
	src, err := os.ReadFile("testdata/structure.md")
	if err != nil {
		t.Fatal(err)
	}
	sent := strings.Join(Markdown(string(src), glossaryTerms).Segments(), "\n")
	for _, never := range []string{"fmt.Println", "go run", "https://", "/files/", "/pages/", "visitor.claims", "{%", "inline_code", "Quire", "sidebar:", "<kbd>"} {
		if strings.Contains(sent, never) {
			t.Errorf("%q was sent to the translator:\n%s", never, sent)
		}
	}
}

func TestPlainAndGlossary(t *testing.T) {
	p := Plain("Getting started with Quire", glossaryTerms)
	if got := p.Segments(); len(got) != 1 || got[0] != "Getting started with" {
		t.Fatalf("segments %q", got)
	}
	if got := p.Render([]string{"Premiers pas avec"}); got != "Premiers pas avec Quire" {
		t.Fatalf("render %q", got)
	}
	doc := `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Keep these:","marks":[]}]}]},
	{"object":"block","type":"list-unordered","nodes":[
	{"object":"block","type":"list-item","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Quire","marks":[]}]}]}]},
	{"object":"block","type":"list-item","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"change request","marks":[]}]}]}]}]}]}`
	if got := Glossary([]byte(doc)); strings.Join(got, "|") != "change request|Quire" {
		t.Fatalf("glossary %q", got)
	}
	// Lists inside other kinds count too: the document of every kind holds three (one item each,
	// at the top level) and none elsewhere; inside an expandable's body and a tab they are found.
	raw, err := os.ReadFile("../markdown/testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := Glossary(raw); strings.Join(got, "|") != "three|done|dot" && strings.Join(got, "|") != "three|dot|done" {
		t.Fatalf("glossary of every kind %q", got)
	}
	nested := `{"object":"document","data":{},"nodes":[{"object":"block","type":"expandable","isVoid":true,"data":{},"fragments":[
	{"object":"fragment","fragment":"expandable-body","type":"expandable-body","nodes":[{"object":"block","type":"list-unordered","nodes":[
	{"object":"block","type":"list-item","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Quire Cloud","marks":[]}]}]}]}]}]}]},
	{"object":"block","type":"tabs","nodes":[{"object":"block","type":"tabs-item","data":{},"nodes":[{"object":"block","type":"list-tasks","nodes":[
	{"object":"block","type":"list-item","data":{"checked":false},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Acme","marks":[]}]}]}]}]}]}]}]}`
	if got := Glossary([]byte(nested)); strings.Join(got, "|") != "Quire Cloud|Acme" {
		t.Fatalf("glossary of nested lists %q", got)
	}
}

// What a translator answers is text: markup in it (emphasis, links, HTML, tags, table pipes) is
// escaped, and line breaks cannot start new blocks.
func TestTranslationsCannotInjectMarkup(t *testing.T) {
	text := Markdown("| A |\n|---|\n| cell |\n\nSome text.\n", nil)
	got := text.Render([]string{"A", "x | y", "*bold* [link](https://evil.test) <script>alert(1)</script> {% if true %}\n\n# heading"})
	want := "| A |\n|---|\n| x \\| y |\n\n\\*bold\\* \\[link\\](https://evil.test) \\<script>alert(1)\\</script> \\{% if true %} # heading\n"
	if got != want {
		t.Fatalf("rendered\n%q\nwant\n%q", got, want)
	}
}
