package openapispec

import (
	"strings"
	"testing"
)

func TestComputedPagesOfASwagger2Document(t *testing.T) {
	ref, err := BuildReference([]byte(`swagger: "2.0"
info: { title: Zoo, version: "1" }
paths:
  /animals:
    get:
      tags: [animals]
      summary: List "animals"
      responses: { "200": { description: ok } }
definitions:
  Animal: { type: object }
  Keeper: { type: object }
`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ref.Schemas, ",") != "Animal,Keeper" {
		t.Fatalf("schemas %v", ref.Schemas)
	}
	pages := Compute{Spec: "zoo", Models: true, ByOperation: true, DownloadURL: "https://example.com/zoo.yaml"}.Pages(ref)
	if len(pages) != 2 || pages[0].Title != "animals" || pages[1].Key != "models" || len(pages[0].Pages) != 1 {
		t.Fatalf("pages %+v", pages)
	}
	if op := pages[0].Pages[0]; op.Title != `List "animals"` || op.Key != "operation:GET /animals" ||
		op.Markdown != `{% openapi-operation spec="zoo" path="/animals" method="get" headless="true" %}`+"\n{% endopenapi-operation %}" {
		t.Fatalf("operation page %+v", op)
	}
	if !strings.HasPrefix(pages[0].Markdown, "[Download the OpenAPI specification](<https://example.com/zoo.yaml>)") {
		t.Fatalf("the first page %q", pages[0].Markdown)
	}
	if got := SchemasTag(`a"b`, []string{"A", "B,C"}); got != `{% openapi-schemas spec="a%22b" schemas="A" grouped="true" %}`+"\n{% endopenapi-schemas %}" {
		t.Fatalf("schemas tag %q", got)
	}
}
