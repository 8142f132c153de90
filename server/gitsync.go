package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Git Sync: importGitRepository and exportToGitRepository record the space's git link and queue
// a durable run (store.GitSyncJob), which clones the branch through the guarded fetcher and
// reads or writes the layout `quire import` and `quire export` read and write (internal/gitsync).
// The repository's credentials (a token, a user and password, an SSH private key) travel sealed
// (like integration secrets) and are never answered; an SSH server's host key is pinned by the
// request or recorded on the link's first connection (gitSSH, gitRun).

// gitRequest is what both requests carry.
type gitRequest struct {
	url, ref, commitMessage string
	dir, treeURL, commitURL *string
	force, standalone       *bool
	timestamp               *time.Time
	gitInfo                 *gen.UpdateSpaceGitInfo
	sshKey, sshHostKey      *string
}

func (s *Server) ImportGitRepository(ctx context.Context, req gen.ImportGitRepositoryRequestObject) (gen.ImportGitRepositoryResponseObject, error) {
	b := req.Body
	if err := s.startGit(ctx, req.SpaceId, "import", gitRequest{url: b.Url, ref: b.Ref, dir: b.RepoProjectDirectory,
		treeURL: b.RepoTreeURL, commitURL: b.RepoCommitURL, force: b.Force, standalone: b.Standalone, timestamp: b.Timestamp,
		gitInfo: b.GitInfo, sshKey: b.SshPrivateKey, sshHostKey: b.SshHostKey}); err != nil {
		return nil, err
	}
	return gen.ImportGitRepository204Response{}, nil
}

func (s *Server) ExportToGitRepository(ctx context.Context, req gen.ExportToGitRepositoryRequestObject) (gen.ExportToGitRepositoryResponseObject, error) {
	b := req.Body
	if strings.TrimSpace(b.CommitMessage) == "" {
		return nil, store.FieldErrorf("commitMessage", "must not be blank")
	}
	if err := s.startGit(ctx, req.SpaceId, "export", gitRequest{url: b.Url, ref: b.Ref, commitMessage: b.CommitMessage,
		dir: b.RepoProjectDirectory, treeURL: b.RepoTreeURL, commitURL: b.RepoCommitURL, force: b.Force, standalone: b.Standalone,
		timestamp: b.Timestamp, gitInfo: b.GitInfo, sshKey: b.SshPrivateKey, sshHostKey: b.SshHostKey}); err != nil {
		return nil, err
	}
	return gen.ExportToGitRepository204Response{}, nil
}

