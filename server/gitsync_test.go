package server_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/gitsync/gittest"
	"github.com/quire-docs/quire/server"
)

const handbook = "../testdata/gitsync/handbook"

// gitWorld is a world whose server reaches loopback, with a bare repository holding the handbook
// under docs/, reached over smart HTTP (git http-backend, basic credentials) or as a file:// URL.
type gitWorld struct {
	*world
	bare, url string // url carries the credentials
	space     gen.Space
	fetches   *atomic.Int64 // the clones and fetches the http server served
}

func newGitWorld(t *testing.T, kind string, opts ...server.Options) *gitWorld {
	t.Helper()
	o := server.Options{AllowPrivateURLs: true}
	if len(opts) > 0 {
		o = opts[0]
	}
	w := &gitWorld{world: newWorld(t, o), bare: gittest.Bare(t, "handbook.git")}
	files := gittest.Files(t, handbook, "docs/")
	files["ci.yml"] = "on: push\n"
	gittest.Seed(t, w.bare, "main", files, "Handbook")
	switch kind {
	case "http":
		srv, fetches := gittest.CountingServer(t, filepath.Dir(w.bare), "ada", "s3cret")
		w.fetches = fetches
		w.url = strings.Replace(srv.URL, "http://", "http://ada:s3cret@", 1) + "/handbook.git"
	case "file":
		w.url = "file://" + w.bare
	}
	w.space = w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")
	return w
}

func (w *gitWorld) gitPath(op string) string { return "/spaces/" + w.space.Id + "/git/" + op }

func (w *gitWorld) info(t *testing.T) gen.GitSyncState {
	t.Helper()
	return getJSON[gen.GitSyncState](t, w.testServer, w.admin, w.gitPath("info"))
}

// run runs the queued jobs and answers the space's git state after them.
func (w *gitWorld) run(t *testing.T) gen.GitSyncState {
	t.Helper()
	if _, err := w.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	return w.info(t)
}

func (w *gitWorld) wantRun(t *testing.T, state gen.GitSyncOperationState, errPart string) gen.GitSyncState {
	t.Helper()
	g := w.run(t)
	if g.Operation == nil || g.Operation.State != state || g.Operation.EndedAt == nil {
		t.Fatalf("operation %+v, want %s", g.Operation, state)
	}
	if errPart != "" && (g.Operation.Error == nil || !strings.Contains(*g.Operation.Error, errPart)) {
		t.Fatalf("error %v, want %q", deref(g.Operation.Error), errPart)
	}
	return g
}

