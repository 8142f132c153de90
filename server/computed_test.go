package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// shop is a specification with two declared tags (one described), an untagged operation and
// two schemas.
const shop = `openapi: 3.0.3
info:
  title: Shop
  version: "1"
tags:
  - name: Orders
    description: Everything about orders.
  - name: Carts
paths:
  /orders:
    get:
      tags: [Orders]
      summary: List orders
      description: Lists the orders, newest first.
      responses:
        "200": { description: The orders. }
    post:
      tags: [Orders]
      summary: Place an order
      responses:
        "201": { description: Placed. }
  /carts/{id}:
    get:
      tags: [Carts]
      responses:
        "200": { description: A cart. }
  /health:
    get:
      responses:
        "200": { description: Up. }
components:
  schemas:
    Order: { type: object, properties: { id: { type: string } } }
    Cart: { type: object }
`

func openAPISource(slug string, props map[string]any) map[string]any {
	return map[string]any{"type": "builtin:openapi", "props": props,
		"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": slug}}}}
}

// blocksOf lists a document's top-level blocks as "type data" lines.
func blocksOf(t *testing.T, doc any) []string {
	t.Helper()
	raw, _ := json.Marshal(doc)
	var d struct {
		Nodes []struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range d.Nodes {
		data, _ := json.Marshal(n.Data)
		out = append(out, n.Type+" "+string(data))
	}
	return out
}

func TestComputedContentFromAnOpenAPISpecification(t *testing.T) {
	t.Parallel()
	w := newOpenAPIWorld(t, newTestServer(t))
	w.Expect(t, http.StatusCreated, w.ada, "POST", w.path(""), map[string]any{"slug": "shop", "source": map[string]any{"text": shop}})
	w.Expect(t, http.StatusCreated, w.ada, "POST", w.path(""), map[string]any{"slug": "later", "source": map[string]any{"text": shop}})
	sp := w.MustCreateSpace(t, w.ada, w.org, "Playground", "")
	revision := "/spaces/" + sp.Id + "/content/computed/revision"
	document := "/spaces/" + sp.Id + "/content/computed/document"
	body := func(src map[string]any) map[string]any { return map[string]any{"source": src, "seed": "s1"} }

	t.Run("NotBeforeAVersion", func(t *testing.T) {
		wantMessage(t, w.Expect(t, http.StatusConflict, w.ada, "POST", revision, body(openAPISource("shop", map[string]any{"models": true}))),
			`"shop" has no processed version yet`)
	})
	w.runJobs(t)

	t.Run("ARevisionByTag", func(t *testing.T) {
		r := w.Expect(t, http.StatusOK, w.rita, "POST", revision, body(openAPISource("shop", map[string]any{"models": true})))
		wantPublic(t, "0.202.0", "getComputedRevision", r)
		var got gen.ComputedRevision
		r.Decode(t, &got)
		var titles []string
		for _, p := range got.Pages {
			titles = append(titles, p.Title+" /"+p.Path)
		}
		if strings.Join(titles, ", ") != "Orders /orders, Carts /carts, Other /other, Models /models" {
			t.Fatalf("pages: %v", titles)
		}
		orders := blocksOf(t, got.Pages[0].Document)
		want := []string{
			`paragraph {}`,
			`openapi-operation {"method":"get","path":"/orders","ref":{"kind":"openapi","spec":"shop"}}`,
			`openapi-operation {"method":"post","path":"/orders","ref":{"kind":"openapi","spec":"shop"}}`,
		}
		if strings.Join(orders, "\n") != strings.Join(want, "\n") {
			t.Fatalf("the orders page:\n%s", strings.Join(orders, "\n"))
		}
		if models := blocksOf(t, got.Pages[3].Document); len(models) != 1 ||
			models[0] != `openapi-schemas {"grouped":true,"ref":{"kind":"openapi","spec":"shop"},"schemas":["Order","Cart"]}` {
			t.Fatalf("models: %v", models)
		}
		// The same seed computes the same ids; another seed others.
		var again, other gen.ComputedRevision
		w.Expect(t, http.StatusOK, w.ada, "POST", revision, body(openAPISource("shop", map[string]any{"models": false}))).Decode(t, &again)
		w.Expect(t, http.StatusOK, w.ada, "POST", revision, map[string]any{"source": openAPISource("shop", map[string]any{"models": false}), "seed": "s2"}).Decode(t, &other)
		if len(again.Pages) != 3 || again.Pages[0].Id != got.Pages[0].Id || other.Pages[0].Id == got.Pages[0].Id {
			t.Fatalf("ids: %s %s %s", got.Pages[0].Id, again.Pages[0].Id, other.Pages[0].Id)
		}
	})

	t.Run("ARevisionByOperation", func(t *testing.T) {
		var got gen.ComputedRevision
		w.Expect(t, http.StatusOK, w.ada, "POST", revision, body(openAPISource("shop",
			map[string]any{"models": false, "grouping": "by-operation"}))).Decode(t, &got)
		orders := got.Pages[0]
		if len(orders.Pages) != 2 || orders.Pages[0].Title != "List orders" || orders.Pages[0].Path != "orders/list-orders" ||
			orders.Pages[0].Description == nil || *orders.Pages[0].Description != "Lists the orders, newest first." {
			t.Fatalf("operation pages: %+v", orders.Pages)
		}
		if b := blocksOf(t, orders.Pages[1].Document); len(b) != 1 ||
			b[0] != `openapi-operation {"headless":true,"method":"post","path":"/orders","ref":{"kind":"openapi","spec":"shop"}}` {
			t.Fatalf("an operation's page: %v", b)
		}
		if got.Pages[1].Pages[0].Title != "GET /carts/{id}" {
			t.Fatalf("an operation without a summary: %q", got.Pages[1].Pages[0].Title)
		}
	})

	t.Run("Documents", func(t *testing.T) {
		doc := func(props map[string]any) []string {
			r := w.Expect(t, http.StatusOK, w.rita, "POST", document, body(openAPISource("shop", props)))
			wantPublic(t, "0.202.0", "getComputedDocument", r)
			return blocksOf(t, r.Map(t))
		}
		if b := doc(map[string]any{"doc": "operation", "page": "/carts/{id}", "method": "get"}); len(b) != 1 ||
			!strings.Contains(b[0], `"path":"/carts/{id}"`) {
			t.Fatalf("operation: %v", b)
		}
		if b := doc(map[string]any{"doc": "tag", "page": "Orders"}); len(b) != 3 {
			t.Fatalf("tag: %v", b)
		}
		if b := doc(map[string]any{"doc": "operations", "page": "Orders"}); len(b) != 2 {
			t.Fatalf("operations: %v", b)
		}
		if b := doc(map[string]any{"doc": "info", "page": "Orders"}); len(b) != 1 || !strings.HasPrefix(b[0], "paragraph") {
			t.Fatalf("info: %v", b)
		}
		if b := doc(map[string]any{"doc": "operations", "page": "Other"}); len(b) != 1 || !strings.Contains(b[0], `"/health"`) {
			t.Fatalf("the untagged operations: %v", b)
		}
		if b := doc(map[string]any{"doc": "models"}); len(b) != 1 || !strings.HasPrefix(b[0], "openapi-schemas") {
			t.Fatalf("models: %v", b)
		}
	})

	t.Run("Refused", func(t *testing.T) {
		for _, c := range []struct {
			path string
			src  map[string]any
			want string
		}{
			{revision, openAPISource("nope", map[string]any{"models": true}), `no OpenAPI specification "nope"`},
			{revision, openAPISource("shop", map[string]any{}), "source.props.models"},
			{revision, openAPISource("shop", map[string]any{"models": true, "colour": "red"}), "source.props.colour"},
			{revision, openAPISource("shop", map[string]any{"models": true, "downloadLink": true}), "is private and was given as text"},
			{revision, map[string]any{"type": "builtin:translation", "props": map[string]any{},
				"dependencies": map[string]any{"translation": map[string]any{"ref": map[string]any{"kind": "translation", "translation": "tr"}}}}, "startTranslation"},
			{revision, map[string]any{"type": "integration:app:source", "props": map[string]any{}}, "no integration's computations"},
			{revision, map[string]any{"type": "builtin:openapi", "props": map[string]any{"models": true}}, "source.dependencies.spec"},
			{document, openAPISource("shop", map[string]any{"doc": "tag", "page": "Nope"}), `no tag "Nope"`},
			{document, openAPISource("shop", map[string]any{"doc": "operation", "page": "/orders", "method": "delete"}), "no operation DELETE /orders"},
			{document, openAPISource("shop", map[string]any{"doc": "operation", "page": "/orders"}), "source.props.method"},
		} {
			wantMessage(t, w.Expect(t, http.StatusBadRequest, w.ada, "POST", c.path, body(c.src)), c.want)
		}
		w.Expect(t, http.StatusNotFound, w.bob, "POST", revision, body(openAPISource("shop", map[string]any{"models": true})))
	})

	t.Run("ASpaceCreatedFromIt", func(t *testing.T) {
		r := w.Expect(t, http.StatusCreated, w.ada, "POST", "/orgs/"+w.org+"/spaces", map[string]any{"title": "Shop API",
			"computedSource": openAPISource("shop", map[string]any{"models": true, "grouping": "by-operation"})})
		wantPublic(t, "0.202.0", "createSpace", r)
		var created gen.Space
		r.Decode(t, &created)
		pages := getJSON[gen.PageTree](t, w.testServer, w.ada, "/spaces/"+created.Id+"/content/pages")
		var titles []string
		for _, p := range pages.Pages {
			titles = append(titles, p.Title)
			for _, c := range p.Pages {
				titles = append(titles, "  "+c.Title)
			}
		}
		want := "Orders,  List orders,  Place an order,Carts,  GET /carts/{id},Other,  GET /health,Models"
		if strings.Join(titles, ",") != want {
			t.Fatalf("the space's pages: %q", strings.Join(titles, ","))
		}
		page := getJSON[gen.RevisionPage](t, w.testServer, w.ada, "/spaces/"+created.Id+"/content/path/orders%2Flist-orders")
		if b := blocksOf(t, page.Document); len(b) != 1 || !strings.HasPrefix(b[0], "openapi-operation") {
			t.Fatalf("a created page's document: %v", b)
		}
		// Its links name the specification, which is there.
		links := w.Expect(t, http.StatusOK, w.ada, "GET", "/spaces/"+created.Id+"/links", nil).Map(t)
		if items, _ := links["items"].([]any); len(items) == 0 || !strings.Contains(mustJSONText(t, items), `"openapi"`) {
			t.Fatalf("links: %v", links)
		}
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.ada, "POST", "/orgs/"+w.org+"/spaces", map[string]any{
			"computedSource": openAPISource("shop", map[string]any{"models": true}), "empty": true}), "one of them")
	})
}
