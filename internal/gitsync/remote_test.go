package gitsync_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/internal/gitsync/gittest"
)

var private = gitsync.Guard{Fetcher: fetch.New(fetch.Options{AllowPrivate: true})}

func sampleSpace() *gitsync.Space {
	return &gitsync.Space{Pages: []*gitsync.Page{
		{ID: "p1", Title: "Welcome", Slug: "welcome", Path: "welcome", Markdown: "Hello, see [setup](/pages/p2)."},
		{ID: "p2", Title: "Setup", Slug: "setup", Path: "setup", Markdown: "Run it. ![logo](/files/f1)"},
	}, Files: []*gitsync.File{{ID: "f1", Name: "logo.png", Data: []byte("\x89PNG fake")}}}
}

// remotes are the ways tests reach a bare repository: smart HTTP (git http-backend, with basic
// credentials), SSH (git's upload-pack and receive-pack behind a loopback server, a key, its host
// key pinned) and file://.
func remotes(t *testing.T) map[string]func(bare string) gitsync.Remote {
	split := func(raw string) gitsync.Remote {
		r, err := gitsync.SplitURL(raw)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	return map[string]func(string) gitsync.Remote{
		"http": func(bare string) gitsync.Remote {
			srv := gittest.Server(t, filepath.Dir(bare), "ada", "s3cret")
			return split(strings.Replace(srv.URL, "http://", "http://ada:s3cret@", 1) + "/" + filepath.Base(bare))
		},
		"ssh": func(bare string) gitsync.Remote {
			srv := gittest.SSHServer(t, filepath.Dir(bare))
			r := split(srv.URL(filepath.Base(bare)))
			r.SSHKey, r.HostKey = srv.ClientKey, srv.HostKey
			return r
		},
		"file": func(bare string) gitsync.Remote { return split("file://" + bare) },
	}
}

func TestPushThenPull(t *testing.T) {
	for name, urlOf := range remotes(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			bare := gittest.Bare(t, "docs.git")
			r := urlOf(bare)
			r.Ref, r.Dir = "main", "docs"
			tmp := t.TempDir()
			// An empty repository: the branch is started.
			co, err := gitsync.Clone(ctx, private, r, tmp, true)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := co.Replace(sampleSpace(), tmp); err != nil {
				t.Fatal(err)
			}
			oid, err := co.Commit(ctx, private, "First words", gitsync.Signature{Name: "Ada", Email: "ada@example.com"}, false)
			if err != nil || oid == "" {
				t.Fatalf("commit %q: %v", oid, err)
			}
			if got := gittest.Show(t, bare, "%H|%an <%ae>|%s", "main"); got != oid+"|Ada <ada@example.com>|First words" {
				t.Fatalf("pushed %q", got)
			}
			tree := gittest.Tree(t, bare, "main")
			want := []string{"docs/.gitbook.yaml", "docs/.gitbook/assets/logo.png", "docs/README.md", "docs/SUMMARY.md", "docs/setup.md"}
			if !slices.Equal(tree, want) {
				t.Fatalf("tree %v, want %v", tree, want)
			}
			if md := gittest.File(t, bare, "main", "docs/README.md"); !strings.Contains(md, "[setup](setup.md)") {
				t.Fatalf("README.md:\n%s", md)
			}

			// Someone pushes a page and a file of their own; quire reads both back, and its next
			// push keeps their file.
			gittest.Seed(t, bare, "main", map[string]string{"docs/extra.md": "# Extra\n\nMore.\n", "ci.yml": "on: push\n",
				"docs/SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n* [Extra](extra.md)\n"}, "Add extra")
			again, err := gitsync.Clone(ctx, private, r, t.TempDir(), false)
			if err != nil {
				t.Fatal(err)
			}
			im, err := gitsync.Read(again.Dir, nil)
			if err != nil || len(im.Pages) != 3 || im.Pages[2].Title != "Extra" {
				t.Fatalf("read %+v %v", im, err)
			}
			blobs, err := again.Blobs()
			if err != nil || blobs["extra.md"] != gittest.Git(t, bare, "rev-parse", "main:docs/extra.md") {
				t.Fatalf("blobs %v %v", blobs, err)
			}
			if again.Head.Message != "Add extra\n" || again.Head.Author.Name != "Grace" {
				t.Fatalf("head %q by %q", again.Head.Message, again.Head.Author.Name)
			}
			if _, err := again.Replace(sampleSpace(), t.TempDir()); err != nil {
				t.Fatal(err)
			}
			if _, err := again.Commit(ctx, private, "Back to two", gitsync.Signature{Name: "Ada", Email: "ada@example.com"}, false); err != nil {
				t.Fatal(err)
			}
			tree = gittest.Tree(t, bare, "main")
			if !slices.Contains(tree, "ci.yml") || slices.Contains(tree, "docs/extra.md") {
				t.Fatalf("tree %v: ci.yml kept, extra.md gone", tree)
			}

			// The first checkout is behind now: its push is refused, not forced.
			if _, err := co.Replace(&gitsync.Space{Pages: sampleSpace().Pages[:1]}, tmp); err != nil {
				t.Fatal(err)
			}
			_, err = co.Commit(ctx, private, "Stale", gitsync.Signature{Name: "Ada", Email: "ada@example.com"}, false)
			if !gitsync.IsNonFastForward(err) {
				t.Fatalf("stale push: %v", err)
			}
		})
	}
}

