package openapispec

import (
	"strings"
	"testing"
)

// A recursive schema and a very wide one are read in bounded work: the rows stop at the depth
// and count limits, and the made example stays small.
func TestReferenceBoundsRecursiveAndWideSchemas(t *testing.T) {
	var wide strings.Builder
	for i := range 40 {
		wide.WriteString("        p" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": {$ref: \"#/components/schemas/Wide\"}\n")
	}
	doc := `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /tree:
    get:
      responses:
        "200":
          description: A tree.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Node"}
  /nested:
    get:
      responses:
        "200":
          description: Arrays all the way down.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Nested"}
  /wide:
    get:
      responses:
        "200":
          description: Wide.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Wide"}
components:
  schemas:
    Node:
      type: object
      properties:
        name: {type: string}
        children: {type: array, items: {$ref: "#/components/schemas/Node"}}
    Nested:
      type: array
      items: {$ref: "#/components/schemas/Nested"}
    Wide:
      type: object
      properties:
` + wide.String()
	ref, err := BuildReference([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	tree := ref.Find("/tree", "get")
	wideOp := ref.Find("/wide", "GET")
	if tree == nil || wideOp == nil || ref.Tags[0].Name != "default" {
		t.Fatalf("operations: %+v", ref.Tags)
	}
	rows := tree.Responses[0].Body.Contents[0].Fields
	if len(rows) < 3 || len(rows) > maxFields || rows[1].Name != "name" || rows[2].Type != "array of object" {
		t.Fatalf("tree rows: %d %+v", len(rows), rows[:min(4, len(rows))])
	}
	if n := ref.Find("/nested", "get"); n == nil || !strings.HasPrefix(n.Responses[0].Body.Contents[0].Fields[0].Type, "array of array of") {
		t.Fatalf("nested: %+v", n)
	}
	w := wideOp.Responses[0].Body.Contents[0]
	if len(w.Fields) > maxFields || len(w.Example) > 200_000 {
		t.Fatalf("wide: %d rows, %d bytes of example", len(w.Fields), len(w.Example))
	}
}

// A Swagger 2.0 document reads as the same reference: its body parameter is the request body,
// its responses' schemas their content, host and basePath its server.
func TestReferenceReadsSwagger2(t *testing.T) {
	ref, err := BuildReference([]byte(`swagger: "2.0"
info: {title: Pets 2, version: "1"}
host: api.pets.test
basePath: /v1
schemes: [https]
consumes: [application/json]
produces: [application/json]
paths:
  /pets/{id}:
    parameters:
      - {name: id, in: path, required: true, type: string}
    put:
      tags: [pets]
      summary: Replace a pet
      parameters:
        - name: pet
          in: body
          required: true
          schema: {$ref: "#/definitions/Pet"}
      responses:
        "200":
          description: The pet.
          schema: {$ref: "#/definitions/Pet"}
definitions:
  Pet:
    type: object
    required: [name]
    properties:
      name: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	op := ref.Find("/pets/{id}", "put")
	if op == nil || ref.Title != "Pets 2" || len(ref.Servers) != 1 || ref.Servers[0] != "https://api.pets.test/v1" {
		t.Fatalf("reference: %+v", ref)
	}
	if len(op.Parameters) != 1 || op.Parameters[0].Name != "id" || !op.Parameters[0].Required || op.Parameters[0].In != "path" {
		t.Errorf("parameters: %+v", op.Parameters)
	}
	if op.Request == nil || !op.Request.Required || op.Request.Contents[0].MediaType != "application/json" ||
		len(op.Request.Contents[0].Fields) != 2 || op.Request.Contents[0].Fields[1].Name != "name" || !op.Request.Contents[0].Fields[1].Required {
		t.Errorf("request: %+v", op.Request)
	}
	if len(op.Responses) != 1 || op.Responses[0].Code != "200" || !strings.Contains(op.Responses[0].Body.Contents[0].Example, `"name": "text"`) {
		t.Errorf("responses: %+v", op.Responses)
	}
}
