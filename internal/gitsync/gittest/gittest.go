// Package gittest runs real git repositories for tests: bare repositories made with the git CLI,
// served over smart HTTP by git's own `git http-backend` behind net/http/cgi, over SSH by a
// loopback x/crypto/ssh server running git-upload-pack and git-receive-pack (ssh.go), or reached
// as file:// URLs; and reads what was pushed to them with the git CLI.
package gittest

import (
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// Git runs the git CLI in dir and returns its trimmed output; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Grace", "GIT_AUTHOR_EMAIL=grace@example.com",
		"GIT_COMMITTER_NAME=Grace", "GIT_COMMITTER_EMAIL=grace@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Bare makes an empty bare repository (its branch main) under a temporary folder and returns
// its path.
func Bare(t testing.TB, name string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, name)
	Git(t, root, "init", "--bare", "--initial-branch=main", dir)
	Git(t, dir, "config", "http.receivepack", "true")
	return dir
}

// Seed commits the files of a folder (slash paths → contents) to a bare repository's branch,
// as Grace, and returns the commit id.
func Seed(t testing.TB, bare, branch string, files map[string]string, message string) string {
	t.Helper()
	work := t.TempDir()
	Git(t, work, "clone", "-q", bare, "w")
	w := filepath.Join(work, "w")
	Git(t, w, "checkout", "-q", "-B", branch)
	WriteFiles(t, w, files)
	Git(t, w, "add", "-A")
	Git(t, w, "commit", "-q", "--allow-empty", "-m", message)
	Git(t, w, "push", "-q", "origin", branch)
	return Git(t, w, "rev-parse", "HEAD")
}

// WriteFiles writes files (slash paths → contents) under dir.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Files reads every file under dir into a map for Seed, each path under prefix.
func Files(t testing.TB, dir, prefix string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[prefix+filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Server serves the bare repositories under root over smart HTTP with git http-backend; a
// repository at root/name.git is at URL/name.git. With user set, every request must carry those
// basic credentials.
func Server(t testing.TB, root, user, password string) *httptest.Server {
	t.Helper()
	srv, _ := CountingServer(t, root, user, password)
	return srv
}

// CountingServer is Server, counting the fetches it serves (POSTs to git-upload-pack: a clone or
// a fetch, not a listing of refs).
func CountingServer(t testing.TB, root, user, password string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	fetches := &atomic.Int64{}
	execPath := strings.TrimSpace(mustOutput(t, "git", "--exec-path"))
	backend := &cgi.Handler{Path: filepath.Join(execPath, "git-http-backend"), Root: "/",
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "REMOTE_USER=quire"}, Stderr: io.Discard}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user != "" {
			u, p, ok := r.BasicAuth()
			if !ok || u != user || p != password {
				w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
		}
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-upload-pack") {
			fetches.Add(1)
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, fetches
}

func mustOutput(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out)
}

// Show answers `git show -s --format=… ref` in a bare repository.
func Show(t testing.TB, bare, format, ref string) string {
	t.Helper()
	return Git(t, bare, "show", "-s", "--format="+format, ref)
}

// Tree lists the files of a commit of a bare repository.
func Tree(t testing.TB, bare, ref string) []string {
	t.Helper()
	out := Git(t, bare, "ls-tree", "-r", "--name-only", ref)
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// File answers a file of a commit.
func File(t testing.TB, bare, ref, path string) string {
	t.Helper()
	return Git(t, bare, "show", ref+":"+path)
}
