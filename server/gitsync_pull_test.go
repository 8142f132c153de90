package server_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/gitsync/gittest"
	"github.com/quire-docs/quire/server"
)

// titles maps the titles of a page tree to their ids.
func titles(pages []gen.RevisionPage) map[string]string {
	out := map[string]string{}
	for id, p := range flatten(pages) {
		out[p.Title] = id
	}
	return out
}

// pull announces the branch's new commit by the webhook and runs the pull.
func (w *gitWorld) pull(t *testing.T, secret string) {
	t.Helper()
	if code := w.webhook(t, secret); code != http.StatusAccepted {
		t.Fatalf("webhook: %d", code)
	}
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
}

// linked imports the handbook into the space (linking it to the branch) and answers the
// webhook's secret.
func (w *gitWorld) linked(t *testing.T) string {
	t.Helper()
	w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "docs"})
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	return *w.info(t).WebhookSecret
}

// A pull matches pages by their file: a page keeps its id (and its comments) while its file is
// there, moved with the same content too; a page whose file is gone goes, a new file is a new
// page; a commit that changes nothing of the layout changes nothing of the space.
func TestGitSyncPullKeepsPageIdentity(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"http", "file"} {
		t.Run(kind, func(t *testing.T) {
			w := newGitWorld(t, kind)
			secret := w.linked(t)
			before := titles(w.mainPages(t, w.space.Id))
			install := before["Installation"]
			files := len(w.mainRevision(t, w.space.Id).Files)
			w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+w.space.Id+"/comments", map[string]any{
				"page": install, "body": map[string]any{"markdown": "Keep this."}})

			// A commit outside the layout: nothing changes, no change request is made.
			rev := w.mainRevision(t, w.space.Id)
			mergedBefore := len(w.list(t, w.admin, "/spaces/"+w.space.Id+"/change-requests?status=merged").Items)
			gittest.Seed(t, w.bare, "main", map[string]string{"ci.yml": "on: [push]\n"}, "Only CI")
			w.pull(t, secret)
			if after := w.mainRevision(t, w.space.Id); after.Id != rev.Id || after.Git == nil || after.Git.Oid != gittest.Git(t, w.bare, "rev-parse", "main") {
				t.Fatalf("a commit outside the layout made revision %s (was %s), git %+v", after.Id, rev.Id, after.Git)
			}
			if n := len(w.list(t, w.admin, "/spaces/"+w.space.Id+"/change-requests?status=merged").Items); n != mergedBefore {
				t.Fatalf("%d change requests merged", n)
			}

			// An edit, a new page, a page gone, a file moved with its content.
			work := t.TempDir()
			gittest.Git(t, work, "clone", "-q", w.bare, "w")
			repo := work + "/w"
			summary := gittest.File(t, w.bare, "main", "docs/SUMMARY.md")
			summary = strings.Replace(summary, "* [FAQ](faq.md)", "* [Changelog](changelog.md)", 1) + "\n"
			summary = strings.Replace(summary, "reference/api.md", "reference/http-api.md", 1)
			edited := strings.Replace(gittest.File(t, w.bare, "main", "docs/getting-started/installation.md"), "\n", "\n\nEdited in git.\n", 1)
			gittest.Git(t, repo, "mv", "docs/reference/api.md", "docs/reference/http-api.md")
			gittest.Git(t, repo, "rm", "-q", "docs/faq.md", "docs/.gitbook/assets/unused.txt")
			gittest.WriteFiles(t, repo, map[string]string{"docs/SUMMARY.md": summary, "docs/changelog.md": "# Changelog\n\nNew.\n",
				"docs/getting-started/installation.md": edited})
			gittest.Git(t, repo, "add", "-A")
			gittest.Git(t, repo, "commit", "-q", "-m", "Reshape the handbook")
			gittest.Git(t, repo, "push", "-q", "origin", "main")
			w.pull(t, secret)

			after := titles(w.mainPages(t, w.space.Id))
			for _, title := range []string{"Introduction", "Getting started", "Installation", "Configuration", "Environment variables", "API reference"} {
				if after[title] == "" || after[title] != before[title] {
					t.Errorf("%s: id %q, was %q", title, after[title], before[title])
				}
			}
			if _, ok := after["FAQ"]; ok {
				t.Error("the page whose file is gone is still there")
			}
			if after["Changelog"] == "" || slices.Contains(mapValues(before), after["Changelog"]) {
				t.Errorf("the new file is not a new page: %v", after)
			}
			if md := w.mainMarkdown(t, w.space.Id, install); !strings.Contains(md, "Edited in git.") {
				t.Fatalf("the edit did not come in:\n%s", md)
			}
			comments := w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+w.space.Id+"/comments?targetPage="+install, nil).Body
			if !strings.Contains(string(comments), "Keep this.") {
				t.Fatalf("the page's comment is gone: %s", comments)
			}
			api := w.page(t, "/spaces/"+w.space.Id, after["API reference"], "")
			if api.Git == nil || api.Git.Path != "docs/reference/http-api.md" {
				t.Fatalf("the moved page's file: %+v", api.Git)
			}
			// The files kept keep their ids; the one gone from the repository is gone from the
			// space (still there in the revision before).
			pulled := w.mainRevision(t, w.space.Id)
			if len(pulled.Files) != files-1 {
				t.Fatalf("%d files after the pull, %d before", len(pulled.Files), files)
			}
			for _, f := range pulled.Files {
				if f.Name == "unused.txt" {
					t.Fatal("the file gone from the repository is still a file of the space")
				}
			}
			if old := getJSON[gen.Revision](t, w.testServer, w.admin, "/spaces/"+w.space.Id+"/revisions/"+rev.Id); len(old.Files) != files {
				t.Fatalf("the revision before the pull has %d files, had %d", len(old.Files), files)
			}
		})
	}
}

