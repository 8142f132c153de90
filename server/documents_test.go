package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/publicspec"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
)

// Documents are checked twice: the harness validates every response against openapi.yaml, and
// these tests validate the documents against GitBook's published JSONDocument schema as well.
// wantPublicDocument validates a document against the public JSONDocument schema (directly: the
// public Document's "Empty" branch cannot match inside RevisionPageDocument's allOf).
func wantPublicDocument(t *testing.T, doc *markdown.Document) {
	t.Helper()
	if err := publicspec.Validate(publicspec.V146, "JSONDocument", doc); err != nil {
		t.Fatal(err)
	}
}

// docLinks lists the refs of a document's links, in order, through every block and table cell.
func docLinks(nodes []*markdown.Node) []map[string]any {
	var out []map[string]any
	for _, n := range nodes {
		if n.Object == "inline" && n.Type == "link" {
			ref, _ := n.Data["ref"].(map[string]any)
			out = append(out, ref)
		}
		out = append(out, docLinks(n.Nodes)...)
		out = append(out, docLinks(n.Fragments)...)
	}
	return out
}

func docFind(nodes []*markdown.Node, typ string) *markdown.Node {
	for _, n := range nodes {
		if n.Type == typ {
			return n
		}
		if f := docFind(n.Nodes, typ); f != nil {
			return f
		}
	}
	return nil
}

// A page holding every kind of node answers, with format=document, a document of the public
// shape whose links are content refs, and that document writes back to markdown with the same
// links.
func TestDocumentPageAllNodeKinds(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	target := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Install", "ref", "install",
		"document", markdownDoc("# Install\n\n## Requirements\n\nGo.\n"))).Refs["install"]
	// A leading "# " heading would become the page's title (and leave the body), so the heading
	// comes after a first paragraph.
	md := "Overview.\n\n# Guide\n\n" +
		"Start with [install](/pages/" + target + "), its [requirements](/pages/" + target + "#requirements), " +
		"[a page elsewhere](/spaces/otherSpace/pages/p9), [below](#details), the [sheet](/files/fSheet) " +
		"[the site](https://example.com/docs), [by path](/pages/install) and [relative](install.md).\n\n" +
		"Some **bold**, *italic*, `code` and ~~struck~~ text.\n\n" +
		"- one\n  1. nested\n- two\n\n* [x] done\n* [ ] todo\n\n" +
		"```sh\necho hi\n```\n\n> Quoted **text**\n\n> [!WARNING]\n> Careful.\n\n---\n\n" +
		"![Chart](/files/fChart \"Sales\")\n\nInline ![icon](https://img.example/i.png) image.\n\n" +
		"| Key | Value |\n|:----|------:|\n| a | [one](/pages/" + target + ") |\n\n## Details\n\nEnd.\n"
	page := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Guide", "ref", "guide", "document", markdownDoc(md))).Refs["guide"]

	p := f.page(t, crPath(space.Id, cr.Id), page, "?format=document")
	if p.Document == nil {
		t.Fatalf("no document")
	}
	doc := p.Document
	wantPublicDocument(t, doc)

	var types []string
	for _, n := range doc.Nodes {
		types = append(types, n.Type)
	}
	want := []string{"paragraph", "heading-1", "paragraph", "paragraph", "list-unordered", "list-tasks", "code", "blockquote",
		"hint", "divider", "images", "paragraph", "table", "heading-2", "paragraph"}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("blocks %v, want %v", types, want)
	}
	if h := doc.Nodes[len(doc.Nodes)-2]; h.Data["id"] != "details" {
		t.Fatalf("heading data %v", h.Data)
	}
	links := docLinks(doc.Nodes)
	wantLinks := []map[string]any{
		{"kind": "page", "page": target},
		{"kind": "anchor", "anchor": "requirements", "page": target},
		{"kind": "page", "page": "p9", "space": "otherSpace"},
		{"kind": "anchor", "anchor": "details"},
		{"kind": "file", "file": "fSheet"},
		{"kind": "url", "url": "https://example.com/docs"},
		{"kind": "page", "page": target},
		{"kind": "page", "page": target},
		{"kind": "page", "page": target},
	}
	if !reflect.DeepEqual(links, wantLinks) {
		t.Fatalf("links %v\nwant %v", links, wantLinks)
	}
	img := docFind(doc.Nodes, "image")
	if img == nil || !reflect.DeepEqual(img.Data["ref"], map[string]any{"kind": "file", "file": "fChart"}) ||
		len(img.Fragments) != 1 || img.Fragments[0].Fragment != "caption" {
		t.Fatalf("image %+v", img)
	}
	if hint := docFind(doc.Nodes, "hint"); hint.Data["style"] != "warning" {
		t.Fatalf("hint %v", hint.Data)
	}

	// Back to markdown, the links are the links written (by id).
	back := markdown.Options{SpaceID: space.Id}.ToMarkdown(doc)
	for _, l := range []string{"(/pages/" + target + ")", "(/pages/" + target + "#requirements)",
		"(/spaces/otherSpace/pages/p9)", "(#details)", "(/files/fSheet)", "(https://example.com/docs)",
		`![Chart](/files/fChart "Sales")`, "[relative](/pages/" + target + ")", "> [!WARNING]", "| a | [one](/pages/" + target + ") |"} {
		if !strings.Contains(back, l) {
			t.Errorf("markdown written back lacks %q:\n%s", l, back)
		}
	}
	// The space's own id in a link is no cross-space ref.
	f.apply(t, f.admin, space.Id, cr.Id, updatePage(page, "document", markdownDoc("[self](/spaces/"+space.Id+"/pages/"+target+")\n")))
	p = f.page(t, crPath(space.Id, cr.Id), page, "")
	if got := docLinks(p.Document.Nodes); !reflect.DeepEqual(got, []map[string]any{{"kind": "page", "page": target}}) {
		t.Fatalf("own-space link %v", got)
	}
}

