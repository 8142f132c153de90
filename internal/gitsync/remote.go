package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/quire-docs/quire/internal/fetch"
)

// Git is spoken with go-git: smart HTTP(S) in process, through the guarded fetcher's client (its
// address rules on every dial and redirect); SSH (ssh://user@host[:port]/path and scp-like
// user@host:owner/repo.git) through go-git's ssh transport on a connection the guarded fetcher
// dials (ssh.go), authenticated by a private key or a password and pinned to the server's host
// key; file:// remotes, which go-git serves by running git's own git-upload-pack and
// git-receive-pack, only where private addresses are allowed (they read the server's disk).
// git:// is refused: it has no authentication, and its dialer would pass by the address rules.

// SplitURL takes the credentials out of a remote's URL ("https://user:token@host/repo.git"), and
// checks what it can before any dial: the scheme, and a host.
func SplitURL(raw string) (Remote, error) {
	if trimmed := strings.TrimSpace(raw); IsSSH(trimmed) {
		return splitSSH(trimmed)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" {
		return Remote{}, gitErrorf("%q is not a repository URL", raw)
	}
	var r Remote
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return Remote{}, gitErrorf("%q has no host", raw)
		}
	case "file":
	case "git":
		return Remote{}, gitErrorf("git:// remotes are not supported: use an https URL with a token, or ssh with a key")
	default:
		return Remote{}, gitErrorf("%q: only http, https, ssh (and file where private addresses are allowed) repositories", raw)
	}
	if u.User != nil {
		r.Username = u.User.Username()
		r.Password, _ = u.User.Password()
		if r.Password == "" { // a token alone, https://TOKEN@host/…
			r.Username, r.Password = "x-access-token", r.Username
		}
		u.User = nil
	}
	r.URL = u.String()
	return r, nil
}

