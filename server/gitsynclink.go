package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/store"
)

// A space's git link (recorded by its first import or export that is not standalone) keeps the
// space and the branch in step: every merge of a change request pushes one commit (its author
// who merged, its message the change request's subject), and the branch's new commits, found by
// the link's webhook or by the poller, come in as a change request (see gitImport).

// gitWebhookRoute receives a link's webhook: POST with GitHub's X-Hub-Signature-256 (an HMAC-SHA256
// of the body under the link's secret) or GitLab's X-Gitlab-Token (the secret itself).
const gitWebhookRoute = "/hooks/git/:spaceId"

// GitSyncPollJob is the one recurring job that looks for new commits on every link.
const GitSyncPollJob = "git_sync_poll"

// pushMerge queues the push of a merge when the space has a git link.
func (s *Server) pushMerge(ctx context.Context, sp *store.Space, cr *store.ChangeRequest, userID string) error {
	message := strings.TrimSpace(cr.Subject)
	if message == "" {
		message = fmt.Sprintf("Merge change request #%d", cr.Number)
	}
	return s.pushContent(ctx, sp.ID, userID, message)
}

// pushContent queues the push of a change to a space's content when the space has a git link:
// every write to a space's content other than a pull of its branch pushes (merges, templates
// applied to the space, import runs).
func (s *Server) pushContent(ctx context.Context, spaceID, userID, message string) error {
	queued, err := store.QueuePush(ctx, s.Store, spaceID, userID, message)
	if queued && s.WakeJobs != nil {
		s.WakeJobs(0)
	}
	return err
}

// serveGitWebhook queues a pull of the link when the request is signed with its secret.
func (s *Server) serveGitWebhook(c echo.Context) error {
	ctx := c.Request().Context()
	spaceID := c.Param("spaceId")
	link, err := s.Store.FindSpaceGit(ctx, spaceID)
	if err != nil {
		return c.JSON(http.StatusNotFound, map[string]string{"error": "no git link"})
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, 1<<20))
	if err != nil {
		return err
	}
	secret, err := s.unseal(link.SealedWebhookSecret)
	if err != nil || len(secret) == 0 || !signedWith(c.Request().Header, body, secret) {
		return c.JSON(http.StatusUnauthorized, map[string]string{"error": "the request is not signed with the link's secret"})
	}
	if err := s.Store.QueueGitRun(ctx, store.GitJob{Space: spaceID, Direction: store.GitPull}); err != nil {
		return err
	}
	if s.WakeJobs != nil {
		s.WakeJobs(0)
	}
	return c.NoContent(http.StatusAccepted)
}

// signedWith checks a webhook's signature: GitHub's X-Hub-Signature-256 or GitLab's X-Gitlab-Token.
func signedWith(h http.Header, body, secret []byte) bool {
	if sig, ok := strings.CutPrefix(h.Get("X-Hub-Signature-256"), "sha256="); ok {
		got, err := hex.DecodeString(sig)
		if err != nil {
			return false
		}
		m := hmac.New(sha256.New, secret)
		m.Write(body)
		return hmac.Equal(got, m.Sum(nil))
	}
	if tok := h.Get("X-Gitlab-Token"); tok != "" {
		return subtle.ConstantTimeCompare([]byte(tok), secret) == 1
	}
	return false
}

// pollGitLinks queues a pull of every link whose run is not running and whose branch moved: its
// head is read first (one listing of the remote's refs), and a branch still at the commit last
// synced is left alone, not cloned. A head that cannot be read queues the pull all the same, so
// that its failure shows on the link.
func (s *Server) pollGitLinks(ctx context.Context, _ string) error {
	links, err := s.Store.FindGitLinks(ctx)
	if err != nil {
		return err
	}
	for _, l := range links {
		if op := l.Operation; op != nil && op.State == store.GitRunning && s.Store.Now().Sub(op.StartedAt) <= store.GitOperationTimeout {
			continue
		}
		if l.LastCommit != "" {
			remote, err := s.gitRemote(store.GitJob{URL: l.URL, SealedCredentials: l.SealedCredentials, SSHHostKey: l.SSHHostKey,
				Ref: l.Ref, ProjectDirectory: l.ProjectDirectory})
			if err == nil {
				head, err := gitsync.Head(ctx, gitsync.Guard{Fetcher: s.Fetcher, MaxBytes: s.gitMaxBytes}, remote)
				if err == nil && head == l.LastCommit {
					continue
				}
			}
		}
		if err := s.Store.QueueGitRun(ctx, store.GitJob{Space: l.SpaceID, Direction: store.GitPull}); err != nil &&
			store.ErrorCode(err) != store.ENOTFOUND {
			return err
		}
	}
	return nil
}

// gitJobHandlers are the git runs and, with an interval, the poller.
func (s *Server) gitJobHandlers(poll time.Duration) map[string]jobs.Handler {
	out := map[string]jobs.Handler{store.GitSyncJob: {Run: s.runGitSync, MaxAttempts: 1}}
	if poll > 0 {
		out[GitSyncPollJob] = jobs.Handler{Run: s.pollGitLinks, Every: poll}
	}
	return out
}
