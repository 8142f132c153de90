package server_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/internal/gitsync/gittest"
	"github.com/quire-docs/quire/server"
)

// newSSHGitWorld is a git world whose handbook is served over SSH (git's own upload-pack and
// receive-pack behind a loopback x/crypto/ssh server, one client key); w.url is its ssh:// URL.
func newSSHGitWorld(t *testing.T, opts ...server.Options) (*gitWorld, *gittest.SSH) {
	t.Helper()
	w := newGitWorld(t, "", opts...)
	srv := gittest.SSHServer(t, filepath.Dir(w.bare))
	w.url = srv.URL("handbook.git")
	return w, srv
}

// mergeEdit merges a change request (the editor's, merged by the admin) that sets a page's
// markdown, and runs the push it queues, which must succeed.
func (w *gitWorld) mergeEdit(t *testing.T, page, subject, markdown string) {
	t.Helper()
	cr := w.create(t, w.editor, w.space.Id, subject)
	w.apply(t, w.editor, w.space.Id, cr.Id, editPage(page, markdown))
	w.merged(t, w.space.Id, cr.Id)
	w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
}

// Over SSH: an import (the server's host key recorded on first use and answered), the push of a
// merge, an export asked for at an scp-like URL of the same server (its key kept), a pull of a
// new commit; then the server shows another host key and the link's runs are refused, naming both
// fingerprints, the space unchanged.
func TestGitSyncOverSSH(t *testing.T) {
	t.Parallel()
	w, srv := newSSHGitWorld(t)
	w.Expect(t, http.StatusNoContent, w.editor, "POST", w.gitPath("import"), map[string]any{
		"url": w.url, "ref": "main", "repoProjectDirectory": "docs", "sshPrivateKey": srv.ClientKey})
	g := w.wantRun(t, gen.GitSyncOperationStateSuccess, "")
	if g.SshHostKey == nil || *g.SshHostKey != srv.HostKey || *g.RepoName != "handbook" {
		t.Fatalf("host key %v, want %s (first use); repo %v", deref(g.SshHostKey), srv.HostKey, deref(g.RepoName))
	}
	keyBody := strings.Split(srv.ClientKey, "\n")[1]
	if body := string(w.Expect(t, http.StatusOK, w.admin, "GET", w.gitPath("info"), nil).Body); strings.Contains(body, "PRIVATE KEY") ||
		strings.Contains(body, keyBody) {
		t.Fatalf("the key is answered: %s", body)
	}
	head := gittest.Git(t, w.bare, "rev-parse", "main")
	rev := w.mainRevision(t, w.space.Id)
	if rev.Git == nil || rev.Git.Oid != head {
		t.Fatalf("revision git %+v, want %s", rev.Git, head)
	}
	install := titles(rev.Pages)["Installation"]
	if install == "" || len(rev.Files) == 0 {
		t.Fatalf("imported %v, %d files", outline(rev.Pages), len(rev.Files))
	}

	// A merge is pushed over SSH, by who merged, with the change request's subject.
	w.mergeEdit(t, install, "Say more over SSH", "Install it over **SSH**.")
	if got := gittest.Show(t, w.bare, "%P|%an <%ae>|%cn|%s", "main"); got != head+"|Ada <ada@acme.test>|quire|Say more over SSH" {
		t.Fatalf("pushed %q", got)
	}
	if f := gittest.File(t, w.bare, "main", "docs/getting-started/installation.md"); !strings.Contains(f, "Install it over **SSH**.") {
		t.Fatalf("installation.md:\n%s", f)
	}

	// An export to the same server, spelled scp-like (go-git reads host:port:path): the host key
	// recorded for the server is kept.
	pushed := gittest.Git(t, w.bare, "rev-parse", "main")
	w.Expect(t, http.StatusNoContent, w.editor, "POST", w.gitPath("export"), map[string]any{
		"url": "git@" + srv.Addr + ":handbook.git", "ref": "main", "repoProjectDirectory": "handbook",
		"commitMessage": "Copy over SSH", "sshPrivateKey": srv.ClientKey})
	if g := w.wantRun(t, gen.GitSyncOperationStateSuccess, ""); g.SshHostKey == nil || *g.SshHostKey != srv.HostKey {
		t.Fatalf("host key after the export %v", deref(g.SshHostKey))
	}
	if got := gittest.Show(t, w.bare, "%P|%an <%ae>|%s", "main"); got != pushed+"|Eve <eve@editors.test>|Copy over SSH" {
		t.Fatalf("exported %q", got)
	}
	if tree := gittest.Tree(t, w.bare, "main"); !slices.Contains(tree, "handbook/SUMMARY.md") || !slices.Contains(tree, "docs/SUMMARY.md") {
		t.Fatalf("the exported tree %v", tree)
	}

	// A commit on the branch comes in over SSH.
	secret := *w.info(t).WebhookSecret
	file := "handbook/getting-started/installation.md"
	gittest.Seed(t, w.bare, "main", map[string]string{file: gittest.File(t, w.bare, "main", file) + "\nPulled over SSH.\n"}, "Pull me")
	w.pull(t, secret)
	if md := w.mainMarkdown(t, w.space.Id, install); !strings.Contains(md, "Pulled over SSH.") {
		t.Fatalf("the pull did not come in:\n%s", md)
	}

	// The server shows another host key: the link's runs are refused, the space unchanged.
	old := srv.HostKey
	srv.NewHostKey(t)
	before := w.mainRevision(t, w.space.Id)
	gittest.Seed(t, w.bare, "main", map[string]string{file: "# Installation\n\nReplaced.\n"}, "Not for quire")
	if code := w.webhook(t, secret); code != http.StatusAccepted {
		t.Fatalf("webhook: %d", code)
	}
	g = w.wantRun(t, gen.GitSyncOperationStateFailure, "is not the repository's known host key")
	if !strings.Contains(*g.Operation.Error, gitsync.Fingerprint(srv.HostKey)) || !strings.Contains(*g.Operation.Error, gitsync.Fingerprint(old)) {
		t.Fatalf("the error does not name both fingerprints: %s", *g.Operation.Error)
	}
	if after := w.mainRevision(t, w.space.Id); after.Id != before.Id || *w.info(t).SshHostKey != old {
		t.Fatal("the space or the link's host key changed")
	}
}

