package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/quire-docs/quire/store"
)

// reusableContents: reusable contents are written by the content batch, kept per revision (an
// older revision still holds what a later one changed or deleted), carried by merges and by
// updates from main, and merged three ways, the same on every backend.
func reusableContents(t *testing.T, open Opener) {
	ctx := context.Background()
	w := newWorld(t, open, nil)
	sp := w.space("Reusable")
	insertRC := func(ref, title, md string) store.PageChange {
		return store.PageChange{Type: "insert_reusable_content", Ref: str(ref), Title: str(title), Markdown: str(md)}
	}
	find := func(rev, id string) *store.ReusableContent {
		t.Helper()
		r, err := w.st.FindReusableContent(ctx, rev, id)
		if store.ErrorCode(err) == store.ENOTFOUND {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cr, res := w.edit(sp.ID, insertRC("warn", "Warning", "Mind the gap."), insertRC("gone", "Gone", "Soon deleted."),
		store.PageChange{Type: "update_reusable_content", ReusableContent: str("gone"), Title: str("Gone soon")})
	warn, gone := res.Refs["warn"], res.Refs["gone"]
	if len(res.Reusable) != 2 || res.Reusable[0].ID != warn || res.Reusable[0].Kind != "created" || *res.Reusable[0].Ref != "warn" {
		t.Fatalf("outcomes = %+v", res.Reusable)
	}
	if r := find(res.Revision, warn); r == nil || r.Title != "Warning" || r.Markdown != "Mind the gap." {
		t.Fatalf("in the change request: %+v", r)
	}
	if r := find(res.Revision, gone); r == nil || r.Title != "Gone soon" {
		t.Fatalf("updated in the same batch: %+v", r)
	}
	if r := find(w.current(sp.ID).ID, warn); r != nil {
		t.Fatalf("in main before the merge: %+v", r)
	}
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, cr, w.user); err != nil || conflicts {
		t.Fatalf("merge: %v %v", err, conflicts)
	}
	merged := w.current(sp.ID).ID
	if r := find(merged, warn); r == nil || r.Markdown != "Mind the gap." {
		t.Fatalf("merged: %+v", r)
	}
	if d, err := w.st.FindDocument(ctx, sp.ID, find(merged, warn).BodyID); err != nil || d.Markdown != "Mind the gap." {
		t.Fatalf("its document: %+v, %v", d, err)
	}

	// Edits on main: the older revision keeps what it held.
	w.commit(sp.ID, store.PageChange{Type: "update_reusable_content", ReusableContent: str(warn), Markdown: str("Mind the step.")},
		store.PageChange{Type: "delete_reusable_content", ReusableContent: str(gone)})
	now := w.current(sp.ID).ID
	if r := find(now, warn); r == nil || r.Markdown != "Mind the step." || r.Title != "Warning" {
		t.Fatalf("updated: %+v", r)
	}
	if r := find(now, gone); r != nil {
		t.Fatalf("deleted: %+v", r)
	}
	if r := find(merged, gone); r == nil || find(merged, warn).Markdown != "Mind the gap." {
		t.Fatal("the older revision changed")
	}
	list := func(rev string) map[string]string {
		t.Helper()
		all, err := w.st.FindReusableContents(ctx, rev)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, r := range all {
			m[r.ID] = r.Title + ": " + r.Markdown
		}
		return m
	}
	if l := list(merged); len(l) != 2 || l[warn] != "Warning: Mind the gap." || l[gone] != "Gone soon: Soon deleted." {
		t.Fatalf("listed in the merged revision: %v", l)
	}
	if l := list(now); len(l) != 1 || l[warn] != "Warning: Mind the step." {
		t.Fatalf("listed after an update and a delete: %v", l)
	}
	if l := list(res.Revision); len(l) != 2 {
		t.Fatalf("listed in the change request's revision: %v", l)
	}

	// Three-way: a change on one side is taken; on both, a conflict.
	a, _ := w.edit(sp.ID, store.PageChange{Type: "update_reusable_content", ReusableContent: str(warn), Title: str("Caution")})
	b, _ := w.edit(sp.ID, store.PageChange{Type: "update_reusable_content", ReusableContent: str(warn), Title: str("Danger")})
	w.commit(sp.ID, insertRC("n", "New on main", "x"))
	if _, err := w.st.UpdateChangeRequestFromMain(ctx, sp.ID, a); err != nil {
		t.Fatal(err)
	}
	crA, err := w.st.FindChangeRequest(ctx, sp.ID, a)
	if err != nil {
		t.Fatal(err)
	}
	if r := find(crA.RevisionID, warn); r == nil || r.Title != "Caution" || r.Markdown != "Mind the step." {
		t.Fatalf("updated from main: %+v", r)
	}
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, a, w.user); err != nil || conflicts {
		t.Fatalf("merge a: %v %v", err, conflicts)
	}
	if r := find(w.current(sp.ID).ID, warn); r == nil || r.Title != "Caution" {
		t.Fatalf("merged a: %+v", r)
	}
	if _, conflicts, err := w.st.MergeChangeRequest(ctx, sp.ID, b, w.user); err != nil || !conflicts {
		t.Fatalf("merge b: %v, conflicts %v (want a conflict)", err, conflicts)
	}

	t.Run("IncludesByRefAndPath", func(t *testing.T) {
		_, res := w.edit(sp.ID, insertRC("tip", "Tip", "Look."), store.PageChange{Type: "insert_page", Ref: str("p"), Title: str("Uses"),
			Markdown: str("{% include \"tip\" %}\n\n{% include \"../.gitbook/includes/caution.md\" %}\n")})
		p, err := w.st.FindPage(ctx, res.Revision, res.Refs["p"])
		if err != nil {
			t.Fatal(err)
		}
		if want := "{% include \"" + res.Refs["tip"] + "\" %}\n\n{% include \"" + warn + "\" %}\n"; p.Markdown != want {
			t.Fatalf("stored %q, want %q", p.Markdown, want)
		}
	})

	t.Run("Refused", func(t *testing.T) {
		c, err := w.st.CreateChangeRequest(ctx, sp.ID, w.user, "bad")
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name  string
			c     []store.PageChange
			field string
		}{
			{"no title", []store.PageChange{{Type: "insert_reusable_content", Markdown: str("x")}}, "changes[0].title"},
			{"unknown", []store.PageChange{{Type: "update_reusable_content", ReusableContent: str("nope"), Title: str("T")}}, "changes[0].reusableContent"},
			{"deleted", []store.PageChange{{Type: "delete_reusable_content", ReusableContent: str(gone)}}, "changes[0].reusableContent"},
			{"ref twice", []store.PageChange{insertRC("r", "A", ""), insertRC("r", "B", "")}, "changes[1].ref"},
			{"include of no file", []store.PageChange{{Type: "insert_page", Title: str("P"), Markdown: str("{% include \".gitbook/includes/none.md\" %}\n")}}, "changes[0].document"},
			{"ref on update", []store.PageChange{{Type: "update_reusable_content", Ref: str("r"), ReusableContent: str(warn)}}, "changes[0].ref"},
		} {
			_, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, c.ID, w.user, tc.c)
			var e *store.Error
			if !errors.As(err, &e) || e.Code != store.EINVALID || e.Field != tc.field {
				t.Errorf("%s: err = %v, want EINVALID on %s", tc.name, err, tc.field)
			}
		}
		if r := find(w.current(sp.ID).ID, warn); r == nil || r.Title != "Caution" {
			t.Fatalf("a refused batch changed content: %+v", r)
		}
	})
}