func TestGitSyncImportThenExport(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"http", "file"} {
		t.Run(kind, func(t *testing.T) {
			w := newGitWorld(t, kind)
			w.Expect(t, http.StatusNotFound, w.admin, "GET", w.gitPath("info"), nil)
			w.Expect(t, http.StatusNoContent, w.editor, "POST", w.gitPath("import"), map[string]any{
				"url": w.url, "ref": "refs/heads/main", "repoProjectDirectory": "docs",
				"repoCommitURL": "https://git.example.com/handbook/commit/", "repoTreeURL": "https://git.example.com/handbook/tree/main"})
			g := w.info(t)
			if g.Operation == nil || g.Operation.State != gen.GitSyncOperationStateRunning || g.Operation.Direction != gen.GitSyncOperationDirectionImport ||
				*g.Url != "https://git.example.com/handbook/tree/main" || !strings.HasSuffix(*g.RepoName, "handbook") {
				t.Fatalf("queued: %+v %+v", g, g.Operation)
			}
			w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
			body := w.Expect(t, http.StatusOK, w.admin, "GET", w.gitPath("info"), nil).Body
			if strings.Contains(string(body), "s3cret") {
				t.Fatalf("the credentials are answered: %s", body)
			}

			// The revision is the commit; each page is its file.
			head := gittest.Git(t, w.bare, "rev-parse", "main")
			rev := w.mainRevision(t, w.space.Id)
			if rev.Git == nil || rev.Git.Oid != head || rev.Git.Message != "Handbook\n" || rev.Git.CreatedByGitBook ||
				*rev.Git.Url != "https://git.example.com/handbook/commit/"+head || *rev.Git.Ref != "refs/heads/main" {
				t.Fatalf("revision git %+v", rev.Git)
			}
			wantOutline(t, "imported", rev.Pages, outline(rev.Pages)...)
			var install *gen.RevisionPage
			walkPages(rev.Pages, func(p gen.RevisionPage, _ string, _ int) {
				if p.Title == "Installation" {
					install = &p
				}
			})
			if install == nil || install.Git == nil || install.Git.Path != "docs/getting-started/installation.md" ||
				install.Git.Oid != gittest.Git(t, w.bare, "rev-parse", "main:docs/getting-started/installation.md") {
				t.Fatalf("installation page %+v", install)
			}
			if one := w.page(t, "/spaces/"+w.space.Id, install.Id, ""); one.Git == nil || one.Git.Oid != install.Git.Oid {
				t.Fatalf("the page alone: %+v", one.Git)
			}
			if len(rev.Files) == 0 {
				t.Fatal("no files imported")
			}
			md := w.mainMarkdown(t, w.space.Id, install.Id)
			if !strings.Contains(md, "/files/") {
				t.Fatalf("the image is not a file of the space:\n%s", md)
			}

			// The same commit again: nothing changes; with force it is imported again.
			w.Expect(t, http.StatusNoContent, w.editor, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "docs"})
			w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
			if again := w.mainRevision(t, w.space.Id); again.Id != rev.Id {
				t.Fatalf("an import of the same commit made revision %s", again.Id)
			}

			// An edit in quire: the import linked the space to the branch, so its merge is pushed
			// (by who merged, the change request's subject).
			cr := w.create(t, w.editor, w.space.Id, "Say more")
			w.apply(t, w.editor, w.space.Id, cr.Id, editPage(install.Id, "Install it with **care**."))
			w.merged(t, w.space.Id, cr.Id)
			g = w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
			if g.Operation.Direction != gen.GitSyncOperationDirectionExport {
				t.Fatalf("direction %s", g.Operation.Direction)
			}
			pushed := gittest.Git(t, w.bare, "rev-parse", "main")
			if got := gittest.Show(t, w.bare, "%P|%an <%ae>|%cn|%s", "main"); got != head+"|Ada <ada@acme.test>|quire|Say more" {
				t.Fatalf("pushed %q", got)
			}
			if f := gittest.File(t, w.bare, "main", "docs/getting-started/installation.md"); !strings.Contains(f, "Install it with **care**.") {
				t.Fatalf("installation.md:\n%s", f)
			}
			tree := gittest.Tree(t, w.bare, "main")
			for _, want := range []string{"ci.yml", "docs/SUMMARY.md", "docs/.gitbook.yaml", "docs/README.md"} {
				if !slices.Contains(tree, want) {
					t.Errorf("the pushed tree has no %s: %v", want, tree)
				}
			}
			// An export asked for, as the editor, into another folder of the repository.
			w.Expect(t, http.StatusNoContent, w.editor, "POST", w.gitPath("export"), map[string]any{
				"url": w.url, "ref": "refs/heads/main", "repoProjectDirectory": "handbook", "commitMessage": "Copy the handbook"})
			w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
			if got := gittest.Show(t, w.bare, "%P|%an <%ae>|%s", "main"); got != pushed+"|Eve <eve@editors.test>|Copy the handbook" {
				t.Fatalf("exported %q", got)
			}
			if tree := gittest.Tree(t, w.bare, "main"); !slices.Contains(tree, "handbook/SUMMARY.md") || !slices.Contains(tree, "docs/SUMMARY.md") {
				t.Fatalf("the exported tree %v", tree)
			}
			pushed = gittest.Git(t, w.bare, "rev-parse", "main")
			rev = w.mainRevision(t, w.space.Id)
			if rev.Git == nil || rev.Git.Oid != pushed || !rev.Git.CreatedByGitBook {
				t.Fatalf("exported revision git %+v", rev.Git)
			}
		})
	}
}