// startGit checks a request, records the run and queues it.
func (s *Server) startGit(ctx context.Context, spaceID, direction string, r gitRequest) error {
	sp, _, err := s.Access.FindSpace(ctx, spaceID, store.RoleEdit)
	if err != nil {
		return err
	}
	if direction == "import" && sp.EditMode == "locked" {
		return store.Errorf(store.ECONFLICT, "The space is locked: its content cannot change.")
	}
	remote, err := gitsync.SplitURL(r.url)
	if err != nil {
		return store.FieldErrorf("url", "%s", err.Error())
	}
	if err := s.gitSSH(ctx, sp.ID, &remote, deref(r.sshKey), deref(r.sshHostKey)); err != nil {
		return err
	}
	ref, err := gitBranch(r.ref)
	if err != nil {
		return err
	}
	dir, err := gitsync.CleanDir(deref(r.dir))
	if err != nil {
		return store.FieldErrorf("repoProjectDirectory", "%s", err.Error())
	}
	for field, u := range map[string]*string{"repoTreeURL": r.treeURL, "repoCommitURL": r.commitURL} {
		if u != nil && *u != "" && !isHTTPURL(*u) {
			return store.FieldErrorf(field, "must be an http(s) URL")
		}
	}
	provider := "github"
	if r.gitInfo != nil && r.gitInfo.Provider != nil {
		provider = string(*r.gitInfo.Provider)
	} else if host, _ := gitsync.RepoPath(remote.URL); strings.Contains(strings.ToLower(host), "gitlab") {
		provider = "gitlab"
	}
	treeURL := deref(r.treeURL)
	if treeURL == "" && r.gitInfo != nil && r.gitInfo.Url != nil {
		treeURL = *r.gitInfo.Url
	}
	sealed, err := s.sealGitCredentials(remote)
	if err != nil {
		return err
	}
	hook := make([]byte, 24)
	if _, err := rand.Read(hook); err != nil {
		return err
	}
	sealedHook, err := s.seal([]byte(hex.EncodeToString(hook)))
	if err != nil {
		return err
	}
	link := &store.SpaceGit{SpaceID: sp.ID, URL: remote.URL, Ref: ref, ProjectDirectory: dir, Provider: provider,
		TreeURL: treeURL, CommitURL: deref(r.commitURL), SealedCredentials: sealed, SealedWebhookSecret: sealedHook, SSHHostKey: remote.HostKey}
	job := store.GitJob{Space: sp.ID, Direction: direction, User: access.Caller(ctx).ID, URL: remote.URL, SealedCredentials: sealed,
		SSHHostKey: remote.HostKey, Ref: ref, ProjectDirectory: dir, CommitURL: link.CommitURL, CommitMessage: r.commitMessage,
		Force: r.force != nil && *r.force, Standalone: r.standalone != nil && *r.standalone, Timestamp: r.timestamp}
	if err := s.Store.StartGitOperation(ctx, link, job); err != nil {
		return err
	}
	if s.WakeJobs != nil {
		s.WakeJobs(0)
	}
	return nil
}

// gitSSH checks the SSH fields of a request and sets them on its remote: a private key that
// parses (required for an SSH URL without a password), a host key to pin; without one, the host
// key the space's link recorded for the same server is kept.
func (s *Server) gitSSH(ctx context.Context, spaceID string, remote *gitsync.Remote, key, hostKey string) error {
	if !gitsync.IsSSH(remote.URL) {
		if key != "" {
			return store.FieldErrorf("sshPrivateKey", "is for an SSH url (ssh://… or user@host:path)")
		}
		if hostKey != "" {
			return store.FieldErrorf("sshHostKey", "is for an SSH url (ssh://… or user@host:path)")
		}
		return nil
	}
	switch {
	case key != "":
		if _, err := gitsync.ParseSSHKey(key); err != nil {
			return store.FieldErrorf("sshPrivateKey", "%s", err.Error())
		}
		remote.SSHKey = key
	case remote.Password == "":
		return store.FieldErrorf("sshPrivateKey", "an SSH url needs a private key (or a password in an ssh:// URL)")
	}
	if hostKey != "" {
		line, err := gitsync.ParseHostKey(hostKey)
		if err != nil {
			return store.FieldErrorf("sshHostKey", "%s", err.Error())
		}
		remote.HostKey = line
		return nil
	}
	link, err := s.Store.FindSpaceGit(ctx, spaceID)
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return err
	}
	if link != nil && link.SSHHostKey != "" && gitsync.SSHServer(link.URL) == gitsync.SSHServer(remote.URL) {
		remote.HostKey = link.SSHHostKey
	}
	return nil
}

// sealGitCredentials seals a remote's credentials, "" when it has none: JSON [user, password,
// SSH private key] (links made before SSH sealed the first two).
func (s *Server) sealGitCredentials(r gitsync.Remote) (string, error) {
	if r.Username == "" && r.Password == "" && r.SSHKey == "" {
		return "", nil
	}
	raw, err := json.Marshal([3]string{r.Username, r.Password, r.SSHKey})
	if err != nil {
		return "", err
	}
	return s.seal(raw)
}

