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

	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, mine, w.user); err != nil || conflicts {
		t.Fatalf("merging the updated change request: %v %v", conflicts, err)
	}
	now := w.current(sp.ID)
	if w.markdown(now.ID, a) != "a mine" || w.markdown(now.ID, b) != "b main" {
		t.Fatal("main lacks a side after the merge")
	}
	// The merge records who merged and when (the merge revision's time); an unmerged one has neither.
	merged, err := w.st.FindChangeRequest(ctx, sp.ID, mine)
	if err != nil || merged.MergedBy == nil || merged.MergedBy.ID != w.user || merged.MergedAt == nil || !merged.MergedAt.Equal(now.CreatedAt) {
		t.Fatalf("merged change request: by %+v at %v (merge revision at %v), %v", merged.MergedBy, merged.MergedAt, now.CreatedAt, err)
	}
	list, err := w.st.FindChangeRequests(ctx, store.ChangeRequestFilter{SpaceID: sp.ID, Status: "merged"}, store.Page{})
	if err != nil || len(list.Items) == 0 {
		t.Fatalf("merged change requests listed: %+v, %v", list.Items, err)
	}
	for _, c := range list.Items {
		if c.MergedBy == nil || c.MergedBy.ID != w.user || c.MergedAt == nil {
			t.Fatalf("merged change request %d listed: by %+v at %v", c.Number, c.MergedBy, c.MergedAt)
		}
	}
	if open, _ := w.st.FindChangeRequest(ctx, sp.ID, clash); open.MergedBy != nil || open.MergedAt != nil {
		t.Fatalf("an open change request: merged by %+v at %v", open.MergedBy, open.MergedAt)
	}
	if w.markdown(first.ID, a) != "a0" || w.markdown(first.ID, b) != "b0" {
		t.Fatal("the first revision changed after later merges")
	}
}
