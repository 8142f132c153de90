package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/quire-docs/quire/store"
)

// The rows of import runs: uploading and starting or cancelling a run take the edit role (on the
// organization to upload, on the target space to start and cancel); listing and reading runs the
// read role.

func matrixImportRows() []matrixRow {
	run := func(t *testing.T, w *matrixWorld) string {
		w.n++
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, fmt.Sprintf("Import %d", w.n), "")
		r, err := w.Store.CreateImportRun(context.Background(), &store.ImportRun{OrganizationID: w.org.Id, SpaceID: sp.Id,
			Source: store.ImportFromWebsite, URL: "https://example.com/", CreatedBy: w.admin.ID})
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	return []matrixRow{
		{"generateStorageUploadURL", matrixWant{401, 401, 404, 403, 403, 201, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/orgs/"+w.org.Id+"/storage/upload", map[string]any{"kind": "import_file",
				"file": map[string]any{"name": "a.md", "type": "text/markdown", "size": 3}})
		}},
		{"startImportRun", matrixWant{401, 401, 404, 403, 403, 201, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/org/"+w.org.Id+"/imports", map[string]any{
				"source": map[string]any{"type": "website", "url": "https://example.com/"}, "target": map[string]any{"space": w.spare}})
		}},
		{"listImportRuns", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/org/"+w.org.Id+"/imports", nil)
		}},
		{"getImportRun", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/org/"+w.org.Id+"/imports/"+run(t, w), nil)
		}},
		{"cancelImportRun", matrixWant{401, 401, 404, 403, 403, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/org/"+w.org.Id+"/imports/"+run(t, w)+"/cancel", nil)
		}},
	}
}