func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// commitFile commits one file's new content to the branch, as Grace.
func (w *gitWorld) commitFile(t *testing.T, file, content, message string) {
	t.Helper()
	gittest.Seed(t, w.bare, "main", map[string]string{file: content}, message)
}

// When both moved, the branch's commit waits in a change request based on the revision last
// synced: its merge is three-way, so the space's edits made since are kept (and pushed with the
// branch's), and the same page edited on both sides is a conflict.
func TestGitSyncPullWhenBothMoved(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "http")
	w.linked(t)
	ids := titles(w.mainPages(t, w.space.Id))
	install, faq := ids["Installation"], ids["FAQ"]

	// Page B (the FAQ) edited in git, page A (Installation) in quire: the push of quire's merge
	// finds the branch moved and brings its commit in first, as an open change request.
	w.commitFile(t, "docs/faq.md", "# FAQ\n\nAnswered in git.\n", "Answer in git")
	cr := w.create(t, w.editor, w.space.Id, "Install with care")
	w.apply(t, w.editor, w.space.Id, cr.Id, editPage(install, "Installed in quire."))
	w.merged(t, w.space.Id, cr.Id)
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	open := w.list(t, w.admin, "/spaces/"+w.space.Id+"/change-requests?status=open").Items
	if len(open) != 1 || open[0].Subject != "Answer in git" {
		t.Fatalf("open change requests %+v", open)
	}
	w.merged(t, w.space.Id, open[0].Id)
	if md := w.mainMarkdown(t, w.space.Id, install); !strings.Contains(md, "Installed in quire.") {
		t.Fatalf("the space's edit is lost:\n%s", md)
	}
	if md := w.mainMarkdown(t, w.space.Id, faq); !strings.Contains(md, "Answered in git.") {
		t.Fatalf("the branch's edit is lost:\n%s", md)
	}
	// The merge pushes both.
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	faqFile := w.page(t, "/spaces/"+w.space.Id, faq, "").Git
	if faqFile == nil {
		t.Fatal("the FAQ has no file")
	}
	if f := gittest.File(t, w.bare, "main", faqFile.Path); !strings.Contains(f, "Answered in git.") {
		t.Fatalf("faq.md:\n%s", f)
	}
	if f := gittest.File(t, w.bare, "main", "docs/getting-started/installation.md"); !strings.Contains(f, "Installed in quire.") {
		t.Fatalf("installation.md:\n%s", f)
	}

	// The same page on both sides: the change request conflicts, and says where.
	file := "docs/getting-started/installation.md"
	w.commitFile(t, file, strings.Replace(gittest.File(t, w.bare, "main", file), "Installed in quire.", "Installed in git.", 1)+"\n", "Install in git")
	cr = w.create(t, w.editor, w.space.Id, "Install again")
	w.apply(t, w.editor, w.space.Id, cr.Id, editPage(install, "Installed in quire again."))
	w.merged(t, w.space.Id, cr.Id)
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	open = w.list(t, w.admin, "/spaces/"+w.space.Id+"/change-requests?status=open").Items
	if len(open) != 1 || open[0].Subject != "Install in git" {
		t.Fatalf("open change requests %+v", open)
	}
	if m := w.merge(t, w.admin, w.space.Id, open[0].Id); m.Result != gen.MergeResultConflicts {
		t.Fatalf("merge %+v", m)
	}
	wantMessage(t, w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(w.space.Id, open[0].Id, "/update"), nil), "Installation")
	if md := w.mainMarkdown(t, w.space.Id, install); !strings.Contains(md, "Installed in quire again.") {
		t.Fatalf("the conflict changed the space:\n%s", md)
	}
}

