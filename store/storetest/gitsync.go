package storetest

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// gitSync: a space's git link is recorded with its first run, one run at a time (a run past
// GitOperationTimeout reads as timed out and another may start), each run queues its job, a
// standalone run keeps the link, an older request timestamp is refused, an SSH link's host key is
// recorded once (SetGitHostKey) or pinned; a revision's commit and
// its pages' files read back as written.
func gitSync(t *testing.T, open Opener) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	w := newWorld(t, open, func() time.Time { return now })
	ctx := context.Background()
	sp := w.space("Docs")
	if _, err := w.st.FindSpaceGit(ctx, sp.ID); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("no link yet: %v", err)
	}
	stamp := now.Add(-time.Minute)
	link := &store.SpaceGit{SpaceID: sp.ID, URL: "https://git.example.com/docs.git", Ref: "refs/heads/main", ProjectDirectory: "docs",
		Provider: "gitlab", TreeURL: "https://git.example.com/tree", CommitURL: "https://git.example.com/commit/", SealedCredentials: "sealed",
		SealedWebhookSecret: "hook"}
	if err := w.st.QueueGitRun(ctx, store.GitJob{Space: sp.ID, Direction: store.GitPull}); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("a run of no link: %v", err)
	}
	job := store.GitJob{Space: sp.ID, Direction: "import", User: w.user, URL: link.URL, Ref: link.Ref, Timestamp: &stamp}
	if err := w.st.StartGitOperation(ctx, link, job); err != nil {
		t.Fatal(err)
	}
	g, err := w.st.FindSpaceGit(ctx, sp.ID)
	if err != nil || g.URL != link.URL || g.ProjectDirectory != "docs" || g.Provider != "gitlab" || g.SealedCredentials != "sealed" ||
		g.CommitURL != link.CommitURL || g.TreeURL != link.TreeURL || g.Operation == nil || g.Operation.State != store.GitRunning ||
		g.Operation.Direction != "import" || !g.Operation.StartedAt.Equal(now) || g.Timestamp == nil || !g.Timestamp.Equal(stamp) ||
		g.SealedWebhookSecret != "hook" || g.CreatedBy != w.user {
		t.Fatalf("started: %+v %+v %v", g, g.Operation, err)
	}
	due, err := w.st.DueJobs(ctx, 10)
	if err != nil || len(due) != 1 || due[0].Kind != store.GitSyncJob {
		t.Fatalf("jobs %+v %v", due, err)
	}
	var back store.GitJob
	if err := json.Unmarshal([]byte(due[0].Payload), &back); err != nil || back.Space != sp.ID || back.Ref != job.Ref {
		t.Fatalf("payload %s %v", due[0].Payload, err)
	}
	if err := w.st.StartGitOperation(ctx, link, job); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("a second run while one runs: %v", err)
	}
	if err := w.st.FinishGitOperation(ctx, sp.ID, "", "abc123", sp.RevisionID); err != nil {
		t.Fatal(err)
	}
	g, _ = w.st.FindSpaceGit(ctx, sp.ID)
	if g.Operation.State != store.GitSuccess || g.Operation.EndedAt == nil || g.LastCommit != "abc123" || g.SyncedRevision != sp.RevisionID {
		t.Fatalf("finished: %+v", g.Operation)
	}
	older := stamp.Add(-time.Second)
	job.Timestamp = &older
	if err := w.st.StartGitOperation(ctx, link, job); store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("an older request: %v", err)
	}
	// A standalone export leaves the link as it was; its failure is recorded, the last commit kept.
	other := *link
	other.URL = "https://elsewhere.example.com/x.git"
	if err := w.st.StartGitOperation(ctx, &other, store.GitJob{Space: sp.ID, Direction: "export", Standalone: true}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.FinishGitOperation(ctx, sp.ID, "the branch moved on", "", ""); err != nil {
		t.Fatal(err)
	}
	g, _ = w.st.FindSpaceGit(ctx, sp.ID)
	if g.URL != link.URL || g.Operation.State != store.GitFailure || g.Operation.Error != "the branch moved on" || g.LastCommit != "abc123" ||
		g.SyncedRevision != sp.RevisionID ||
		g.Operation.Direction != "export" {
		t.Fatalf("standalone: %+v %+v", g, g.Operation)
	}
	// A run past its time reads as timed out, and another may start.
	if err := w.st.StartGitOperation(ctx, link, store.GitJob{Space: sp.ID, Direction: "import"}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(store.GitOperationTimeout + time.Second)
	if g, _ = w.st.FindSpaceGit(ctx, sp.ID); g.Operation.State != store.GitTimeout {
		t.Fatalf("stale run: %+v", g.Operation)
	}
	if err := w.st.StartGitOperation(ctx, link, store.GitJob{Space: sp.ID, Direction: "import"}); err != nil {
		t.Fatalf("after a timeout: %v", err)
	}

	// Runs of the link follow one another: a pull queues while an import runs, and reads as one.
	if err := w.st.QueueGitRun(ctx, store.GitJob{Space: sp.ID, Direction: store.GitPush}); err != nil {
		t.Fatal(err)
	}
	if g, _ = w.st.FindSpaceGit(ctx, sp.ID); g.Operation.Direction != "export" || g.Operation.State != store.GitRunning {
		t.Fatalf("a queued push: %+v", g.Operation)
	}
	links, err := w.st.FindGitLinks(ctx)
	if err != nil || len(links) != 1 || links[0].SpaceID != sp.ID {
		t.Fatalf("links %+v %v", links, err)
	}

	// An SSH link's host key: recorded once while the link is at the URL seen, kept after; a
	// request's key (pinned) replaces it, a standalone one does not.
	const seen, pinned = "ssh-ed25519 AAAAseen", "ssh-ed25519 AAAApinned"
	if err := w.st.SetGitHostKey(ctx, sp.ID, "ssh://git@elsewhere.example.com/x.git", seen); err != nil {
		t.Fatal(err)
	}
	if g, _ = w.st.FindSpaceGit(ctx, sp.ID); g.SSHHostKey != "" {
		t.Fatalf("a host key recorded for another URL: %q", g.SSHHostKey)
	}
	if err := w.st.SetGitHostKey(ctx, sp.ID, link.URL, seen); err != nil {
		t.Fatal(err)
	}
	if err := w.st.SetGitHostKey(ctx, sp.ID, link.URL, "ssh-ed25519 AAAAlater"); err != nil {
		t.Fatal(err)
	}
	if g, _ = w.st.FindSpaceGit(ctx, sp.ID); g.SSHHostKey != seen {
		t.Fatalf("host key %q, want the first seen", g.SSHHostKey)
	}
	if err := w.st.SetGitHostKey(ctx, "nope", link.URL, seen); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("no link: %v", err)
	}
	if err := w.st.FinishGitOperation(ctx, sp.ID, "", "", ""); err != nil {
		t.Fatal(err)
	}
	keyed := *link
	keyed.SSHHostKey = pinned
	if err := w.st.StartGitOperation(ctx, &keyed, store.GitJob{Space: sp.ID, Direction: "export", Standalone: true}); err != nil {
		t.Fatal(err)
	}
	if g, _ = w.st.FindSpaceGit(ctx, sp.ID); g.SSHHostKey != seen {
		t.Fatalf("a standalone run changed the host key: %q", g.SSHHostKey)
	}
	if err := w.st.FinishGitOperation(ctx, sp.ID, "", "", ""); err != nil {
		t.Fatal(err)
	}
	if err := w.st.StartGitOperation(ctx, &keyed, store.GitJob{Space: sp.ID, Direction: "import"}); err != nil {
		t.Fatal(err)
	}
	if g, _ = w.st.FindSpaceGit(ctx, sp.ID); g.SSHHostKey != pinned {
		t.Fatalf("pinned host key %q", g.SSHHostKey)
	}
	if links, _ = w.st.FindGitLinks(ctx); links[0].SSHHostKey != pinned {
		t.Fatalf("the poller's link has host key %q", links[0].SSHHostKey)
	}

	// Revisions.
	ids := w.commit(sp.ID, store.PageChange{Type: "insert_page", Ref: ptr("a"), Title: ptr("A")})
	after, _ := w.st.FindSpace(ctx, sp.ID)
	if c, pages, err := w.st.FindRevisionGit(ctx, after.RevisionID); err != nil || c != nil || len(pages) != 0 {
		t.Fatalf("no commit yet: %+v %v %v", c, pages, err)
	}
	commit := store.GitCommit{OID: "abc123", Message: "Import", CreatedByGitBook: true, URL: "https://x/commit/abc123", Ref: "refs/heads/main"}
	if err := w.st.SetRevisionGit(ctx, after.RevisionID, commit, map[string]store.GitBlob{ids["a"]: {OID: "b1", Path: "a.md"}}); err != nil {
		t.Fatal(err)
	}
	c, pages, err := w.st.FindRevisionGit(ctx, after.RevisionID)
	if err != nil || c == nil || *c != commit || pages[ids["a"]] != (store.GitBlob{OID: "b1", Path: "a.md"}) || len(pages) != 1 {
		t.Fatalf("read back %+v %v %v", c, pages, err)
	}
}