// CleanDir checks a project directory: relative, inside the repository.
func CleanDir(dir string) (string, error) {
	d := strings.Trim(strings.ReplaceAll(dir, `\`, "/"), "/")
	if d == "" {
		return "", nil
	}
	c := path.Clean(d)
	if c == ".." || strings.HasPrefix(c, "../") || c != d && strings.Contains(d, "..") {
		return "", gitErrorf("project directory %q leads out of the repository", dir)
	}
	if c == "." {
		return "", nil
	}
	return c, nil
}

// Branch is the full name of a remote's branch.
func (r Remote) Branch() plumbing.ReferenceName {
	if strings.HasPrefix(r.Ref, "refs/") {
		return plumbing.ReferenceName(r.Ref)
	}
	return plumbing.NewBranchReferenceName(r.Ref)
}

// RepoPath is a remote URL's host and repository path ("", raw when it is none).
func RepoPath(raw string) (host, repo string) {
	ep, err := transport.NewEndpoint(raw)
	if err != nil {
		return "", raw
	}
	return ep.Host, ep.Path
}

// transport is what go-git is given for an operation on r: its authentication, and for SSH the
// guard's dialer (named as a proxy).
func (g *guardState) transport(r Remote) (transport.AuthMethod, transport.ProxyOptions, error) {
	if IsSSH(r.URL) {
		auth, err := g.sshAuthFor(r)
		return auth, transport.ProxyOptions{URL: guardProxyScheme + "://" + g.id}, err
	}
	if r.Username == "" && r.Password == "" {
		return nil, transport.ProxyOptions{}, nil
	}
	return &githttp.BasicAuth{Username: r.Username, Password: r.Password}, transport.ProxyOptions{}, nil
}

var installOnce sync.Once

// install makes go-git's http and https transports send through guardedTransport, which takes
// the fetcher of the operation from the request's context (go-git passes it down) and refuses a
// request that has none.
func install() {
	installOnce.Do(func() {
		c := githttp.NewClient(&http.Client{Transport: guardedTransport{}, CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > fetch.DefaultMaxRedirects {
				return errors.New("too many redirects")
			}
			if s := strings.ToLower(req.URL.Scheme); s != "http" && s != "https" {
				return fmt.Errorf("redirected to a %s URL", s)
			}
			return nil
		}})
		client.InstallProtocol("http", c)
		client.InstallProtocol("https", c)
		installSSH()
	})
}

type guardedTransport struct{}

func (guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	g, _ := req.Context().Value(guardKey{}).(*guardState)
	if g == nil || g.fetcher == nil {
		return nil, errors.New("gitsync: a git request without its guard")
	}
	res, err := g.fetcher.Client().Transport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	res.Body = &countedBody{ReadCloser: res.Body, g: g}
	return res, nil
}

// countedBody stops a download past the operation's byte budget.
type countedBody struct {
	io.ReadCloser
	g *guardState
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.g.count(n) {
		return n, errTooLarge
	}
	return n, err
}

// begin starts an operation on r under the guard, within timeout: done ends it.
func (g Guard) begin(ctx context.Context, r Remote, timeout time.Duration) (context.Context, *guardState, func(), error) {
	install()
	if !IsSSH(r.URL) {
		u, err := url.Parse(r.URL)
		if err != nil {
			return nil, nil, nil, gitErrorf("%q is not a repository URL", r.URL)
		}
		if strings.EqualFold(u.Scheme, "file") && (g.Fetcher == nil || !g.Fetcher.Options().AllowPrivate) {
			return nil, nil, nil, gitErrorf("file:// repositories are refused: the server's own disk is a private address (--allow-private-urls allows it)")
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	st := &guardState{id: strconv.FormatInt(guardSeq.Add(1), 10), ctx: ctx, fetcher: g.Fetcher, budget: g.maxBytes()}
	guards.Store(st.id, st)
	return context.WithValue(ctx, guardKey{}, st), st, func() { guards.Delete(st.id); cancel() }, nil
}

// Checkout is a clone of a remote's branch in a folder of the server's disk.
type Checkout struct {
	Root   string // the clone
	Dir    string // the project directory in it: what the layout is read from or written into
	Remote Remote
	// HostKey is the host key an SSH remote showed (authorized_keys form), "" for others.
	HostKey string
	repo    *git.Repository
	// Head is the branch's commit, nil when the branch does not exist yet (CloneForPush of a new
	// branch or an empty repository).
	Head *object.Commit
}

// Clone clones a remote's branch into a new folder under tmp (the caller removes it). A branch
// that does not exist is an error unless create: then the checkout starts it.
func Clone(ctx context.Context, g Guard, r Remote, tmp string, create bool) (*Checkout, error) {
	ctx, st, done, err := g.begin(ctx, r, 5*time.Minute)
	if err != nil {
		return nil, err
	}
	defer done()
	auth, via, err := st.transport(r)
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp(tmp, "clone-*")
	if err != nil {
		return nil, err
	}
	co := &Checkout{Root: root, Remote: r}
	co.repo, err = git.PlainCloneContext(ctx, root, false, &git.CloneOptions{URL: r.URL, Auth: auth, ProxyOptions: via,
		ReferenceName: r.Branch(), SingleBranch: true, Tags: git.NoTags})
	co.HostKey = st.seenHostKey()
	switch {
	case err == nil:
	case create && (errors.Is(err, transport.ErrEmptyRemoteRepository) || isMissingRef(err)):
		if co.repo, err = startBranch(root, r); err != nil {
			return nil, err
		}
	default:
		return nil, explainGit(r, err)
	}
	if err := checkSize(root, g.maxBytes()); err != nil {
		return nil, err
	}
	if co.Dir, err = projectDir(root, r.Dir); err != nil {
		return nil, err
	}
	if ref, err := co.repo.Head(); err == nil {
		if co.Head, err = co.repo.CommitObject(ref.Hash()); err != nil {
			return nil, err
		}
	}
	return co, nil
}

func isMissingRef(err error) bool {
	var nm git.NoMatchingRefSpecError
	return errors.As(err, &nm) || errors.Is(err, plumbing.ErrReferenceNotFound) ||
		strings.Contains(err.Error(), "couldn't find remote ref")
}

// startBranch makes an empty repository whose HEAD is the branch to create, with the remote as
// origin.
func startBranch(root string, r Remote) (*git.Repository, error) {
	if err := os.RemoveAll(root); err != nil {
		return nil, err
	}
	repo, err := git.PlainInit(root, false)
	if err != nil {
		return nil, err
	}
	if _, err := repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{r.URL}}); err != nil {
		return nil, err
	}
	if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, r.Branch())); err != nil {
		return nil, err
	}
	return repo, nil
}

// projectDir is the project directory of a clone, refusing one that is not a folder inside it.
func projectDir(root, dir string) (string, error) {
	d, err := CleanDir(dir)
	if err != nil {
		return "", err
	}
	full := filepath.Join(root, filepath.FromSlash(d))
	real, err := filepath.EvalSymlinks(full)
	if errors.Is(err, fs.ErrNotExist) {
		return full, nil // made on export; an import finds no SUMMARY.md there
	} else if err != nil {
		return "", err
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	if rel, err := filepath.Rel(realRoot, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", gitErrorf("project directory %q leads out of the repository", dir)
	}
	return full, nil
}

// checkSize refuses a clone over the cap (a file:// remote is not counted as it downloads).
func checkSize(root string, max int64) error {
	var total int64
	err := filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if total += fi.Size(); total > max {
				return errTooLarge
			}
		}
		return nil
	})
	if errors.Is(err, errTooLarge) {
		return gitErrorf("the repository is over the size limit (%s)", sizeText(max))
	}
	return err
}

func sizeText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// explainGit turns go-git's and the transport's errors into what the caller can act on.
func explainGit(r Remote, err error) error {
	if errors.Is(err, errTooLarge) || strings.Contains(err.Error(), errTooLarge.Error()) { // SSH's handshake keeps only the text
		return gitErrorf("%s: the repository is over the size limit", r.URL)
	}
	if e := explainSSH(r, err); e != nil {
		return e
	}
	var fe *fetch.Error
	switch {
	case errors.As(err, &fe) && IsSSH(r.URL):
		return gitErrorf("%s: %s", r.URL, fe.Reason)
	case errors.As(err, &fe):
		return gitErrorf("%s", fe.Error())
	case errors.Is(err, transport.ErrAuthenticationRequired):
		return gitErrorf("%s: the repository asks for credentials (none or wrong ones were given)", r.URL)
	case errors.Is(err, transport.ErrAuthorizationFailed):
		return gitErrorf("%s: the credentials were refused", r.URL)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return gitErrorf("%s is not a git repository (or is not found)", r.URL)
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return gitErrorf("%s is an empty repository: branch %s does not exist", r.URL, r.Branch().Short())
	case isMissingRef(err):
		return gitErrorf("%s has no branch %s", r.URL, r.Branch().Short())
	case errors.Is(err, git.ErrNonFastForwardUpdate) || strings.Contains(err.Error(), "non-fast-forward"):
		return gitErrorf("%s: branch %s moved on: the push is not a fast-forward", r.URL, r.Branch().Short())
	}
	return gitErrorf("%s: %v", r.URL, err)
}

// Blobs lists the files of the checkout's head commit, path (relative to the project directory) →
// blob id.
func (c *Checkout) Blobs() (map[string]string, error) {
	out := map[string]string{}
	if c.Head == nil {
		return out, nil
	}
	tree, err := c.Head.Tree()
	if err != nil {
		return nil, err
	}
	rel, _ := filepath.Rel(c.Root, c.Dir)
	prefix := filepath.ToSlash(rel) + "/"
	if rel == "." {
		prefix = ""
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		if p, ok := strings.CutPrefix(f.Name, prefix); ok {
			out[p] = f.Hash.String()
		}
		return nil
	})
	return out, err
}

// Signature is who a commit is by.
type Signature struct{ Name, Email string }

// Commit records everything under the checkout as the branch's next commit, and pushes it. It
// answers the commit's id, or "" when nothing changed (nothing is pushed then).
func (c *Checkout) Commit(ctx context.Context, g Guard, message string, author Signature, force bool) (string, error) {
	wt, err := c.repo.Worktree()
	if err != nil {
		return "", err
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return "", err
	}
	status, err := wt.Status()
	if err != nil {
		return "", err
	}
	if status.IsClean() && c.Head != nil {
		return "", nil
	}
	when := time.Now()
	sig := &object.Signature{Name: author.Name, Email: author.Email, When: when}
	hash, err := wt.Commit(message, &git.CommitOptions{Author: sig, Committer: &object.Signature{Name: committerName, Email: committerEmail, When: when},
		AllowEmptyCommits: c.Head == nil})
	if err != nil {
		return "", err
	}
	pctx, st, done, err := g.begin(ctx, c.Remote, 5*time.Minute)
	if err != nil {
		return "", err
	}
	defer done()
	auth, via, err := st.transport(c.Remote)
	if err != nil {
		return "", err
	}
	spec := config.RefSpec(fmt.Sprintf("%s:%s", c.Remote.Branch(), c.Remote.Branch()))
	if force {
		spec = "+" + spec
	}
	err = c.repo.PushContext(pctx, &git.PushOptions{RemoteName: "origin", Auth: auth, ProxyOptions: via, RefSpecs: []config.RefSpec{spec}, Force: force})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return "", explainGit(c.Remote, err)
	}
	if c.Head, err = c.repo.CommitObject(hash); err != nil {
		return "", err
	}
	return hash.String(), nil
}

// The committer of the commits quire makes (their author is who asked).
const (
	committerName  = "quire"
	committerEmail = "quire@localhost"
)

// PushedByQuire says whether quire made a commit.
func PushedByQuire(c *object.Commit) bool {
	return c != nil && c.Committer.Name == committerName && c.Committer.Email == committerEmail
}

// IsNonFastForward says whether a push failed because the branch moved on.
func IsNonFastForward(err error) bool {
	var ge *GitError
	return errors.As(err, &ge) && strings.Contains(ge.Msg, "not a fast-forward")
}