// Bad SSH input is refused by the call (400); a key the server refuses, a host key other than the
// pinned one and a server on a private address end the run with their reason, the space
// unchanged, the key in no error.
func TestGitSyncSSHRefused(t *testing.T) {
	t.Parallel()
	w, srv := newSSHGitWorld(t)
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	locked, err := ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		body map[string]any
		want string
	}{
		{"NoKey", map[string]any{"url": w.url, "ref": "main"}, "sshPrivateKey"},
		{"NotAKey", map[string]any{"url": w.url, "ref": "main", "sshPrivateKey": "hello"}, "not a private key"},
		{"PublicKey", map[string]any{"url": w.url, "ref": "main", "sshPrivateKey": srv.ClientPublic}, "not a private key"},
		{"Passphrase", map[string]any{"url": w.url, "ref": "main", "sshPrivateKey": string(pem.EncodeToMemory(locked))}, "passphrase"},
		{"NotAHostKey", map[string]any{"url": w.url, "ref": "main", "sshPrivateKey": srv.ClientKey, "sshHostKey": "ssh-ed25519 nope"}, "sshHostKey"},
		{"KeyForHTTP", map[string]any{"url": "https://git.example.com/x.git", "ref": "main", "sshPrivateKey": srv.ClientKey}, "is for an SSH url"},
		{"HostKeyForHTTP", map[string]any{"url": "https://git.example.com/x.git", "ref": "main", "sshHostKey": srv.HostKey}, "is for an SSH url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.gitPath("import"), tc.body), tc.want)
			if strings.Contains(msg, "PRIVATE KEY") {
				t.Fatalf("the message shows the key: %s", msg)
			}
		})
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", w.gitPath("info"), nil)

	before := w.mainRevision(t, w.space.Id)
	wrong, _, _ := gittest.NewKey(t)
	other := gittest.SSHServer(t, t.TempDir())
	for _, tc := range []struct {
		name        string
		key, pinned string
		want        []string
	}{
		{"WrongKey", wrong, "", []string{"the server refused the credentials"}},
		{"PinnedHostKey", srv.ClientKey, "[" + srv.Addr + "]:22 " + other.HostKey + " other",
			[]string{"is not the repository's known host key", gitsync.Fingerprint(srv.HostKey), gitsync.Fingerprint(other.HostKey)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"url": w.url, "ref": "main", "repoProjectDirectory": "docs", "sshPrivateKey": tc.key}
			if tc.pinned != "" {
				body["sshHostKey"] = tc.pinned
			}
			w.Expect(t, http.StatusNoContent, w.admin, "POST", w.gitPath("import"), body)
			g := w.wantRun(t, gen.GitSyncOperationStateFailure, tc.want[0])
			for _, part := range tc.want[1:] {
				if !strings.Contains(*g.Operation.Error, part) {
					t.Fatalf("error %q does not say %q", *g.Operation.Error, part)
				}
			}
			if strings.Contains(*g.Operation.Error, "PRIVATE KEY") {
				t.Fatalf("the error shows the key: %s", *g.Operation.Error)
			}
			if after := w.mainRevision(t, w.space.Id); after.Id != before.Id {
				t.Fatal("the space changed")
			}
			if tc.pinned != "" && (g.SshHostKey == nil || *g.SshHostKey != other.HostKey) {
				t.Fatalf("the pinned key is not the link's: %v", deref(g.SshHostKey))
			}
			if tc.pinned == "" && g.SshHostKey != nil && *g.SshHostKey != srv.HostKey {
				t.Fatalf("host key %v", deref(g.SshHostKey))
			}
		})
	}

	t.Run("PrivateAddress", func(t *testing.T) {
		guarded, srv := newSSHGitWorld(t, server.Options{})
		guarded.Expect(t, http.StatusNoContent, guarded.admin, "POST", guarded.gitPath("import"), map[string]any{
			"url": guarded.url, "ref": "main", "repoProjectDirectory": "docs", "sshPrivateKey": srv.ClientKey})
		g := guarded.wantRun(t, gen.GitSyncOperationStateFailure, "is not allowed (loopback)")
		if g.SshHostKey != nil {
			t.Fatalf("a host key recorded without a connection: %s", *g.SshHostKey)
		}
	})
}
