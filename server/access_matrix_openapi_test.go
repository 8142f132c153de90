package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The rows of OpenAPI specifications: reading takes the read role in the organization, managing
// them the create role (which only the admin has here).
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

// matrixSpecSlug is the processed specification the reading rows read.
const matrixSpecSlug = "matrix-petstore"

// openAPISpec returns the world's processed specification and its version, made on first use.
func (w *matrixWorld) openAPISpec(t *testing.T) (slug, version string) {
	t.Helper()
	var sp gen.OpenAPISpec
	path := w.orgPath("/openapi/" + matrixSpecSlug)
	if r := w.Do(t, w.admin, "GET", path, nil); r.Status == http.StatusOK {
		r.Decode(t, &sp)
		return sp.Slug, *sp.LastVersion
	}
	w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"source": map[string]any{"text": petstore30}})
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Decode(t, &sp)
	return sp.Slug, *sp.LastVersion
}

// freshOpenAPISlug is a slug no specification has yet.
func (w *matrixWorld) freshOpenAPISlug() string {
	return strings.ReplaceAll(w.name("spec"), " ", "-")
}

func matrixOpenAPIRows() []matrixRow {
	read := matrixWant{401, 401, 404, 200, 200, 200, 200}
	spec := func(rest string) func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
		return func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			slug, version := w.openAPISpec(t)
			return matrixReq("GET", w.orgPath("/openapi/"+slug+strings.ReplaceAll(rest, "{version}", version)), nil)
		}
	}
	source := map[string]any{"text": petstore20}
	return []matrixRow{
		{"listOpenAPISpecs", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/openapi"), nil)
		}},
		{"createOpenAPISpec", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/openapi"), map[string]any{"slug": w.freshOpenAPISlug(), "source": source})
		}},
		{"getOpenAPISpecBySlug", read, spec("")},
		{"createOrUpdateOpenAPISpecBySlug", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.orgPath("/openapi/"+w.freshOpenAPISlug()), map[string]any{"source": source})
		}},
		{"updateOpenAPISpecBySlug", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			slug, _ := w.openAPISpec(t)
			return matrixReq("PATCH", w.orgPath("/openapi/"+slug), map[string]any{"visibility": "private"})
		}},
		{"deleteOpenAPISpecBySlug", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			path := w.orgPath("/openapi/" + w.freshOpenAPISlug())
			w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"source": source})
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"listOpenAPISpecVersions", read, spec("/versions")},
		{"getLatestOpenAPISpecVersion", read, spec("/versions/latest")},
		{"getLatestOpenAPISpecVersionContent", read, spec("/versions/latest/content")},
		{"getOpenAPISpecVersionById", read, spec("/versions/{version}")},
		{"getOpenAPISpecVersionContentById", read, spec("/versions/{version}/content")},
		// Computed content reads the space (its readers) and the organization's specification.
		{"getComputedRevision", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			slug, _ := w.openAPISpec(t)
			return matrixReq("POST", "/spaces/"+w.handbook+"/content/computed/revision", map[string]any{"seed": "m",
				"source": openAPISource(slug, map[string]any{"models": true})})
		}},
		{"getComputedDocument", read, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			slug, _ := w.openAPISpec(t)
			return matrixReq("POST", "/spaces/"+w.handbook+"/content/computed/document", map[string]any{"seed": "m",
				"source": openAPISource(slug, map[string]any{"doc": "operation", "page": "/pets", "method": "get"})})
		}},
	}
}