// gitBranch checks a ref: a branch, as refs/heads/<name>.
func gitBranch(ref string) (string, error) {
	name := strings.TrimPrefix(strings.TrimSpace(ref), "refs/heads/")
	if strings.HasPrefix(name, "refs/") {
		return "", store.FieldErrorf("ref", "must be a branch (refs/heads/<name>)")
	}
	if name == "" || strings.Contains(name, "..") || strings.ContainsAny(name, " ~^:?*[\\\x7f") || strings.HasPrefix(name, "-") ||
		strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".lock") || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 }) {
		return "", store.FieldErrorf("ref", "%q is not a valid branch name", ref)
	}
	return "refs/heads/" + name, nil
}

func isHTTPURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func (s *Server) GetSpaceGitInfo(ctx context.Context, req gen.GetSpaceGitInfoRequestObject) (gen.GetSpaceGitInfoResponseObject, error) {
	sp, role, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	g, err := s.Store.FindSpaceGit(ctx, sp.ID)
	if err != nil {
		return nil, err
	}
	timeout := int(store.GitOperationTimeout / time.Millisecond)
	out := gen.GetSpaceGitInfo200JSONResponse{InstallationId: "git-" + sp.ID, InstallationProvider: gen.GitSyncProvider(g.Provider),
		InstallationStatus: gen.GitSyncInstallationStatusActive, OperationTimeout: &timeout, UpdatedAt: &g.UpdatedAt}
	name := repoName(g.URL)
	out.RepoName = &name
	u := g.TreeURL
	if u == "" {
		u = g.URL
	}
	out.Url = &u
	hook := s.gitWebhookURL(sp.ID)
	out.WebhookURL = &hook
	if g.SSHHostKey != "" {
		out.SshHostKey = &g.SSHHostKey
	}
	if role == store.RoleAdmin {
		if secret, err := s.unseal(g.SealedWebhookSecret); err == nil && len(secret) > 0 {
			str := string(secret)
			out.WebhookSecret = &str
		}
	}
	if op := g.Operation; op != nil {
		out.Operation = &struct {
			Direction gen.GitSyncOperationDirection `json:"direction"`
			EndedAt   *gen.Timestamp                `json:"endedAt,omitempty"`
			Error     *string                       `json:"error,omitempty"`
			StartedAt gen.Timestamp                 `json:"startedAt"`
			State     gen.GitSyncOperationState     `json:"state"`
		}{Direction: gen.GitSyncOperationDirection(op.Direction), EndedAt: op.EndedAt, StartedAt: op.StartedAt,
			State: gen.GitSyncOperationState(op.State)}
		if op.Error != "" {
			out.Operation.Error = &op.Error
		}
	}
	return out, nil
}

// gitWebhookURL is where a link's webhook posts.
func (s *Server) gitWebhookURL(spaceID string) string { return s.BaseURL + "/hooks/git/" + spaceID }

// repoName is owner/name of a repository's URL.
func repoName(raw string) string {
	_, p := gitsync.RepoPath(raw)
	p = strings.TrimSuffix(strings.Trim(p, "/"), ".git")
	if parts := strings.Split(p, "/"); len(parts) >= 2 {
		return strings.Join(parts[len(parts)-2:], "/")
	}
	return p
}

// runGitSync is the job of a git run: it ends the run, recording its error, whatever happens.
func (s *Server) runGitSync(ctx context.Context, payload string) error {
	var job store.GitJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil || job.Space == "" {
		return fmt.Errorf("git job: bad payload %q", payload)
	}
	commit, synced, err := s.gitRun(ctx, job)
	failure := ""
	if err != nil {
		failure = err.Error()
	}
	if job.Standalone {
		commit, synced = "", "" // the link's last commit is its own
	}
	if ferr := s.Store.FinishGitOperation(ctx, job.Space, failure, commit, synced); ferr != nil && store.ErrorCode(ferr) != store.ENOTFOUND {
		return errors.Join(err, ferr)
	}
	return err
}

