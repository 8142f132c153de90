package server_test

import (
	"strings"
	"testing"
)

// An OpenAPI specification's reference page, opened in the browser: accessible, no script, the
// sidebar's links lead to the operations.
func TestWebOpenAPIReferenceInABrowser(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	w := newWorld(t)
	if st := b.open(w.URL + publishedPetstore(t, w)); st != 200 {
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
