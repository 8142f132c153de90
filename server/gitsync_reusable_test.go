package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/gitsync/gittest"
)

// A Git Sync import replaces a space's reusable contents with the repository's
// .gitbook/includes/: the one exported to a file of the same name is updated and keeps its id (so
// what includes it still does), a new file is a new reusable content, and one with no file is
// deleted; pages include them by id.
func TestGitSyncImportReplacesReusableContents(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "file")
	sp := w.space.Id
	cr := w.create(t, w.admin, sp, "Seed")
	res := w.apply(t, w.admin, sp, cr.Id, insertReusable("Warning", "Old text.\n", "warn"), insertReusable("Old one", "Gone soon.\n", "old"))
	warn, old := res.Refs["warn"], res.Refs["old"]
	w.merged(t, sp, cr.Id)
	gittest.Seed(t, w.bare, "includes", map[string]string{
		"SUMMARY.md":                   "# Table of contents\n\n* [Home](README.md)\n",
		"README.md":                    "# Home\n\n{% include \".gitbook/includes/warning.md\" %}\n\n{% include \".gitbook/includes/new-one.md\" %}\n",
		".gitbook/includes/warning.md": "---\ntitle: Warning\n---\n\nNew text.\n",
		".gitbook/includes/new-one.md": "---\ntitle: New one\n---\n\nFresh.\n",
	}, "Includes")
	w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "includes"})
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	rev := w.mainRevision(t, sp)
	titles := map[string]string{}
	for _, r := range rev.ReusableContents {
		titles[r.Title] = r.Id
	}
	if len(titles) != 2 || titles["Warning"] != warn || titles["New one"] == "" {
		t.Fatalf("reusable contents after the import: %v (warning was %s, old one %s)", titles, warn, old)
	}
	doc := string(w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp+"/revisions/"+rev.Id+"/reusable-contents/"+warn+"/document", nil).Body)
	if !strings.Contains(doc, "New text.") {
		t.Fatalf("warning's document: %s", doc)
	}
	var home string
	walkPages(rev.Pages, func(p gen.RevisionPage, _ string, _ int) {
		if p.Title == "Home" {
			home = p.Id
		}
	})
	md := w.mainMarkdown(t, sp, home)
	if !strings.Contains(md, `{% include "`+warn+`" %}`) || !strings.Contains(md, `{% include "`+titles["New one"]+`" %}`) {
		t.Fatalf("home's markdown: %q", md)
	}
}