// changeRequestAt: a change request opened on an earlier revision of the space (the revision last
// synced with a branch) merges three-way against it: what the space changed since is kept, the
// same page changed on both sides is a conflict; a revision outside the space's history is
// refused.
func changeRequestAt(t *testing.T, open Opener) {
	w := newWorld(t, open, time.Now)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID, insert("a", "A", "A as synced.\n"), insert("b", "B", "B as synced.\n"))
	synced := w.current(sp.ID).ID
	a, b := refs["a"], refs["b"]
	w.commit(sp.ID, store.PageChange{Type: "update_page", Page: &a, Markdown: str("A edited in the space.\n")})

	cr, err := w.st.CreateChangeRequestAt(ctx, sp.ID, w.user, "From git", synced)
	if err != nil || cr.RevisionInitial != synced || cr.Base() != synced {
		t.Fatalf("change request at %s: %+v %v", synced, cr, err)
	}
	if _, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, w.user, []store.PageChange{
		{Type: "update_page", Page: &b, Markdown: str("B edited in git.\n")}}); err != nil {
		t.Fatal(err)
	}
	rev, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr.ID, w.user)
	if err != nil || conflicts {
		t.Fatalf("merge: %v %v", conflicts, err)
	}
	if got := w.markdown(rev, a); got != "A edited in the space.\n" {
		t.Fatalf("the space's edit is lost: %q", got)
	}
	if got := w.markdown(rev, b); got != "B edited in git.\n" {
		t.Fatalf("the change request's edit is lost: %q", got)
	}

	// The same page on both sides: a conflict, nothing changes.
	synced = rev
	w.commit(sp.ID, store.PageChange{Type: "update_page", Page: &a, Markdown: str("A again in the space.\n")})
	cr, err = w.st.CreateChangeRequestAt(ctx, sp.ID, w.user, "From git", synced)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, w.user, []store.PageChange{
		{Type: "update_page", Page: &a, Markdown: str("A again in git.\n")}}); err != nil {
		t.Fatal(err)
	}
	before := w.current(sp.ID).ID
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr.ID, w.user); err != nil || !conflicts {
		t.Fatalf("a conflict merged: %v %v", conflicts, err)
	}
	if w.current(sp.ID).ID != before {
		t.Fatal("a conflicting merge changed the space")
	}

	// Not a revision of the space's history: a change request's own, another space's, none.
	other := w.space("Other")
	if cr, err = w.st.FindChangeRequest(ctx, sp.ID, cr.ID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{cr.RevisionID, other.RevisionID, "nope"} {
		if _, err := w.st.CreateChangeRequestAt(ctx, sp.ID, w.user, "x", id); store.ErrorCode(err) != store.EINVALID {
			t.Fatalf("revision %s (change request %s, other %s): %v", id, cr.RevisionID, other.RevisionID, err)
		}
	}
}