// A comment body may be a document: it is stored as markdown, so its links stay links both ways.
func TestDocumentCommentBodies(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	guide := w.pages["Guide"]
	doc := map[string]any{
		"object": "document",
		"data":   map[string]any{},
		"nodes": []any{map[string]any{
			"object": "block", "type": "paragraph",
			"nodes": []any{
				map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "See ", "marks": []any{}}}},
				map[string]any{"object": "inline", "type": "link", "isVoid": false,
					"data": map[string]any{"ref": map[string]any{"kind": "page", "page": guide}},
					"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "the guide",
						"marks": []any{map[string]any{"object": "mark", "type": "bold"}}}}}}},
				map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": ".", "marks": []any{}}}},
			},
		}},
	}
	c := w.csPost(t, w.commenter, map[string]any{"page": guide, "body": map[string]any{"document": doc}})
	if c.Body.Markdown == nil || *c.Body.Markdown != "See [**the guide**](/pages/"+guide+")." {
		t.Fatalf("stored body %+v", c.Body)
	}
	asDoc := getJSON[gen.Comment](t, w.testServer, w.commenter, w.csPath("/", c.Id, "?format=document"))
	if asDoc.Body.Document == nil {
		t.Fatalf("no document body")
	}
	wantPublicDocument(t, asDoc.Body.Document)
	if got := docLinks(asDoc.Body.Document.Nodes); !reflect.DeepEqual(got, []map[string]any{{"kind": "page", "page": guide}}) {
		t.Fatalf("links %v", got)
	}

	// Editing and replying take documents too.
	edited := w.csPut(t, w.commenter, c.Id, map[string]any{"body": map[string]any{"document": map[string]any{
		"object": "document", "data": map[string]any{},
		"nodes": []any{map[string]any{"object": "block", "type": "heading-2", "data": map[string]any{"id": "x"},
			"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Edited", "marks": []any{}}}}}}},
	}}})
	if *edited.Body.Markdown != "## Edited {#x}" {
		t.Fatalf("edited body %q", *edited.Body.Markdown)
	}
	r := sendJSON[gen.CommentReply](t, w.testServer, http.StatusOK, w.commenter, "POST", w.csPath("/", c.Id, "/replies"), map[string]any{"body": map[string]any{"document": doc}})
	if r.Body.Markdown == nil || !strings.Contains(*r.Body.Markdown, "(/pages/"+guide+")") {
		t.Fatalf("reply body %+v", r.Body)
	}

	// Exactly one of markdown and document, and a document the public schema allows.
	for name, body := range map[string]any{
		"Neither":     map[string]any{},
		"Both":        map[string]any{"markdown": "x", "document": doc},
		"UnknownNode": map[string]any{"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block", "type": "mystery", "nodes": []any{}}}}},
		"Empty":       map[string]any{"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}},
	} {
		t.Run(name, func(t *testing.T) {
			r := w.Expect(t, http.StatusBadRequest, w.commenter, "POST", w.csPath(), map[string]any{"body": body})
			if msg := r.ErrorMessage(t); !strings.Contains(msg, "body") {
				t.Fatalf("message %q", msg)
			}
		})
	}
}
