package gitsync_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/internal/gitsync/gittest"
)

func TestSplitSSHURL(t *testing.T) {
	for raw, want := range map[string]gitsync.Remote{
		"ssh://git@git.example.com/owner/repo.git":        {URL: "ssh://git@git.example.com/owner/repo.git"},
		"ssh://git@git.example.com:2222/owner/repo.git":   {URL: "ssh://git@git.example.com:2222/owner/repo.git"},
		"ssh://ada:s3cret@git.example.com/owner/repo.git": {URL: "ssh://ada@git.example.com/owner/repo.git", Password: "s3cret"},
		"git@github.com:owner/repo.git":                   {URL: "git@github.com:owner/repo.git"},
		"  git@github.com:owner/repo.git ":                {URL: "git@github.com:owner/repo.git"},
		"github.com:owner/repo.git":                       {URL: "github.com:owner/repo.git"},
		"git@gitlab.example.com:group/sub/project.git":    {URL: "git@gitlab.example.com:group/sub/project.git"},
		"git@gitlab.example.com:owner/re@po.git":          {URL: "git@gitlab.example.com:owner/re@po.git"},
	} {
		got, err := gitsync.SplitURL(raw)
		if err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", raw, got, err, want)
		}
		if !gitsync.IsSSH(got.URL) {
			t.Errorf("%q is not ssh", got.URL)
		}
	}
	for _, raw := range []string{"ada:s3cret@github.com:owner/repo.git", "./local:path", "ssh://git@/x.git", "ssh://git@host"} {
		if r, err := gitsync.SplitURL(raw); err == nil {
			t.Errorf("%s: no error (%+v)", raw, r)
		}
	}
	if host, repo := gitsync.RepoPath("git@github.com:owner/repo.git"); host != "github.com" || repo != "owner/repo.git" {
		t.Errorf("RepoPath %q %q", host, repo)
	}
}

func TestParseHostKey(t *testing.T) {
	srv := gittest.SSHServer(t, t.TempDir())
	fields := strings.Fields(srv.HostKey)
	for _, line := range []string{srv.HostKey, srv.HostKey + " root@host", "[git.example.com]:2222 " + srv.HostKey, "  " + srv.HostKey + "\n"} {
		got, err := gitsync.ParseHostKey(line)
		if err != nil || got != fields[0]+" "+fields[1] {
			t.Errorf("%q: %q %v", line, got, err)
		}
	}
	if fp := gitsync.Fingerprint(srv.HostKey); !strings.HasPrefix(fp, "SHA256:") {
		t.Errorf("fingerprint %q", fp)
	}
	for _, bad := range []string{"", "ssh-ed25519 nope", "hello"} {
		if _, err := gitsync.ParseHostKey(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := gitsync.ParseSSHKey(srv.ClientPublic); err == nil {
		t.Error("a public key read as a private one")
	}
	if _, err := gitsync.ParseSSHKey(srv.ClientKey); err != nil {
		t.Error(err)
	}
}

// Over SSH: an scp-like URL (go-git reads host:port:path as a port) with no host key pinned
// reports the key it found; a password in an ssh:// URL lets in too; a wrong key, another host key than the pinned one, a server on a
// private address without the exemption, a remote without a key and a download over the cap are
// refused, saying so.
func TestSSHRemote(t *testing.T) {
	ctx := context.Background()
	bare := gittest.Bare(t, "docs.git")
	head := gittest.Seed(t, bare, "main", map[string]string{"README.md": "# Hi\n", "SUMMARY.md": "* [Hi](README.md)\n"}, "Init")
	srv := gittest.SSHServer(t, filepath.Dir(bare))
	scp := "git@" + srv.Addr + ":docs.git"
	r, err := gitsync.SplitURL(scp)
	if err != nil {
		t.Fatal(err)
	}
	r.Ref, r.SSHKey = "main", srv.ClientKey
	co, err := gitsync.Clone(ctx, private, r, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	if co.Head.Hash.String() != head || co.HostKey != srv.HostKey {
		t.Fatalf("clone of %s: head %s, host key %q", scp, co.Head.Hash, co.HostKey)
	}
	if got, err := gitsync.Head(ctx, private, r); err != nil || got != head {
		t.Fatalf("head %q %v", got, err)
	}

	// A password in an ssh:// URL, no key.
	pw, err := gitsync.SplitURL(strings.Replace(srv.URL("docs.git"), "git@", "ada:"+gittest.SSHPassword+"@", 1))
	if err != nil || pw.Password != gittest.SSHPassword || strings.Contains(pw.URL, gittest.SSHPassword) {
		t.Fatalf("split %+v %v", pw, err)
	}
	pw.Ref = "main"
	if got, err := gitsync.Head(ctx, private, pw); err != nil || got != head {
		t.Fatalf("head with a password: %q %v", got, err)
	}
	pw.Password = "wrong"
	if _, err := gitsync.Head(ctx, private, pw); err == nil || !strings.Contains(err.Error(), "the server refused the credentials") {
		t.Fatalf("a wrong password: %v", err)
	}

	other := gittest.SSHServer(t, t.TempDir())
	wrongKey, _, _ := gittest.NewKey(t)
	for _, tc := range []struct {
		name  string
		edit  func(*gitsync.Remote)
		guard gitsync.Guard
		want  string
	}{
		{"WrongKey", func(r *gitsync.Remote) { r.SSHKey = wrongKey }, private, "the server refused the credentials"},
		{"HostKeyMismatch", func(r *gitsync.Remote) { r.HostKey = other.HostKey }, private,
			"host key " + gitsync.Fingerprint(srv.HostKey) + " is not the repository's known host key " + gitsync.Fingerprint(other.HostKey)},
		{"PrivateAddress", func(r *gitsync.Remote) {}, gitsync.Guard{Fetcher: fetch.New(fetch.Options{})}, "is not allowed (loopback)"},
		{"NoKey", func(r *gitsync.Remote) { r.SSHKey = "" }, private, "needs a private key"},
		{"SizeCap", func(r *gitsync.Remote) {}, gitsync.Guard{Fetcher: private.Fetcher, MaxBytes: 100}, "over the size limit"},
		{"NoRepository", func(r *gitsync.Remote) { r.URL = srv.URL("nothing.git") }, private, "not a git repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := r
			tc.edit(&bad)
			_, err := gitsync.Clone(ctx, tc.guard, bad, t.TempDir(), false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("clone: %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "PRIVATE KEY") {
				t.Fatalf("the error shows the key: %v", err)
			}
			if _, err := gitsync.Head(ctx, tc.guard, bad); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("head: %v, want %q", err, tc.want)
			}
		})
	}
}
