package markdown

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestOpenAPITagsAreBlocks(t *testing.T) {
	src := strings.Join([]string{
		"Intro",
		"",
		`{% openapi-operation spec="petstore" path="/pets/{id}" method="GET" %}`,
		"[OpenAPI petstore](https://example.com/petstore.json)",
		"{% endopenapi-operation %}",
		"",
		`{% openapi-schemas spec="petstore" schemas="Pet, Error" grouped="false" %}`,
		"",
		"Between",
		"",
		`{% openapi-webhook spec="petstore" name="newPet" method="post" headless="true" %}`,
		"{% endopenapi-webhook %}",
		"",
		`{% openapi-operation path="/no-spec" method="get" %}`,
	}, "\n")
	doc := FromMarkdown(src)
	var types []string
	for _, n := range doc.Nodes {
		types = append(types, n.Type)
	}
	if got := strings.Join(types, " "); got != "paragraph openapi-operation openapi-schemas paragraph openapi-webhook paragraph" {
		t.Fatalf("blocks: %s", got)
	}
	data, _ := json.Marshal(doc.Nodes[1].Data)
	if string(data) != `{"method":"get","path":"/pets/{id}","ref":{"kind":"openapi","spec":"petstore"}}` {
		t.Errorf("operation: %s", data)
	}
	if !*doc.Nodes[1].IsVoid || len(doc.Nodes[1].Nodes) != 0 {
		t.Errorf("the link inside the tags is part of the block: %+v", doc.Nodes[1])
	}
	data, _ = json.Marshal(doc.Nodes[2].Data)
	if string(data) != `{"grouped":false,"ref":{"kind":"openapi","spec":"petstore"},"schemas":["Pet","Error"]}` {
		t.Errorf("schemas: %s", data)
	}
	data, _ = json.Marshal(doc.Nodes[4].Data)
	if string(data) != `{"headless":true,"method":"post","name":"newPet","ref":{"kind":"openapi","spec":"petstore"}}` {
		t.Errorf("webhook: %s", data)
	}
	if Text(doc.Nodes[5:]) != `{% openapi-operation path="/no-spec" method="get" %}` {
		t.Errorf("a tag naming no specification is text: %q", Text(doc.Nodes[5:]))
	}
	// Written back, the blocks are tags again, and read again the same blocks.
	md := ToMarkdown(doc)
	again := FromMarkdown(md)
	a, _ := json.Marshal(stripKeys(doc.Nodes[:5]))
	b, _ := json.Marshal(stripKeys(again.Nodes[:5]))
	if string(a) != string(b) {
		t.Errorf("round trip:\n%s\n%s\n%s", md, a, b)
	}
	if !strings.Contains(md, `{% openapi-operation spec="petstore" path="/pets/{id}" method="get" %}`+"\n{% endopenapi-operation %}") {
		t.Errorf("markdown: %s", md)
	}
}

func TestOpenAPITagWithoutItsEndLeavesWhatFollows(t *testing.T) {
	doc := FromMarkdown("{% openapi-operation spec=\"a\" path=\"/x\" method=\"get\" %}\nFollowing text\n\n{% openapi-operation spec=\"a\" path=\"/y\" method=\"get\" %}\n{% endopenapi-operation %}\n")
	var types []string
	for _, n := range doc.Nodes {
		types = append(types, n.Type)
	}
	if got := strings.Join(types, " "); got != "openapi-operation paragraph openapi-operation" {
		t.Fatalf("blocks: %s", got)
	}
	if Text(doc.Nodes[1:2]) != "Following text" {
		t.Errorf("text after an unclosed tag: %q", Text(doc.Nodes[1:2]))
	}
}

func TestOpenAPIBlockHTML(t *testing.T) {
	out, _ := HTMLOptions{}.ToHTML("{% openapi-operation spec=\"a\" path=\"/<x>\" method=\"get\" %}\n")
	html := string(out)
	if !strings.Contains(html, `<p class="openapi"><code>GET /&lt;x&gt;</code></p>`) {
		t.Errorf("html: %s", html)
	}
}

func stripKeys(nodes []*Node) []*Node {
	out := make([]*Node, len(nodes))
	for i, n := range nodes {
		c := *n
		c.Key = ""
		c.Nodes = stripKeys(n.Nodes)
		out[i] = &c
	}
	return out
}
