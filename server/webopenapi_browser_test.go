package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// An OpenAPI specification's reference page, opened in the browser: accessible, no script, the
// sidebar's links lead to the operations.
func TestWebOpenAPIReferenceInABrowser(t *testing.T) {
	b := newBrowser(t)
	w := newWorld(t)
	org := w.org.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": petstoreFull}})
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	var sp gen.OpenAPISpec
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+org+"/openapi/pets", map[string]any{"visibility": "public"}).Decode(t, &sp)
	if st := b.open(w.URL + strings.TrimPrefix(*sp.Urls.Published, testBaseURL)); st != 200 {
		t.Fatalf("reference page answered %d", st)
	}
	if got := b.text("main h1"); got != "Pet <b>Store</b>" {
		t.Fatalf("h1 %q", got)
	}
	if n := b.eval(`String(document.scripts.length)`); n != "0" {
		t.Errorf("%s scripts in the page", n)
	}
	if got := b.text("#op-createpet h3"); !strings.Contains(got, "POST") || !strings.Contains(got, "/pets") {
		t.Errorf("createPet heading %q", got)
	}
	b.checkA11y("openapi reference")
	b.screenshot("openapi-reference")
}