// The poller reads the branch's head before cloning: a branch still at the commit last synced is
// not fetched (nor is it on a webhook); a branch that moved is.
func TestGitSyncPollChecksTheHeadFirst(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "http", server.Options{AllowPrivateURLs: true, GitSyncPoll: time.Minute})
	secret := w.linked(t)
	fetched := w.fetches.Load()
	synced := w.info(t)
	if err := w.Runner.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if g := w.run(t); g.Operation.EndedAt == nil || !g.Operation.EndedAt.Equal(*synced.Operation.EndedAt) {
		t.Fatalf("a poll of a branch that has not moved ran %+v", g.Operation)
	}
	w.pull(t, secret)
	if n := w.fetches.Load(); n != fetched {
		t.Fatalf("%d fetches for a branch that has not moved", n-fetched)
	}

	w.commitFile(t, "docs/faq.md", "# FAQ\n\nPolled.\n", "Poll me")
	w.Clock.Advance(2 * time.Minute)
	w.run(t) // the poll queues a pull
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	if n := w.fetches.Load(); n != fetched+1 {
		t.Fatalf("%d fetches for a branch that moved, want 1", n-fetched)
	}
	if md := w.mainMarkdown(t, w.space.Id, titled(t, w, "FAQ")); !strings.Contains(md, "Polled.") {
		t.Fatalf("the polled commit:\n%s", md)
	}
}

// Every write to a linked space's content pushes, not only a change request's merge: a template
// applied to the space, an import run merged into it.
func TestGitSyncPushesEveryContentWrite(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "file")
	w.linked(t)
	w.Expect(t, http.StatusNoContent, w.editor, "POST", "/spaces/"+w.space.Id+"/content/template", map[string]any{"id": "product-guide"})
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	if got := gittest.Show(t, w.bare, "%an|%s", "main"); got != "Eve|Apply the template product-guide" {
		t.Fatalf("the template's push: %q", got)
	}

	md := w.upload(t, w.editor, "getting-around.md", "text/markdown", []byte("# Getting around\n\nUse the *map*.\n"))
	var run gen.ContentImportRun
	w.Expect(t, http.StatusCreated, w.editor, "POST", importsPath(w.org.Id), map[string]any{
		"source": map[string]any{"type": "file", "files": []string{md}}, "target": map[string]any{"space": w.space.Id},
	}).Decode(t, &run)
	if run = w.runImport(t, run.Id); run.Status != gen.ContentImportRunStatusCompleted {
		t.Fatalf("run %+v", run)
	}
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	if got := gittest.Show(t, w.bare, "%an|%s", "main"); got != "Eve|Import of uploaded files" {
		t.Fatalf("the import run's push: %q", got)
	}
	found := false
	for _, f := range gittest.Tree(t, w.bare, "main") {
		found = found || strings.HasSuffix(f, "getting-around.md")
	}
	if !found {
		t.Fatalf("the imported page is not pushed: %v", gittest.Tree(t, w.bare, "main"))
	}
}
