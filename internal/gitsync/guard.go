package gitsync

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/quire-docs/quire/internal/fetch"
)

// What a git operation works on and under: its remote, its guard and the state the guard keeps
// while it runs (what the HTTP and SSH transports count and report to).

// DefaultMaxRepoBytes caps what a clone may download and hold on disk.
const DefaultMaxRepoBytes = 200 << 20

// Remote is a git repository quire reads or writes: a branch of it, and a folder in it.
type Remote struct {
	URL                string // without credentials (an SSH one keeps its user name)
	Username, Password string // HTTP basic credentials (a token alone goes in Password); SSH's password
	SSHKey             string // SSH: the private key, OpenSSH or PEM
	// HostKey is the SSH server's host key (authorized_keys form) the connection must find; ""
	// takes the key the server shows, and reports it as the checkout's HostKey.
	HostKey string
	Ref     string // a branch: "main" or "refs/heads/main"
	Dir     string // the project directory in the repository, "" for its root
}

// Guard is what a git operation may reach and hold.
type Guard struct {
	Fetcher  *fetch.Fetcher // its client carries every HTTP request; it dials every SSH connection
	MaxBytes int64          // 0: DefaultMaxRepoBytes
}

func (g Guard) maxBytes() int64 {
	if g.MaxBytes <= 0 {
		return DefaultMaxRepoBytes
	}
	return g.MaxBytes
}

// GitError is a git operation that failed for a reason its caller can act on; the message says
// which.
type GitError struct{ Msg string }

func (e *GitError) Error() string { return e.Msg }

func gitErrorf(format string, args ...any) error { return &GitError{Msg: fmt.Sprintf(format, args...)} }

// guardKey carries an operation's guard to the HTTP transport go-git was given.
type guardKey struct{}

type guardState struct {
	id      string
	ctx     context.Context // the operation's: its deadline closes SSH connections
	fetcher *fetch.Fetcher
	budget  int64
	mu      sync.Mutex
	read    int64
	hostKey string // the SSH host key seen
}

// count adds n bytes read, and says whether the budget is spent.
func (g *guardState) count(n int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.read += int64(n)
	return g.read > g.budget
}

var guardSeq atomic.Int64

var errTooLarge = errors.New("the repository is over the size limit")
