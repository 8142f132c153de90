package markdown

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Links to pages, anchors and files are content refs; the rest are URLs.
func TestRichtextContentRefs(t *testing.T) {
	for _, tc := range []struct {
		dest string
		want map[string]any
	}{
		{"/pages/p1", map[string]any{"kind": "page", "page": "p1"}},
		{"/pages/p1/", map[string]any{"kind": "page", "page": "p1"}},
		{"/pages/p1#setup", map[string]any{"kind": "anchor", "anchor": "setup", "page": "p1"}},
		{"#setup", map[string]any{"kind": "anchor", "anchor": "setup"}},
		{"/spaces/s2/pages/p9", map[string]any{"kind": "page", "page": "p9", "space": "s2"}},
		{"/spaces/s2/pages/p9#a", map[string]any{"kind": "anchor", "anchor": "a", "page": "p9", "space": "s2"}},
		{"/files/f1", map[string]any{"kind": "file", "file": "f1"}},
		{"/pages/guide/install", map[string]any{"kind": "url", "url": "/pages/guide/install"}},
		{"/pages/p1?x=1", map[string]any{"kind": "url", "url": "/pages/p1?x=1"}},
		{"/files/f1/extra", map[string]any{"kind": "url", "url": "/files/f1/extra"}},
		{"https://x.example/pages/p1", map[string]any{"kind": "url", "url": "https://x.example/pages/p1"}},
		{"mailto:me@example.com", map[string]any{"kind": "url", "url": "mailto:me@example.com"}},
	} {
		doc := parse(t, "[x]("+tc.dest+")")
		if got := linkRef(t, doc.Nodes[0].Nodes[0]); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: ref %v, want %v", tc.dest, got, tc.want)
		}
		if md := ToMarkdown(doc); md != "[x]("+tc.dest+")\n" && tc.dest != "/pages/p1/" {
			t.Errorf("%s: back to %q", tc.dest, md)
		}
	}
	// In its own space a page link carries no space, and is written back without one.
	o := Options{SpaceID: "s2"}
	doc := o.FromMarkdown("[x](/spaces/s2/pages/p9)")
	if got := refOf(doc.Nodes[0].Nodes[0]); !reflect.DeepEqual(got, map[string]any{"kind": "page", "page": "p9"}) {
		t.Errorf("own space ref %v", got)
	}
	if md := o.ToMarkdown(doc); md != "[x](/pages/p9)\n" {
		t.Errorf("own space back to %q", md)
	}
	// With a resolver, page paths and relative .md links are page refs.
	o = Options{PagePath: "guide/start", ResolvePage: func(p string) (string, bool) {
		id, ok := map[string]string{"guide/install": "pInst", "pInst": "pInst", "guide": "pGuide"}[p]
		return id, ok
	}}
	doc = o.FromMarkdown("[a](/pages/guide/install) [b](install.md#req) [c](README.md) [d](missing.md)")
	var refs []map[string]any
	for _, n := range doc.Nodes[0].Nodes {
		if n.Type == "link" {
			refs = append(refs, refOf(n))
		}
	}
	want := []map[string]any{
		{"kind": "page", "page": "pInst"},
		{"kind": "anchor", "anchor": "req", "page": "pInst"},
		{"kind": "page", "page": "pGuide"},
		{"kind": "url", "url": "missing.md"},
	}
	if !reflect.DeepEqual(refs, want) {
		t.Errorf("resolved refs %v, want %v", refs, want)
	}
}

// Documents from clients may hold nodes markdown has no syntax for: they are written as near as
// markdown allows, or as their text, and never make the conversion fail.
func TestRichtextForeignDocumentToMarkdown(t *testing.T) {
	const src = `{"object":"document","data":{},"nodes":[
	 {"object":"block","type":"paragraph","nodes":[
	  {"object":"text","leaves":[{"object":"leaf","text":"Hi ","marks":[]}]},
	  {"object":"inline","type":"emoji","isVoid":true,"data":{"code":"1f44b"}},
	  {"object":"text","leaves":[{"object":"leaf","text":" ","marks":[]},{"object":"leaf","text":"red","marks":[{"object":"mark","type":"color","data":{"text":"red"}}]}]},
	  {"object":"inline","type":"link","data":{"ref":{"kind":"user","user":"u1"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Ada","marks":[]}]}]},
	  {"object":"inline","type":"inline-math","isVoid":true,"data":{"formula":"x^2"}}]},
	 {"object":"block","type":"expandable","data":{},"fragments":[],"nodes":[
	  {"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Inside","marks":[]}]}]}]},
	 {"object":"block","type":"heading-2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"No id","marks":[]}]}]},
	 {"object":"block","type":"math","isVoid":true,"data":{"formula":"E=mc^2"}},
	 {"object":"block","type":"file","isVoid":true,"data":{"ref":{"kind":"file","file":"f9"}}},
	 {"object":"block","type":"table","isVoid":true,"data":{
	   "view":{"type":"grid","columns":["n","t"],"hideHeader":false},
	   "definition":{"n":{"id":"n","title":"N","type":"number"},"t":{"id":"t","title":"T","type":"text","textAlignment":"center"}},
	   "records":{"b":{"orderIndex":"b","values":{"n":2,"t":"fb"}},"a":{"orderIndex":"a","values":{"n":1}}}},
	  "fragments":[{"object":"fragment","fragment":"fb","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"two | more","marks":[{"object":"mark","type":"bold"}]}]}]}]}]},
	 {"object":"block","type":"mystery"}]}`
	var doc Document
	if err := json.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	want := "Hi 👋 redAda$$x^2$$\n\nInside\n\n## No id\n\n$$E=mc^2$$\n\n[/files/f9](/files/f9)\n\n" +
		"| N | T |\n| --- | :---: |\n| 1 |  |\n| 2 | **two \\| more** |\n"
	if got := ToMarkdown(&doc); got != want {
		t.Fatalf("markdown\n%q\nwant\n%q", got, want)
	}
	if ToMarkdown(nil) != "" || ToMarkdown(&Document{}) != "" {
		t.Fatal("empty documents give markdown")
	}
}