// Bad input is refused by the call (400) or ends the run with its reason; the space is unchanged.
func TestGitSyncBadInput(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "http")
	for _, tc := range []struct {
		name string
		body map[string]any
		want string
	}{
		{"GitProtocol", map[string]any{"url": "git://example.com/x.git", "ref": "main"}, "git:// remotes are not supported"},
		{"NotAURL", map[string]any{"url": "nothing", "ref": "main"}, "url"},
		{"Tag", map[string]any{"url": w.url, "ref": "refs/tags/v1"}, "ref"},
		{"BadBranch", map[string]any{"url": w.url, "ref": "a..b"}, "ref"},
		{"DotDot", map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "../etc"}, "leads out of the repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.gitPath("import"), tc.body), tc.want)
		})
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.gitPath("export"), map[string]any{"url": w.url, "ref": "main", "commitMessage": " "})
	w.Expect(t, http.StatusForbidden, w.reader, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "main"})

	before := w.mainRevision(t, w.space.Id)
	srvURL := w.url[:strings.LastIndex(w.url, "/")]
	for _, tc := range []struct {
		name, url, ref, dir, want string
	}{
		{"NotARepository", srvURL + "/nothing.git", "main", "docs", "not a git repository"},
		{"MissingBranch", w.url, "nope", "docs", "has no branch nope"},
		{"WrongCredentials", strings.Replace(w.url, "s3cret", "wrong", 1), "main", "docs", "credentials"},
		{"NoSummary", w.url, "main", "", "SUMMARY.md: not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": tc.url, "ref": tc.ref, "repoProjectDirectory": tc.dir})
			g := w.wantRun(t, gen.GitSyncOperationStateFailure, tc.want)
			if strings.Contains(*g.Operation.Error, "ada:") || strings.Contains(*g.Operation.Error, "s3cret") {
				t.Fatalf("the error shows credentials: %s", *g.Operation.Error)
			}
			if after := w.mainRevision(t, w.space.Id); after.Id != before.Id {
				t.Fatal("the space changed")
			}
		})
	}

	t.Run("SizeCap", func(t *testing.T) {
		small := newGitWorld(t, "http", server.Options{AllowPrivateURLs: true, GitMaxBytes: 2000})
		small.Expect(t, http.StatusNoContent, small.admin, "POST", small.gitPath("import"), map[string]any{"url": small.url, "ref": "main", "repoProjectDirectory": "docs"})
		small.wantRun(t, gen.GitSyncOperationStateFailure, "over the size limit")
	})
	t.Run("PrivateAddress", func(t *testing.T) {
		guarded := newGitWorld(t, "http", server.Options{})
		guarded.Expect(t, http.StatusNoContent, guarded.admin, "POST", guarded.gitPath("import"), map[string]any{"url": guarded.url, "ref": "main", "repoProjectDirectory": "docs"})
		guarded.wantRun(t, gen.GitSyncOperationStateFailure, "is not allowed (loopback)")
	})
	t.Run("FileWithoutPrivate", func(t *testing.T) {
		guarded := newGitWorld(t, "file", server.Options{})
		guarded.Expect(t, http.StatusNoContent, guarded.admin, "POST", guarded.gitPath("import"), map[string]any{"url": guarded.url, "ref": "main", "repoProjectDirectory": "docs"})
		guarded.wantRun(t, gen.GitSyncOperationStateFailure, "file:// repositories are refused")
	})
	t.Run("OneRunAtATime", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "docs"})
		w.Expect(t, http.StatusConflict, w.admin, "POST", w.gitPath("export"), map[string]any{"url": w.url, "ref": "main", "commitMessage": "x"})
		w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	})
}

