package storetest

// The world the cases start from: an organization with an owner on a store, and the steps the
// cases share (a space, a change request's batch, a merge, reads) and their assertions.

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// world is a store with one user who created one organization.
type world struct {
	t     *testing.T
	st    store.Store
	owner Owner
	user  string
	org   string
}

func newWorld(t *testing.T, open Opener, clock func() time.Time) *world {
	t.Helper()
	st := open(t, clock)
	o := MustOwner(t, st, "owner@example.com")
	return &world{t: t, st: st, owner: o, user: o.User.ID, org: o.Org.ID}
}

func (w *world) space(title string) *store.Space {
	w.t.Helper()
	return w.owner.MustSpace(w.t, w.st, title)
}

// edit writes a batch in a new change request and leaves it open.
func (w *world) edit(spaceID string, changes ...store.PageChange) (cr string, res *store.BatchResult) {
	w.t.Helper()
	ctx := context.Background()
	c, err := w.st.CreateChangeRequest(ctx, spaceID, w.user, "edit")
	if err != nil {
		w.t.Fatal(err)
	}
	res, err = w.st.UpdateChangeRequestContent(ctx, spaceID, c.ID, w.user, changes)
	if err != nil {
		w.t.Fatalf("batch: %v", err)
	}
	return c.ID, res
}

// commit writes a batch and merges it, returning the refs' ids.
func (w *world) commit(spaceID string, changes ...store.PageChange) map[string]string {
	w.t.Helper()
	cr, res := w.edit(spaceID, changes...)
	if _, conflicts, err := w.st.MergeChangeRequest(context.Background(), spaceID, cr, w.user); err != nil || conflicts {
		w.t.Fatalf("merge: %v (conflicts %v)", err, conflicts)
	}
	return res.Refs
}

// current is the space's current revision, with its pages.
func (w *world) current(spaceID string) *store.Revision {
	w.t.Helper()
	ctx := context.Background()
	sp, err := w.st.FindSpace(ctx, spaceID)
	if err != nil {
		w.t.Fatal(err)
	}
	rev, err := w.st.FindRevision(ctx, spaceID, sp.RevisionID)
	if err != nil {
		w.t.Fatal(err)
	}
	return rev
}

func (w *world) markdown(revisionID, pageID string) string {
	w.t.Helper()
	p, err := w.st.FindPage(context.Background(), revisionID, pageID)
	if err != nil {
		w.t.Fatal(err)
	}
	return p.Markdown
}

func str(s string) *string { return &s }

func insert(ref, title, md string) store.PageChange {
	return store.PageChange{Type: "insert_page", Ref: str(ref), Title: str(title), Markdown: str(md)}
}

func insertInto(ref, title, md, parent string) store.PageChange {
	c := insert(ref, title, md)
	c.SetInto, c.Into = true, str(parent)
	return c
}

func update(id, md string) store.PageChange {
	return store.PageChange{Type: "update_page", Page: str(id), Markdown: str(md)}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if store.ErrorCode(err) != code {
		t.Fatalf("error %v has code %q, want %q", err, store.ErrorCode(err), code)
	}
}

// fakeClock is a clock tests move by hand. The store reads it on goroutines of its own too (the
// search index's catch-up after a merge), so it is read and moved under a lock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
