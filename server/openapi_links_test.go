package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// A page's OpenAPI block names a specification of the organization by slug: its link is ok
// while the specification exists, and broken once it is gone.
func TestOpenAPIBlocksAreLinksToSpecifications(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/openapi", map[string]any{"slug": "petstore", "source": map[string]any{"text": petstore30}})
	sp := w.MustCreateSpace(t, w.admin, org, "API docs", "")
	cr := w.create(t, w.admin, sp.Id, "Reference pages")
	w.apply(t, w.admin, sp.Id, cr.Id,
		insertMarkdown("Pets", "# Pets\n\n{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}\n"+
			"[OpenAPI petstore](https://example.com/petstore.yaml)\n{% endopenapi-operation %}\n\n"+
			"{% openapi-schemas spec=\"petstore\" schemas=\"Pet\" grouped=\"true\" %}\n{% endopenapi-schemas %}\n", "pets"),
		insertMarkdown("Orders", "{% openapi-webhook spec=\"orders\" name=\"created\" method=\"post\" %}\n{% endopenapi-webhook %}\n", "orders"))

	links := func(t *testing.T) map[string]gen.ContentReferenceUsage {
		t.Helper()
		l := getJSON[gen.ContentReferenceList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/links"))
		out := map[string]gen.ContentReferenceUsage{}
		for _, u := range l.Items {
			switch {
			case u.TargetReference.OpenAPISpec != nil:
				out["openapi:"+string(u.TargetReference.OpenAPISpec.Slug)] = u
			case u.TargetReference.Url != nil:
				out["url:"+*u.TargetReference.Url] = u
			}
		}
		return out
	}

	t.Run("AnExistingSpecIsOkAMissingOneBroken", func(t *testing.T) {
		got := links(t)
		pets, ok := got["openapi:petstore"]
		if !ok || pets.Status != gen.Ok || pets.TargetReference.Kind != gen.ContentLocationKindOpenapi ||
			pets.TargetReference.Organization == nil || pets.TargetReference.Organization.Id != org || len(pets.LocationReferences) != 1 {
			t.Fatalf("petstore: %+v (all %v)", pets, got)
		}
		if orders := got["url:orders"]; orders.Status != gen.Broken {
			t.Fatalf("a block naming a missing spec: %+v (all %v)", orders, got)
		}
	})

	t.Run("DeletingTheSpecBreaksTheLink", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/orgs/"+org+"/openapi/petstore", nil)
		if got := links(t)["url:petstore"]; got.Status != gen.Broken {
			t.Fatalf("after delete: %+v", got)
		}
	})
}
