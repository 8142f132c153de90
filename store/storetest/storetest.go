// Package storetest is the store contract's conformance suite: table tests written once against
// store.Store and run against every implementation (store/sqlite calls Run from its tests).
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// Opener opens an empty store for one test and closes it when the test ends. clock, when not
// nil, is the clock the store reads (store.Store.Now); nil is the real time.
type Opener func(t *testing.T, clock func() time.Time) store.Store

// Run runs the contract's tests, each a subtest that logs the backend it ran against.
func Run(t *testing.T, open Opener) {
	logged := func(t *testing.T, clock func() time.Time) store.Store {
		t.Helper()
		st := open(t, clock)
		t.Logf("backend: %s", st.Backend())
		return st
	}
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, Opener)
	}{
		{"Access", access},
		{"Levels", levels},
		{"Paging", paging},
		{"ListCursors", listCursors},
		{"BatchMergeConflict", batchMergeConflict},
		{"PageTree", pageTree},
		{"PageKinds", pageKinds},
		{"Links", links},
		{"UpdateFromMain", updateFromMain},
		{"Comments", comments},
		{"Sites", sites},
		{"SiteStructureFields", siteStructureFields},
		{"SiteNewSpaces", siteNewSpaces},
		{"RevisionsAgainstModel", revisionsAgainstModel},
		{"Search", search},
		{"SearchIndexUpkeep", searchIndexUpkeep},
		{"SearchHits", searchHits},
		{"Jobs", jobs},
		{"Purge", purge},
		{"ConversationsIngest", conversationsIngest},
		{"ConversationsIngestMany", conversationsIngestMany},
		{"ConversationsAnalysis", conversationsAnalysis},
		{"Translations", translations},
		{"Glossary", glossary},
		{"SAMLProviders", samlProviders},
		{"SAMLLogins", samlLogins},
		{"OpenAPISpecs", openAPISpecs},
		{"Integrations", integrations},
		{"InstallationLifecycle", installationLifecycle},
		{"Sessions", sessions},
		{"SpaceFields", spaceFields},
		{"TemplatesElsewhere", templatesElsewhere},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, logged) })
	}
}

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

// fakeClock is a clock tests move by hand.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }
