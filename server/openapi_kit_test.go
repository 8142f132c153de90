package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// Documents the OpenAPI tests process, one per format quire reads.
const (
	petstore30 = `openapi: 3.0.3
info:
  title: Petstore
  version: "1.0"
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: The pets.
`
	petstore31JSON = `{"openapi": "3.1.0", "info": {"title": "Petstore 3.1", "version": "2"}, "paths": {}}`
	petstore20     = `swagger: "2.0"
info:
  title: Petstore 2
  version: "1"
paths: {}
`
)

// openAPIWorld is an organization with an admin (ada), a reader (rita) and an outsider (bob).
type openAPIWorld struct {
	*testServer
	ada, rita, bob *testUser
	org            string
}

func newOpenAPIWorld(t *testing.T, ts *testServer) *openAPIWorld {
	t.Helper()
	w := &openAPIWorld{testServer: ts}
	w.ada = ts.MustCreateUser(t, "ada@specs.test", "Ada")
	w.rita = ts.MustCreateUser(t, "rita@readers.test", "Rita")
	w.bob = ts.MustCreateUser(t, "bob@elsewhere.test", "Bob")
	w.org = ts.MustCreateOrg(t, w.ada, "Specs Inc").Id
	ts.MustAddMember(t, w.ada, w.org, w.rita, "read")
	return w
}

func (w *openAPIWorld) path(slug string, rest ...string) string {
	p := "/orgs/" + w.org + "/openapi"
	if slug != "" {
		p += "/" + slug
	}
	return p + strings.Join(rest, "")
}

func (w *openAPIWorld) spec(t *testing.T, slug string) gen.OpenAPISpec {
	t.Helper()
	return getJSON[gen.OpenAPISpec](t, w.testServer, w.ada, w.path(slug))
}

func (w *openAPIWorld) put(t *testing.T, slug string, source map[string]any) gen.OpenAPISpec {
	t.Helper()
	return sendJSON[gen.OpenAPISpec](t, w.testServer, http.StatusOK, w.ada, "PUT", w.path(slug), map[string]any{"source": source})
}

// runJobs runs the jobs that are due, as the runner's loop would.
func (w *openAPIWorld) runJobs(t *testing.T) {
	t.Helper()
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (w *openAPIWorld) versions(t *testing.T, slug string) gen.OpenAPISpecVersionList {
	t.Helper()
	return getJSON[gen.OpenAPISpecVersionList](t, w.testServer, w.ada, w.path(slug, "/versions"))
}

func (w *openAPIWorld) content(t *testing.T, slug, version string) (gen.OpenAPISpecContent, map[string]map[string]any) {
	t.Helper()
	c := getJSON[gen.OpenAPISpecContent](t, w.testServer, w.ada, w.path(slug, "/versions/", version, "/content"))
	var files map[string]map[string]any
	if err := json.Unmarshal(c.Filesystem, &files); err != nil {
		t.Fatalf("filesystem %s: %v", c.Filesystem, err)
	}
	return c, files
}

// download fetches a document link without a token, as a browser or an API explorer would.
func download(t *testing.T, ts *testServer, link string) (int, string) {
	t.Helper()
	res, err := http.Get(ts.URL + strings.TrimPrefix(link, testBaseURL))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// wantProcessed fails unless a specification is complete with no errors and a version.
func wantProcessed(t *testing.T, sp gen.OpenAPISpec) {
	t.Helper()
	if sp.ProcessingState != gen.OpenAPISpecProcessingStateComplete || sp.LastVersion == nil || sp.LastProcessErrorCode != nil ||
		len(sp.LastProcessedErrors) != 0 || sp.LastProcessedAt == nil {
		t.Fatalf("spec not processed cleanly: %+v", sp)
	}
}

// wantProcessError fails unless a specification's last processing failed with code, its first
// error's message containing every part.
func wantProcessError(t *testing.T, sp gen.OpenAPISpec, code gen.OpenAPISpecProcessingErrorCode, parts ...string) {
	t.Helper()
	if sp.ProcessingState != gen.OpenAPISpecProcessingStateComplete || sp.LastProcessErrorCode == nil || *sp.LastProcessErrorCode != code ||
		len(sp.LastProcessedErrors) == 0 || sp.LastProcessedErrorCount < len(sp.LastProcessedErrors) {
		t.Fatalf("want a %s processing error, got %+v", code, sp)
	}
	all := ""
	for _, e := range sp.LastProcessedErrors {
		all += e.Message + "\n"
	}
	for _, p := range parts {
		if !strings.Contains(all, p) {
			t.Fatalf("processing errors %q do not contain %q", all, p)
		}
	}
}
