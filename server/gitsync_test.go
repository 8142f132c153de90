package server_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
	space    gen.Space
}

func newGitWorld(t *testing.T, kind string, opts ...server.Options) *gitWorld {
	t.Helper()
	o := server.Options{AllowPrivateURLs: true}
	if len(opts) > 0 {
		o = opts[0]
	}
	w := &gitWorld{world: newWorld(t, o), bare: gittest.Bare(t, "handbook.git")}
	files := map[string]string{"ci.yml": "on: push\n"}
	filepath.Walk(handbook, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(handbook, p)
			files["docs/"+filepath.ToSlash(rel)] = string(data)
		}
		return err
	})
	gittest.Seed(t, w.bare, "main", files, "Handbook")
	switch kind {
	case "http":
		srv := gittest.Server(t, filepath.Dir(w.bare), "ada", "s3cret")
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

			// An edit in quire, pushed as the editor who asks.
			cr := w.create(t, w.editor, w.space.Id, "Say more")
			w.apply(t, w.editor, w.space.Id, cr.Id, editPage(install.Id, "Install it with **care**."))
			w.merged(t, w.space.Id, cr.Id)
			w.Expect(t, http.StatusNoContent, w.editor, "POST", w.gitPath("export"), map[string]any{
				"url": w.url, "ref": "refs/heads/main", "repoProjectDirectory": "docs", "commitMessage": "Say more"})
			g = w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
			if g.Operation.Direction != gen.GitSyncOperationDirectionExport {
				t.Fatalf("direction %s", g.Operation.Direction)
			}
			pushed := gittest.Git(t, w.bare, "rev-parse", "main")
			if got := gittest.Show(t, w.bare, "%P|%an <%ae>|%cn|%s", "main"); got != head+"|Eve <eve@editors.test>|quire|Say more" {
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
			rev = w.mainRevision(t, w.space.Id)
			if rev.Git == nil || rev.Git.Oid != pushed || !rev.Git.CreatedByGitBook {
				t.Fatalf("exported revision git %+v", rev.Git)
			}
		})
	}
}

// Bad input is refused by the call (400) or ends the run with its reason; the space is unchanged.
func TestGitSyncBadInput(t *testing.T) {
	w := newGitWorld(t, "http")
	for _, tc := range []struct {
		name string
		body map[string]any
		want string
	}{
		{"SSH", map[string]any{"url": "ssh://git@example.com/x.git", "ref": "main"}, "ssh remotes are not supported"},
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