// gitRun clones the branch and imports it or exports to it; it answers the commit the space is in
// step with after it, and the space's revision then ("" when it did not sync).
func (s *Server) gitRun(ctx context.Context, job store.GitJob) (string, string, error) {
	sp, err := s.Store.FindSpace(ctx, job.Space)
	if err != nil {
		return "", "", err
	}
	if sp.DeletedAt != nil {
		return "", "", errors.New("the space is deleted")
	}
	var link *store.SpaceGit
	if job.Direction == store.GitPull || job.Direction == store.GitPush {
		// A run of the link: its repository as the link has it now.
		if link, err = s.Store.FindSpaceGit(ctx, sp.ID); err != nil {
			return "", "", err
		}
		job.URL, job.SealedCredentials, job.SSHHostKey, job.Ref, job.ProjectDirectory, job.CommitURL =
			link.URL, link.SealedCredentials, link.SSHHostKey, link.Ref, link.ProjectDirectory, link.CommitURL
	}
	remote, err := s.gitRemote(job)
	if err != nil {
		return "", "", err
	}
	guard := gitsync.Guard{Fetcher: s.Fetcher, MaxBytes: s.gitMaxBytes}
	if job.Direction == store.GitPull && link.LastCommit != "" {
		// The branch's head first: a branch that has not moved is not cloned.
		if head, err := gitsync.Head(ctx, guard, remote); err == nil && head == link.LastCommit {
			return link.LastCommit, "", nil
		}
	}
	tmp, err := os.MkdirTemp("", "quire-git-*")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(tmp)
	export := job.Direction == store.GitExport || job.Direction == store.GitPush
	co, err := gitsync.Clone(ctx, guard, remote, tmp, export)
	if err != nil {
		return "", "", err
	}
	if remote.HostKey == "" && co.HostKey != "" {
		// The first connection to an SSH server: its host key is the link's from now on.
		if err := s.Store.SetGitHostKey(ctx, sp.ID, job.URL, co.HostKey); err != nil && store.ErrorCode(err) != store.ENOTFOUND {
			return "", "", err
		}
	}
	if !export {
		return s.gitImport(ctx, sp, job, link, co)
	}
	if link != nil && co.Head != nil && link.LastCommit != "" && co.Head.Hash.String() != link.LastCommit {
		// The branch moved on since the last sync: its commits come in first (an open change
		// request, as the space moved too), so that the push loses nothing of them.
		if _, _, err := s.gitImport(ctx, sp, store.GitJob{Space: sp.ID, Direction: store.GitPull, Ref: job.Ref,
			ProjectDirectory: job.ProjectDirectory, CommitURL: job.CommitURL, URL: job.URL}, link, co); err != nil {
			return "", "", fmt.Errorf("the branch moved on, and importing it first failed: %w", err)
		}
	}
	return s.gitExport(ctx, sp, job, guard, co, tmp)
}

// gitRemote is the repository of a run, its credentials unsealed.
func (s *Server) gitRemote(job store.GitJob) (gitsync.Remote, error) {
	remote := gitsync.Remote{URL: job.URL, Ref: job.Ref, Dir: job.ProjectDirectory, HostKey: job.SSHHostKey}
	if job.SealedCredentials != "" {
		raw, err := s.unseal(job.SealedCredentials)
		if err != nil {
			return remote, fmt.Errorf("the repository's credentials cannot be read: %w", err)
		}
		var creds [3]string // see sealGitCredentials
		if err := json.Unmarshal(raw, &creds); err != nil {
			return remote, err
		}
		remote.Username, remote.Password, remote.SSHKey = creds[0], creds[1], creds[2]
	}
	return remote, nil
}

