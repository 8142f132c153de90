package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// updateFromMain: a change request behind main is outdated; pulling main in brings main's pages
// while keeping its own edits, a conflicting pull is ECONFLICT and changes nothing, and the
// revisions read before any of it read the same afterwards.
func updateFromMain(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp := w.space("Docs")
	refs := w.commit(sp.ID, insert("a", "A", "a0"), insert("b", "B", "b0"))
	a, b := refs["a"], refs["b"]
	first := w.current(sp.ID)
	mine, _ := w.edit(sp.ID, update(a, "a mine"))
	clash, _ := w.edit(sp.ID, update(b, "b clash"))
	w.commit(sp.ID, update(b, "b main"))

	cr, err := w.st.FindChangeRequest(ctx, sp.ID, mine)
	if err != nil || !cr.Outdated {
		t.Fatalf("a change request behind main: outdated %v, %v", cr != nil && cr.Outdated, err)
	}
	rev, err := w.st.UpdateChangeRequestFromMain(ctx, sp.ID, mine)
	if err != nil || rev == "" {
		t.Fatalf("update from main: %q, %v", rev, err)
	}
	if w.markdown(rev, a) != "a mine" || w.markdown(rev, b) != "b main" {
		t.Fatalf("after the update: a %q, b %q", w.markdown(rev, a), w.markdown(rev, b))
	}
	if cr, err = w.st.FindChangeRequest(ctx, sp.ID, mine); err != nil || cr.Outdated || cr.RevisionID != rev {
		t.Fatalf("after the update: %+v, %v", cr, err)
	}

	before, _ := w.st.FindChangeRequest(ctx, sp.ID, clash)
	_, err = w.st.UpdateChangeRequestFromMain(ctx, sp.ID, clash)
	wantCode(t, err, store.ECONFLICT)
	after, _ := w.st.FindChangeRequest(ctx, sp.ID, clash)
	if after.RevisionID != before.RevisionID || w.markdown(after.RevisionID, b) != "b clash" {
		t.Fatalf("a conflicting update changed the change request: %s → %s", before.RevisionID, after.RevisionID)
	}

	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, mine); err != nil || conflicts {
		t.Fatalf("merging the updated change request: %v %v", conflicts, err)
	}
	now := w.current(sp.ID)
	if w.markdown(now.ID, a) != "a mine" || w.markdown(now.ID, b) != "b main" {
		t.Fatal("main lacks a side after the merge")
	}
	if w.markdown(first.ID, a) != "a0" || w.markdown(first.ID, b) != "b0" {
		t.Fatal("the first revision changed after later merges")
	}
}
