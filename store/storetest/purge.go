package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// purge: a deleted space can be restored within the window; after it, purging removes it and
// its revisions, while a duplicate made from it, which shares its content, reads as before.
func purge(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	a, keep := w.space("A"), w.space("Restored")
	refs := w.commit(a.ID, insert("p", "Page", "shared body"), insertInto("q", "Child", "child body", "p"))
	w.commit(keep.ID, insert("p", "Kept", "kept body"))
	dup, err := w.st.DuplicateSpace(ctx, a.ID, w.user)
	if err != nil {
		t.Fatal(err)
	}
	read := func(spaceID string) map[string]string {
		t.Helper()
		rev := w.current(spaceID)
		out := map[string]string{}
		for _, p := range rev.Pages {
			out[p.Path] = w.markdown(rev.ID, p.ID)
		}
		return out
	}
	dupBefore := read(dup.ID)
	if len(dupBefore) != 2 || dupBefore["page/child"] != "child body" {
		t.Fatalf("the duplicate reads %v", dupBefore)
	}
	aRev := w.current(a.ID)
	w.commit(a.ID, update(refs["q"], "the original moved on"))

	for _, id := range []string{a.ID, keep.ID} {
		if err := w.st.DeleteSpace(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.st.RestoreSpace(ctx, keep.ID); err != nil {
		t.Fatalf("restore within the window: %v", err)
	}
	if n, err := w.st.PurgeDeletedSpaces(ctx); err != nil || n != 0 {
		t.Fatalf("purge within the window removed %d spaces (%v)", n, err)
	}
	clock.advance(store.RestoreWindow + time.Hour)
	if n, err := w.st.PurgeDeletedSpaces(ctx); err != nil || n != 1 {
		t.Fatalf("purge after the window: %d, %v; want 1", n, err)
	}
	_, err = w.st.FindSpace(ctx, a.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.FindRevision(ctx, a.ID, aRev.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.RestoreSpace(ctx, a.ID)
	wantCode(t, err, store.ENOTFOUND)
	got := read(dup.ID)
	for path, md := range dupBefore {
		if got[path] != md {
			t.Fatalf("after its original's purge the duplicate reads %v, before %v", got, dupBefore)
		}
	}
	if got := read(keep.ID); got["kept"] != "kept body" {
		t.Fatalf("the restored space reads %v", got)
	}
}
