package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// A space's page list is kept encoded per revision (server/pagelists.go), but an export records a
// git commit for the revision it pushed after the list was read: the next list answers each page's
// file in that commit.
func TestPageListFollowsAGitExportOfItsRevision(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "file")
	cr := w.create(t, w.admin, w.space.Id, "Pages")
	w.apply(t, w.admin, w.space.Id, cr.Id, insertMarkdown("Intro", "Hello.\n", "intro"))
	w.merged(t, w.space.Id, cr.Id)
	list := func() gen.PageTree {
		return getJSON[gen.PageTree](t, w.testServer, w.admin, "/spaces/"+w.space.Id+"/content/pages")
	}
	if before := list(); len(before.Pages) != 1 || before.Pages[0].Git != nil {
		t.Fatalf("before the export: %+v", before.Pages)
	}
	w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("export"), map[string]any{
		"url": w.url, "ref": "refs/heads/main", "repoProjectDirectory": "handbook", "commitMessage": "Export"})
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	after := list()
	if len(after.Pages) != 1 || after.Pages[0].Git == nil || after.Pages[0].Git.Path != "handbook/README.md" {
		t.Fatalf("after the export: %+v", after.Pages[0].Git)
	}
}
