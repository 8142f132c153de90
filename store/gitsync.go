package store

import (
	"context"
	"time"
)

// GitSyncJob is the kind of the job that runs a git import or export; its payload is a GitJob
// as JSON.
const GitSyncJob = "git_sync"

// GitOperationTimeout bounds a git run: a run "running" for longer is over (timed out), and
// another may start.
const GitOperationTimeout = 5 * time.Minute

// SpaceGit is a space's git repository and its last operation.
type SpaceGit struct {
	SpaceID          string
	URL              string // without credentials
	Ref              string // refs/heads/<branch>
	ProjectDirectory string
	Provider         string // github | gitlab
	TreeURL          string
	CommitURL        string
	// SealedCredentials are the repository's credentials, encrypted by the server; "" for none.
	SealedCredentials string
	// SSHHostKey is the host key an SSH repository's server must show (authorized_keys form):
	// pinned by a request, or recorded by SetGitHostKey on the first connection; "" for none yet.
	SSHHostKey string
	// LastCommit is the commit the space was last in step with (imported or pushed), and
	// SyncedRevision the space's revision then.
	LastCommit, SyncedRevision string
	// SealedWebhookSecret signs the webhook's requests (sealed by the server); kept from the
	// link's first run on.
	SealedWebhookSecret string
	// CreatedBy set the link up (its first run's caller).
	CreatedBy string
	Operation *GitOperation
	// Timestamp is the latest timestamp a request gave (its event's time): an older one is refused.
	Timestamp *time.Time
	UpdatedAt time.Time
}

// Git operation states and directions.
const (
	GitRunning = "running"
	GitSuccess = "success"
	GitFailure = "failure"
	GitTimeout = "timeout"
)

// GitOperation is a git run.
type GitOperation struct {
	State     string
	Direction string // import | export
	StartedAt time.Time
	EndedAt   *time.Time
	Error     string
}

// Directions of a GitJob: an import or export asked for, a pull of the branch's new commits (a
// webhook or the poller found them) and a push of a merge.
const (
	GitImport = "import"
	GitExport = "export"
	GitPull   = "pull"
	GitPush   = "push"
)

// GitJob is what a git run does; it carries its own remote (credentials sealed), so that a
// standalone run leaves the space's link alone.
type GitJob struct {
	Space             string     `json:"space"`
	Direction         string     `json:"direction"`
	User              string     `json:"user"`
	URL               string     `json:"url"`
	SealedCredentials string     `json:"credentials,omitempty"`
	SSHHostKey        string     `json:"sshHostKey,omitempty"`
	Ref               string     `json:"ref"`
	ProjectDirectory  string     `json:"dir,omitempty"`
	CommitURL         string     `json:"commitURL,omitempty"`
	CommitMessage     string     `json:"message,omitempty"`
	Force             bool       `json:"force,omitempty"`
	Standalone        bool       `json:"standalone,omitempty"`
	Timestamp         *time.Time `json:"timestamp,omitempty"`
}

// QueuePush queues the push of a change to a space's content (by userID, as one commit with
// message) when the space has a git link; it answers whether it did (a space without a link has
// nothing to push to).
func QueuePush(ctx context.Context, st GitSync, spaceID, userID, message string) (bool, error) {
	// Most spaces have no link: a read says so without a write transaction (which on PostgreSQL
	// cost every merge four round trips). The write checks again.
	if _, err := st.FindSpaceGit(ctx, spaceID); ErrorCode(err) == ENOTFOUND {
		return false, nil
	}
	err := st.QueueGitRun(ctx, GitJob{Space: spaceID, Direction: GitPush, User: userID, CommitMessage: message})
	if ErrorCode(err) == ENOTFOUND {
		return false, nil
	}
	return err == nil, err
}

// GitCommit is the git commit a revision came from or went to.
type GitCommit struct {
	OID              string
	Message          string
	CreatedByGitBook bool // pushed by quire
	URL              string
	Ref              string
}

// GitBlob is the file a page was read from or written to, in a commit.
type GitBlob struct {
	OID  string
	Path string
}

// GitSync keeps spaces' git repositories, their runs and the commits of revisions.
type GitSync interface {
	// FindSpaceGit returns a space's git state; ENOTFOUND when it has none.
	FindSpaceGit(ctx context.Context, spaceID string) (*SpaceGit, error)
	// StartGitOperation records a run as running and queues its job, in one transaction. The
	// space's link (URL, ref, folder, provider, URLs, credentials, host key) becomes g's unless job is
	// standalone (a space without a link gets one all the same, so that the run is answered).
	// ECONFLICT when a run of the space is running (and not past GitOperationTimeout), or when
	// job.Timestamp is older than the latest one given.
	StartGitOperation(ctx context.Context, g *SpaceGit, job GitJob) error
	// QueueGitRun records a run of the space's link as running and queues its job, whatever runs
	// (runs of a link follow one another: merges, webhooks, polls); ENOTFOUND without a link.
	QueueGitRun(ctx context.Context, job GitJob) error
	// FindGitLinks returns every space's git link (the poller's list).
	FindGitLinks(ctx context.Context) ([]*SpaceGit, error)
	// SetGitHostKey records the SSH host key first seen for the space's link, when the link is
	// still at url and has none (trust on first use); a no-op otherwise, ENOTFOUND without a link.
	SetGitHostKey(ctx context.Context, spaceID, url, hostKey string) error
	// FinishGitOperation ends the space's run: failure "" is a success; lastCommit, when set, is
	// the commit the space is now in step with, at its revision syncedRevision.
	FinishGitOperation(ctx context.Context, spaceID, failure, lastCommit, syncedRevision string) error
	// SetRevisionGit records the commit a revision came from or went to, and its pages' files
	// (page id → blob).
	SetRevisionGit(ctx context.Context, revisionID string, c GitCommit, pages map[string]GitBlob) error
	// FindRevisionGit returns a revision's commit (nil when it has none) and its pages' files.
	FindRevisionGit(ctx context.Context, revisionID string) (*GitCommit, map[string]GitBlob, error)
	// FindRevisionCommit returns a revision's commit alone (nil when it has none): what a cached
	// page list is checked against. The answer may be shared: never change it.
	FindRevisionCommit(ctx context.Context, revisionID string) (*GitCommit, error)
}