// A standalone import leaves the space's content alone: the repository's content waits in an open
// change request.
func TestGitSyncStandaloneImport(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "file")
	before := w.mainRevision(t, w.space.Id)
	w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "docs", "standalone": true})
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	if after := w.mainRevision(t, w.space.Id); after.Id != before.Id {
		t.Fatal("the space changed")
	}
	list := w.list(t, w.admin, "/spaces/"+w.space.Id+"/change-requests?status=open")
	if len(list.Items) != 1 || !strings.HasPrefix(list.Items[0].Subject, "Import main from") {
		t.Fatalf("change requests %+v", list.Items)
	}
	rev := w.crRevision(t, w.space.Id, list.Items[0].Id)
	if rev.Git == nil || rev.Git.Oid != gittest.Git(t, w.bare, "rev-parse", "main") || len(rev.Pages) == 0 {
		t.Fatalf("the change request's revision: %+v", rev.Git)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// webhook posts to a link's webhook, signed with secret as GitHub signs ("" unsigned).
func (w *gitWorld) webhook(t *testing.T, secret string) int {
	t.Helper()
	body := []byte(`{"ref":"refs/heads/main"}`)
	req, _ := http.NewRequest("POST", w.URL+"/hooks/git/"+w.space.Id, bytes.NewReader(body))
	if secret != "" {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(body)
		req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// A git link keeps the space and the branch in step: a merge pushes one commit (by who merged,
// the change request's subject); a commit found by the webhook or the poller comes in as a merged
// change request by its author; when both moved, the branch's commit waits in an open change
// request and the push goes on top of it.
func TestGitSyncLink(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "http", server.Options{AllowPrivateURLs: true, GitSyncPoll: time.Minute})
	ctx := context.Background()
	grace := w.MustCreateUser(t, "grace@example.com", "Grace")
	w.MustAddMember(t, w.admin, w.org.Id, grace, "edit")
	w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "docs"})
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	g := w.info(t)
	if g.WebhookURL == nil || *g.WebhookURL != testBaseURL+"/hooks/git/"+w.space.Id || g.WebhookSecret == nil {
		t.Fatalf("webhook %v %v", g.WebhookURL, g.WebhookSecret)
	}
	if e := getJSON[gen.GitSyncState](t, w.testServer, w.editor, w.gitPath("info")); e.WebhookSecret != nil {
		t.Fatal("the webhook secret is answered to an editor")
	}
	secret := *g.WebhookSecret
	pages := flatten(w.mainPages(t, w.space.Id))
	var install string
	for id, p := range pages {
		if p.Title == "Installation" {
			install = id
		}
	}

	// A merge pushes.
	head := gittest.Git(t, w.bare, "rev-parse", "main")
	w.mergeEdit(t, install, "Polish the installation", "Install it with care.")
	if got := gittest.Show(t, w.bare, "%P|%an <%ae>|%s", "main"); got != head+"|Ada <ada@acme.test>|Polish the installation" {
		t.Fatalf("the merge's commit: %q", got)
	}

	// A commit on the branch, announced by the webhook, comes in by its author.
	edited := strings.Replace(gittest.File(t, w.bare, "main", "docs/getting-started/installation.md"), "Install it with care.", "Install it with great care.", 1)
	gittest.Seed(t, w.bare, "main", map[string]string{"docs/getting-started/installation.md": edited + "\n"}, "Stress the care")
	if code := w.webhook(t, ""); code != http.StatusUnauthorized {
		t.Fatalf("unsigned webhook: %d", code)
	}
	if code := w.webhook(t, "not the secret"); code != http.StatusUnauthorized {
		t.Fatalf("badly signed webhook: %d", code)
	}
	if code := w.webhook(t, secret); code != http.StatusAccepted {
		t.Fatalf("webhook: %d", code)
	}
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	merged := w.list(t, w.admin, "/spaces/"+w.space.Id+"/change-requests?status=merged")
	if len(merged.Items) == 0 || merged.Items[0].Subject != "Stress the care" || merged.Items[0].CreatedBy.Id != grace.ID {
		t.Fatalf("merged change requests %+v", merged.Items)
	}
	if md := w.mainMarkdown(t, w.space.Id, titled(t, w, "Installation")); !strings.Contains(md, "great care") {
		t.Fatalf("the commit did not come in:\n%s", md)
	}

	// Both move: the push of quire's merge imports the branch's commit first, into an open change
	// request, and goes on top of it.
	faq := ""
	for _, f := range gittest.Tree(t, w.bare, "main") {
		if strings.HasSuffix(f, "/faq.md") {
			faq = f
		}
	}
	gittest.Seed(t, w.bare, "main", map[string]string{faq: "# FAQ\n\nAsked in git.\n"}, "Answer in git")
	remote := gittest.Git(t, w.bare, "rev-parse", "main")
	w.mergeEdit(t, titled(t, w, "FAQ"), "Answer in quire", "Asked in quire.")
	open := w.list(t, w.admin, "/spaces/"+w.space.Id+"/change-requests?status=open")
	if len(open.Items) != 1 || open.Items[0].Subject != "Answer in git" {
		t.Fatalf("open change requests %+v", open.Items)
	}
	if md := w.crMarkdown(t, w.space.Id, open.Items[0].Id, titledIn(t, w.crPages(t, w.space.Id, open.Items[0].Id), "FAQ")); !strings.Contains(md, "Asked in git.") {
		t.Fatalf("the open change request:\n%s", md)
	}
	if got := gittest.Show(t, w.bare, "%P|%s", "main"); got != remote+"|Answer in quire" {
		t.Fatalf("the push: %q", got)
	}

	// The poller finds a commit without a webhook.
	gittest.Seed(t, w.bare, "main", map[string]string{"ci.yml": "on: [push]\n"}, "Only CI")
	before := w.mainRevision(t, w.space.Id)
	if err := w.Runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	w.run(t) // the poll queues a pull
	g = w.run(t)
	if g.Operation.Direction != gen.GitSyncOperationDirectionImport || g.Operation.State != gen.GitSyncOperationStateSuccess {
		t.Fatalf("the poll's pull: %+v", g.Operation)
	}
	if after := w.mainRevision(t, w.space.Id); after.Id == before.Id || after.Git == nil || after.Git.Oid != gittest.Git(t, w.bare, "rev-parse", "main") {
		t.Fatalf("the polled commit: %+v", after.Git)
	}
}