// gitImport imports the checkout's head into the space. An import asked for replaces the space's
// content as the caller (standalone: in an open change request); a pull of the link's new commits
// does as the commit's author (a member of the organization with that email, else who set the
// link up), merged when the space has not moved since the last sync, left open when it has.
func (s *Server) gitImport(ctx context.Context, sp *store.Space, job store.GitJob, link *store.SpaceGit, co *gitsync.Checkout) (string, string, error) {
	if co.Head == nil {
		return "", "", fmt.Errorf("branch %s has no commit", job.Ref)
	}
	head := co.Head.Hash.String()
	if !job.Force && !job.Standalone {
		if g, err := s.Store.FindSpaceGit(ctx, sp.ID); err == nil && g.LastCommit == head {
			return head, "", nil // the space is in step with this commit already
		}
	}
	im, err := gitsync.Read(co.Dir, nil)
	if err != nil {
		return "", "", err
	}
	if len(im.Pages) == 0 {
		return "", "", errors.New("the table of contents lists no pages")
	}
	blobs, err := co.Blobs()
	if err != nil {
		return "", "", err
	}
	subject := fmt.Sprintf("Import %s from %s (%s)", strings.TrimPrefix(job.Ref, "refs/heads/"), repoName(job.URL), head[:7])
	opts := gitsync.ApplyOptions{OrgID: sp.OrganizationID, SpaceID: sp.ID, UserID: job.User, Subject: subject, Replace: true,
		Open: job.Standalone, Blobs: blobs}
	if job.Direction == store.GitPull && link != nil {
		opts.Subject = strings.TrimSpace(strings.SplitN(co.Head.Message, "\n", 2)[0])
		if opts.Subject == "" {
			opts.Subject = subject
		}
		opts.UserID = s.commitAuthor(ctx, sp.OrganizationID, co.Head.Author.Email, link.CreatedBy)
		if link.SyncedRevision != "" && sp.RevisionID != link.SyncedRevision {
			// The space moved since the last sync: the commit waits in a change request based on
			// the revision last synced, whose merge keeps what the space changed since.
			opts.Open, opts.Base = true, link.SyncedRevision
		}
	}
	base := opts.Base
	if base == "" {
		base = sp.RevisionID
	}
	if opts.Known, err = s.knownFiles(ctx, base, job.ProjectDirectory); err != nil {
		return "", "", err
	}
	_, applied, err := gitsync.Apply(ctx, s.Store, im, opts, nil)
	if err != nil {
		return "", "", err
	}
	if applied.Unchanged && opts.Open {
		return head, "", nil // the branch brought nothing new of the layout
	}
	pages := map[string]store.GitBlob{}
	for _, p := range im.Pages {
		if id, ok := applied.PageIDs[p.Ref]; ok && p.File != "" {
			if oid, ok := blobs[p.File]; ok {
				pages[id] = store.GitBlob{OID: oid, Path: path.Join(job.ProjectDirectory, p.File)}
			}
		}
	}
	c := gitCommit(co, job)
	if err := s.Store.SetRevisionGit(ctx, applied.Revision, c, pages); err != nil {
		return "", "", err
	}
	for _, n := range im.Notes {
		s.Log.InfoContext(ctx, "git import note", "space", sp.ID, "note", n.Error())
	}
	if opts.Open {
		return head, "", nil // the space is where it was; the commit waits in the change request
	}
	return head, applied.Revision, nil
}

