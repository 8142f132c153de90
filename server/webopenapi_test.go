package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// petstoreFull is a document with tags, parameters, a request body, responses, examples and a
// description that tries to run script.
const petstoreFull = `openapi: 3.0.3
info:
  title: Pet <b>Store</b>
  version: "2.1"
  description: "Pets for everyone. <script>alert('spec')</script>"
servers:
  - url: https://api.pets.test/v1
tags:
  - name: pets
    description: Everything about pets.
  - name: store
paths:
  /pets:
    get:
      tags: [pets]
      operationId: listPets
      summary: List the pets
      parameters:
        - name: limit
          in: query
          description: How many pets to answer.
          schema: {type: integer, format: int32}
      responses:
        "200":
          description: A page of pets.
          content:
            application/json:
              schema:
                type: array
                items: {$ref: "#/components/schemas/Pet"}
    post:
      tags: [pets]
      operationId: createPet
      summary: Add a pet
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
            example: {name: Rex, kind: dog}
      responses:
        "201":
          description: The pet added.
  /orders/{orderId}:
    delete:
      tags: [store]
      summary: Cancel an order
      deprecated: true
      parameters:
        - {name: orderId, in: path, required: true, schema: {type: string}}
      responses:
        "204": {description: Cancelled.}
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string, description: "The pet's name <img src=x onerror=alert(1)>"}
        kind: {type: string, enum: [dog, cat]}
        owner:
          type: object
          properties:
            email: {type: string, format: email}
`

// publishedPetstore adds petstoreFull as the organization's public specification "pets", its
// version processed, and answers the path of its reference page.
func publishedPetstore(t *testing.T, w *world) string {
	t.Helper()
	org := w.org.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": petstoreFull}})
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	var sp gen.OpenAPISpec
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+org+"/openapi/pets", map[string]any{"visibility": "public"}).Decode(t, &sp)
	if sp.Urls.Published == nil {
		t.Fatalf("no published URL: %+v", sp.Urls)
	}
	return strings.TrimPrefix(*sp.Urls.Published, testBaseURL)
}

func TestWebOpenAPIReferencePage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	ww := &webWorld{world: w}
	path := publishedPetstore(t, w)

	t.Run("ABrowserGetsTheReference", func(t *testing.T) {
		r := ww.expect(t, http.StatusOK, path, "Accept", "text/html,application/xhtml+xml")
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("content type %q", ct)
		}
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || r.Header.Get("ETag") == "" {
			t.Errorf("headers %v", r.Header)
		}
		wantIn(t, "reference", r.Body,
			`<html lang="en">`, `<title>Pet &lt;b&gt;Store&lt;/b&gt; | API reference</title>`, `<main id="content">`,
			`Version 2.1`, `<code>https://api.pets.test/v1</code>`,
			// operations grouped by tag, in the document's order
			`<h2 id="tag-pets">pets</h2>`, `<h2 id="tag-store">store</h2>`,
			`<section class="operation" id="op-listpets">`, `<span class="method m-GET">GET</span> <code class="path">/pets</code>`,
			`<a href="#op-createpet">`,
			// parameters, schemas flattened with nesting, enums, required fields
			`<td><code>limit</code></td><td>query</td><td>integer (int32)</td><td>How many pets to answer.</td>`,
			`<td><code>orderId</code> <span class="req">required</span></td><td>path</td>`,
			`<td class="d0">(body)</td><td>array of object</td>`,
			`<td class="d1"><code>name</code> <span class="req">required</span></td>`,
			`<code>dog</code>, <code>cat</code>`, `<td class="d2"><code>email</code></td><td>string (email)</td>`,
			`<span class="badge">deprecated</span>`,
			// examples: the document's own, and one made from the schema
			"&#34;name&#34;: &#34;Rex&#34;", "&#34;email&#34;: &#34;name@example.com&#34;",
			`href="`+path+`?raw=1"`)
		wantNotIn(t, "reference", r.Body, "<script", "<img", "<b>Store")
		if strings.Index(r.Body, `id="tag-pets"`) > strings.Index(r.Body, `id="tag-store"`) {
			t.Error("tags out of order")
		}
	})

	t.Run("ToolsStillGetTheDocument", func(t *testing.T) {
		for _, h := range [][]string{nil, {"Accept", "application/json"}, {"Accept", "text/html"}} {
			p := path
			if len(h) > 0 && h[1] == "text/html" {
				p += "?raw=1"
			}
			r := ww.expect(t, http.StatusOK, p, h...)
			if !strings.HasPrefix(r.Body, "openapi: 3.0.3") {
				t.Fatalf("%v: %.200s", h, r.Body)
			}
		}
	})

	t.Run("APrivateSpecIsNotShown", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+org+"/openapi/pets", map[string]any{"visibility": "private"})
		r := ww.get(t, path, "Accept", "text/html")
		if r.Status != http.StatusNotFound || strings.Contains(r.Body, "listPets") {
			t.Fatalf("private: %d %.300s", r.Status, r.Body)
		}
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+org+"/openapi/pets", map[string]any{"visibility": "public"})
	})

	t.Run("ASitePageShowsTheOperationsItsBlocksName", func(t *testing.T) {
		space := w.MustCreateSpace(t, w.admin, org, "API docs", "")
		w.seed(t, space.Id, "Pets", "# Pets\n\nBefore.\n\n{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}\n\nUnclosed kept.\n\n"+
			"{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"post\" %}\n"+
			"[OpenAPI pets](https://example.com/pets.yaml)\n{% endopenapi-operation %}\n\nBetween.\n\n"+
			"{% openapi-operation spec=\"pets\" path=\"/nowhere\" method=\"get\" %}\n{% endopenapi-operation %}\n\n"+
			"{% openapi-operation spec=\"missing\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n\nAfter.\n")
		site := ww.createWebSite(t, "API site", "public", space.Id)
		w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+org+"/sites/"+site.Id+"/publish", nil)
		r := ww.expect(t, http.StatusOK, "/s/"+site.Id+"/")
		wantIn(t, "site page", r.Body,
			`<div class="openapi-block openapi">`, `<span class="method m-POST">POST</span> <code class="path">/pets</code>`,
			`<strong>Add a pet</strong>`, `Request body <span class="req">required</span>`, "&#34;name&#34;: &#34;Rex&#34;",
			`The operation GET /nowhere is not in the OpenAPI specification “pets”.`,
			`The OpenAPI specification “missing” is not available.`, `<p>Before.</p>`, `<p>After.</p>`,
			// an unclosed tag is its own line: the text after it stays the page's
			`<span class="method m-GET">GET</span> <code class="path">/pets</code>`, `<p>Unclosed kept.</p>`)
		wantNotIn(t, "site page", r.Body, "{%", "quireopenapi", "<script", "<img src=x")
		if i, j := strings.Index(r.Body, "Before."), strings.Index(r.Body, "Add a pet"); i < 0 || j < i || strings.Index(r.Body, "Between.") < j {
			t.Error("the operation is not where its block is")
		}
		// The app shows the space's page with the operation too.
		app := ww.expect(t, http.StatusOK, "/app/s/"+space.Id, "Cookie", ww.appLogin(t, w.admin))
		wantIn(t, "app page", app.Body, `<span class="method m-POST">POST</span> <code class="path">/pets</code>`)
		wantNotIn(t, "app page", app.Body, "{%", "quireopenapi")
	})
}