func titled(t *testing.T, w *gitWorld, title string) string {
	t.Helper()
	return titledIn(t, w.mainPages(t, w.space.Id), title)
}

func titledIn(t *testing.T, pages []gen.RevisionPage, title string) string {
	t.Helper()
	for id, p := range flatten(pages) {
		if p.Title == title {
			return id
		}
	}
	t.Fatalf("no page %q", title)
	return ""
}

// The app's space view shows the git link, its last sync and its error.
func TestGitSyncAppView(t *testing.T) {
	t.Parallel()
	w := newGitWorld(t, "http")
	web := &webWorld{world: w.world}
	admin := web.appLogin(t, w.admin)
	wantNotIn(t, "no link", web.expect(t, http.StatusOK, "/app/s/"+w.space.Id, "Cookie", admin).Body, "Git Sync")
	w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "nope", "repoProjectDirectory": "docs"})
	w.wantRun(t, gen.GitSyncOperationStateFailure, "")
	page := web.expect(t, http.StatusOK, "/app/s/"+w.space.Id, "Cookie", admin).Body
	wantIn(t, "failed run", page, "<h2 id=\"git-title\">Git Sync</h2>", "branch <code>nope</code>", "folder <code>docs</code>",
		"Last sync: import · failure", "has no branch nope")
	wantNotIn(t, "failed run", page, "s3cret")
	w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "docs"})
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	head := gittest.Git(t, w.bare, "rev-parse", "main")
	wantIn(t, "synced", web.expect(t, http.StatusOK, "/app/s/"+w.space.Id, "Cookie", admin).Body, "Last sync: import · success",
		"in step with <code>"+head[:7]+"</code>")
}