// knownFiles are the files the pages of a revision were read from or written to, relative to
// the project directory: what an import matches its pages by.
func (s *Server) knownFiles(ctx context.Context, revisionID, dir string) (map[string]gitsync.KnownFile, error) {
	_, pages, err := s.Store.FindRevisionGit(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	out := make(map[string]gitsync.KnownFile, len(pages))
	for id, b := range pages {
		file := b.Path
		if dir != "" {
			var ok bool
			if file, ok = strings.CutPrefix(b.Path, dir+"/"); !ok {
				continue
			}
		}
		out[id] = gitsync.KnownFile{File: file, Blob: b.OID}
	}
	return out, nil
}

// commitAuthor is the member a commit is attributed to: the organization's member with the
// author's email, else fallback (who set the link up; "" for the first admin).
func (s *Server) commitAuthor(ctx context.Context, orgID, email, fallback string) string {
	if email == "" {
		return fallback
	}
	list, err := s.Store.FindMembers(ctx, orgID, store.MemberFilter{Search: email}, store.Page{Limit: 20})
	if err != nil {
		return fallback
	}
	for _, m := range list.Items {
		if strings.EqualFold(m.User.Email, email) {
			return m.User.ID
		}
	}
	return fallback
}

func (s *Server) gitExport(ctx context.Context, sp *store.Space, job store.GitJob, guard gitsync.Guard, co *gitsync.Checkout, tmp string) (string, string, error) {
	// The space as it is now (a push of a merge may run after later merges: it pushes them too).
	sp, err := s.Store.FindSpace(ctx, sp.ID)
	if err != nil {
		return "", "", err
	}
	content, err := gitsync.Load(ctx, s.Store, sp.ID)
	if err != nil {
		return "", "", err
	}
	stats, err := co.Replace(content, tmp)
	if err != nil {
		return "", "", err
	}
	u, err := s.Store.FindOrganizationMemberUser(ctx, sp.OrganizationID, job.User)
	if err != nil {
		return "", "", fmt.Errorf("the user who asked for the export: %w", err)
	}
	oid, err := co.Commit(ctx, guard, job.CommitMessage, gitsync.Signature{Name: u.DisplayName, Email: u.Email}, job.Force)
	if err != nil {
		return "", "", err
	}
	if oid == "" { // nothing changed: the branch is the space already
		return co.Head.Hash.String(), sp.RevisionID, nil
	}
	blobs, err := co.Blobs()
	if err != nil {
		return "", "", err
	}
	pages := map[string]store.GitBlob{}
	for id, file := range stats.PageFiles {
		if b, ok := blobs[file]; ok {
			pages[id] = store.GitBlob{OID: b, Path: path.Join(job.ProjectDirectory, file)}
		}
	}
	if err := s.Store.SetRevisionGit(ctx, sp.RevisionID, gitCommit(co, job), pages); err != nil {
		return "", "", err
	}
	return oid, sp.RevisionID, nil
}

// gitCommit is the checkout's head as a revision's commit.
func gitCommit(co *gitsync.Checkout, job store.GitJob) store.GitCommit {
	oid := co.Head.Hash.String()
	c := store.GitCommit{OID: oid, Message: co.Head.Message, Ref: job.Ref, CreatedByGitBook: gitsync.PushedByQuire(co.Head)}
	if job.CommitURL != "" {
		c.URL = job.CommitURL + oid
	}
	return c
}

// revisionGit sets the git members of a revision and its pages, from what the store recorded.
func (s *Server) revisionGit(ctx context.Context, revisionID string, out *gen.Revision) error {
	c, pages, err := s.Store.FindRevisionGit(ctx, revisionID)
	if err != nil || c == nil {
		return err
	}
	out.Git = toAPIGitCommit(c)
	setPageGit(out.Pages, pages)
	return nil
}

func toAPIGitCommit(c *store.GitCommit) *gen.GitSyncCommit {
	out := &gen.GitSyncCommit{Oid: c.OID, Message: c.Message, CreatedByGitBook: c.CreatedByGitBook}
	if c.URL != "" {
		out.Url = &c.URL
	}
	if c.Ref != "" {
		out.Ref = &c.Ref
	}
	return out
}

// pagesGit sets the git members of pages of a revision.
func (s *Server) pagesGit(ctx context.Context, revisionID string, pages []gen.RevisionPage) error {
	_, blobs, err := s.Store.FindRevisionGit(ctx, revisionID)
	if err == nil {
		setPageGit(pages, blobs)
	}
	return err
}

// setPageGit sets the git member of each page (and subpage) that has a file in the commit.
func setPageGit(pages []gen.RevisionPage, blobs map[string]store.GitBlob) {
	for i := range pages {
		if b, ok := blobs[pages[i].Id]; ok {
			pages[i].Git = &gen.GitBlob{Oid: b.OID, Path: b.Path}
		}
		setPageGit(pages[i].Pages, blobs)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
