package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/quire-docs/quire/store"
)

// The rows of Git Sync: importing and exporting take the edit role on the space (each cell on a
// space of its own, as a space runs one git operation at a time); reading its git state the read
// role.

func matrixGitRows() []matrixRow {
	fresh := func(t *testing.T, w *matrixWorld) string {
		w.n++
		return w.MustCreateSpace(t, w.admin, w.org.Id, fmt.Sprintf("Git %d", w.n), "").Id
	}
	return []matrixRow{
		{"importGitRepository", matrixWant{401, 401, 404, 403, 403, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/spaces/"+fresh(t, w)+"/git/import", map[string]any{"url": "https://git.example.com/docs.git", "ref": "main"})
		}},
		{"exportToGitRepository", matrixWant{401, 401, 404, 403, 403, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/spaces/"+fresh(t, w)+"/git/export", map[string]any{"url": "https://git.example.com/docs.git", "ref": "main",
				"commitMessage": "Docs"})
		}},
		{"getSpaceGitInfo", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			id := fresh(t, w)
			if err := w.Store.StartGitOperation(context.Background(), &store.SpaceGit{SpaceID: id, URL: "https://git.example.com/docs.git",
				Ref: "refs/heads/main", Provider: "github"}, store.GitJob{Space: id, Direction: "import"}); err != nil {
				t.Fatal(err)
			}
			return matrixReq("GET", "/spaces/"+id+"/git/info", nil)
		}},
	}
}