func TestGitBadInput(t *testing.T) {
	ctx := context.Background()
	bare := gittest.Bare(t, "docs.git")
	gittest.Seed(t, bare, "main", map[string]string{"README.md": "# Hi\n", "SUMMARY.md": "* [Hi](README.md)\n"}, "Init")
	srv := gittest.Server(t, filepath.Dir(bare), "ada", "s3cret")
	open := srv.URL + "/docs.git"
	for _, tc := range []struct {
		name, url, ref string
		guard          gitsync.Guard
		want           string
	}{
		{"NotARepository", strings.Replace(srv.URL, "http://", "http://ada:s3cret@", 1) + "/nothing.git", "main", private, "not a git repository"},
		{"MissingBranch", strings.Replace(open, "http://", "http://ada:s3cret@", 1), "nope", private, "has no branch nope"},
		{"NoCredentials", open, "main", private, "asks for credentials"},
		{"WrongCredentials", strings.Replace(open, "http://", "http://ada:wrong@", 1), "main", private, "credentials"},
		{"SizeCap", strings.Replace(open, "http://", "http://ada:s3cret@", 1), "main",
			gitsync.Guard{Fetcher: private.Fetcher, MaxBytes: 100}, "over the"},
		{"PrivateAddress", strings.Replace(open, "http://", "http://ada:s3cret@", 1), "main",
			gitsync.Guard{Fetcher: fetch.New(fetch.Options{})}, "is not allowed (loopback)"},
		{"FileWithoutPrivate", "file://" + bare, "main", gitsync.Guard{Fetcher: fetch.New(fetch.Options{})}, "file:// repositories are refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := gitsync.SplitURL(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			r.Ref = tc.ref
			_, err = gitsync.Clone(ctx, tc.guard, r, t.TempDir(), false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Fatalf("the error shows the password: %v", err)
			}
		})
	}
	for _, raw := range []string{"git://example.com/x.git", "not a url", "ftp://example.com/x", "ssh://example.com/", "ssh:///x.git"} {
		if _, err := gitsync.SplitURL(raw); err == nil {
			t.Errorf("%s: no error", raw)
		}
	}
	for _, dir := range []string{"../up", "a/../../b"} {
		if _, err := gitsync.CleanDir(dir); err == nil {
			t.Errorf("%s: no error", dir)
		}
	}
}

// A repository whose symlink leads out of the tree (go-git keeps an absolute target inside the
// clone; a relative one may climb out), or whose page is not UTF-8, is refused by name.
func TestGitRepositoryRefused(t *testing.T) {
	ctx := context.Background()
	bare := gittest.Bare(t, "docs.git")
	work := t.TempDir()
	gittest.Git(t, work, "clone", "-q", bare, "w")
	w := filepath.Join(work, "w")
	os.WriteFile(filepath.Join(w, "SUMMARY.md"), []byte("* [Hi](README.md)\n* [Bad](bad.md)\n"), 0o644)
	os.WriteFile(filepath.Join(w, "bad.md"), []byte("# Bad\n\nLatin-1: caf\xe9\n"), 0o644)
	if err := os.Symlink(strings.Repeat("../", 12)+"etc/passwd", filepath.Join(w, "README.md")); err != nil {
		t.Skip("no symlinks")
	}
	gittest.Git(t, w, "add", "-A")
	gittest.Git(t, w, "commit", "-q", "-m", "evil")
	gittest.Git(t, w, "push", "-q", "origin", "HEAD:main")
	co, err := gitsync.Clone(ctx, private, gitsync.Remote{URL: "file://" + bare, Ref: "main"}, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gitsync.Read(co.Dir, nil); err == nil || !strings.Contains(err.Error(), "README.md") || !strings.Contains(err.Error(), "resolves outside") {
		t.Fatalf("symlink: %v", err)
	}
	os.Remove(filepath.Join(co.Dir, "README.md"))
	os.WriteFile(filepath.Join(co.Dir, "README.md"), []byte("# Hi\n"), 0o644)
	if _, err := gitsync.Read(co.Dir, nil); err == nil || err.Error() != "bad.md:3: not UTF-8 text (byte 0xe9 at offset 19)" {
		t.Fatalf("latin-1: %v", err)
	}
}