// fileDeletes: a delete_files change removes files from a change request's content (the revision
// before keeps them); a merge brings in what each side did to files since their base — a file
// removed on one side is removed, one added on the other added, a removed one not brought back —
// and so does updating a change request from the space.
func fileDeletes(t *testing.T, open Opener) {
	w := newWorld(t, open, time.Now)
	ctx := context.Background()
	sp := w.space("Docs")
	upload := func(ref string) store.PageChange {
		return store.PageChange{Type: "insert_files", Files: []store.FileUpload{{Ref: str(ref), Name: ref + ".txt", ContentType: "text/plain", Data: []byte(ref)}}}
	}
	names := func(rev string) string {
		t.Helper()
		files, err := w.st.FindAllFiles(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range files {
			out = append(out, strings.TrimSuffix(f.Name, ".txt"))
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	merge := func(cr string) string {
		t.Helper()
		rev, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr, w.user)
		if err != nil || conflicts {
			t.Fatalf("merge: %v %v", conflicts, err)
		}
		return rev
	}
	ids := w.commit(sp.ID, upload("a"), upload("b"))
	before := w.current(sp.ID).ID
	cr, _ := w.edit(sp.ID, store.PageChange{Type: "delete_files", FileIDs: []string{ids["a"]}})
	w.commit(sp.ID, upload("c"))
	if got := names(merge(cr)); got != "b,c" {
		t.Fatalf("after the merge: %s", got)
	}
	if got := names(before); got != "a,b" {
		t.Fatalf("the revision before: %s", got)
	}

	cr, _ = w.edit(sp.ID, upload("d"))
	w.commit(sp.ID, store.PageChange{Type: "delete_files", FileIDs: []string{ids["b"]}})
	if got := names(merge(cr)); got != "c,d" {
		t.Fatalf("a file removed by the space came back: %s", got)
	}

	cur := w.current(sp.ID).ID
	files, _ := w.st.FindAllFiles(ctx, cur)
	var c string
	for _, f := range files {
		if f.Name == "c.txt" {
			c = f.ID
		}
	}
	cr, _ = w.edit(sp.ID, store.PageChange{Type: "delete_files", FileIDs: []string{c}})
	w.commit(sp.ID, upload("e"))
	rev, err := w.st.UpdateChangeRequestFromMain(ctx, sp.ID, cr)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(rev); got != "d,e" {
		t.Fatalf("the change request updated from the space: %s", got)
	}
	if _, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, cr, w.user, []store.PageChange{{Type: "delete_files", FileIDs: []string{c}}}); store.ErrorCode(err) != store.EINVALID {
		t.Fatalf("removing a file the content does not have: %v", err)
	}
}
