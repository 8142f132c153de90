package server_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// crWantMerged checks a merge that succeeded: the space moved to the answered revision, a merge
// revision whose parents are main's revision before and the change request's, and the change
// request is merged.
func crWantMerged(t *testing.T, w *crWorld, spaceID string, res gen.MergeChangeRequestResult, mainBefore string, cr gen.ChangeRequest) {
	t.Helper()
	if res.Result != gen.MergeResultMerge || res.Revision == "" || res.Revision == mainBefore {
		t.Fatalf("merge answered %+v (main before %q)", res, mainBefore)
	}
	if got := w.space(t, spaceID).Revision; got != res.Revision {
		t.Fatalf("space revision %q, want the merge's %q", got, res.Revision)
	}
	rev := w.mainRevision(t, spaceID)
	if rev.Id != res.Revision || rev.Type != "merge" || !reflect.DeepEqual(rev.Parents, []string{mainBefore, cr.Revision}) {
		t.Fatalf("main revision %s type %s parents %v; want %s, merge, [%s %s]", rev.Id, rev.Type, rev.Parents, res.Revision, mainBefore, cr.Revision)
	}
	if rev.MergedFrom == nil || rev.MergedFrom.Id != cr.Id {
		t.Fatalf("mergedFrom %+v, want %s", rev.MergedFrom, cr.Id)
	}
	got := w.get(t, spaceID, cr.Id)
	if got.Status != "merged" || got.RevisionMerged == nil || *got.RevisionMerged != res.Revision || got.Outdated {
		t.Fatalf("merged change request: status %s, revisionMerged %v, outdated %v; want merged, %s", got.Status, got.RevisionMerged, got.Outdated, res.Revision)
	}
}

// crWantConflicts checks a merge that found conflicts changed nothing.
func crWantConflicts(t *testing.T, w *crWorld, spaceID string, cr gen.ChangeRequest) {
	t.Helper()
	before := w.space(t, spaceID)
	pagesBefore := w.mainPages(t, spaceID)
	res := w.merge(t, w.admin, spaceID, cr.Id)
	if res.Result != gen.MergeResultConflicts || res.Revision != before.Revision {
		t.Fatalf("merge answered %+v, want conflicts on the unchanged revision %s", res, before.Revision)
	}
	after := w.space(t, spaceID)
	if after.Revision != before.Revision || after.ChangeRequestsOpen != before.ChangeRequestsOpen || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("space changed by a conflicting merge: %+v\nwas %+v", after, before)
	}
	if got := w.mainPages(t, spaceID); !reflect.DeepEqual(got, pagesBefore) {
		t.Fatalf("pages changed by a conflicting merge: %+v\nwere %+v", got, pagesBefore)
	}
	got := w.get(t, spaceID, cr.Id)
	if got.Status != "open" || got.RevisionMerged != nil || got.Revision != cr.Revision {
		t.Fatalf("change request after a conflicting merge: %+v", got)
	}
}

func TestMergeClean(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Hello.\n", "Keep", "Untouched.\n")
	mainBefore := w.space(t, sp.Id).Revision

	cr := w.create(t, w.editor, sp.Id, "Add a guide")
	res := w.apply(t, w.editor, sp.Id, cr.Id,
		crInsert("Guide", "See [setup](setup.md).\n", "guide"),
		crInsertInto("Setup", "Install it.\n", "setup", "guide"),
		crEdit(ids["Intro"], "Hello, world.\n"),
	)
	if res.Refs["guide"] == "" || res.Refs["setup"] == "" || res.Revision == "" {
		t.Fatalf("batch answered %+v", res)
	}
	cr = w.get(t, sp.Id, cr.Id)
	if cr.Revision != res.Revision || cr.RevisionInitial != mainBefore || cr.Outdated {
		t.Fatalf("change request after its batch: %+v", cr)
	}
	// Main does not see the change request's content before the merge.
	if md := w.mainMarkdown(t, sp.Id, ids["Intro"]); md != "Hello.\n" {
		t.Fatalf("main's Intro before the merge: %q", md)
	}
	if n := len(crFlatten(w.mainPages(t, sp.Id))); n != 2 {
		t.Fatalf("main has %d pages before the merge", n)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+res.Refs["guide"], nil)

	m := w.merge(t, w.editor, sp.Id, cr.Id)
	crWantMerged(t, w, sp.Id, m, mainBefore, cr)

	pages := crFlatten(w.mainPages(t, sp.Id))
	want := map[string]crFlatPage{
		ids["Intro"]:      {"", "Intro", "intro"},
		ids["Keep"]:       {"", "Keep", "keep"},
		res.Refs["guide"]: {"", "Guide", "guide"},
		res.Refs["setup"]: {res.Refs["guide"], "Setup", "guide/setup"},
	}
	if !reflect.DeepEqual(pages, want) {
		t.Fatalf("main's pages after the merge %+v\nwant %+v", pages, want)
	}
	for id, md := range map[string]string{
		ids["Intro"]:      "Hello, world.\n",
		ids["Keep"]:       "Untouched.\n",
		res.Refs["guide"]: "See [setup](setup.md).\n",
		res.Refs["setup"]: "Install it.\n",
	} {
		if got := w.mainMarkdown(t, sp.Id, id); got != md {
			t.Fatalf("main's markdown of %s: %q, want %q", pages[id].Title, got, md)
		}
	}
	var byPath gen.RevisionPage
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/content/path/guide%2Fsetup?format=markdown", nil).Decode(t, &byPath)
	if byPath.Id != res.Refs["setup"] || byPath.Markdown == nil || *byPath.Markdown != "Install it.\n" {
		t.Fatalf("page by path %+v", byPath)
	}
	// The document form is derived from the merged markdown.
	var doc gen.RevisionPage
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+ids["Intro"], nil).Decode(t, &doc)
	if doc.Document == nil || len(doc.Document.Nodes) == 0 {
		t.Fatalf("document of the merged Intro: %+v", doc.Document)
	}
}

func TestMergeBothSidesSameEdit(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Old.\n", "Other", "Other.\n")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.editor, sp.Id, "b")
	same := []map[string]any{crEdit(ids["Intro"], "The same new text.\n"), {"operation": "update_page", "page": ids["Intro"], "title": "Introduction"}}
	w.apply(t, w.admin, sp.Id, a.Id, same...)
	w.apply(t, w.editor, sp.Id, b.Id, same...)
	// B also touches another page, which A left alone.
	w.apply(t, w.editor, sp.Id, b.Id, crEdit(ids["Other"], "Other, edited by B.\n"))
	a, b = w.get(t, sp.Id, a.Id), w.get(t, sp.Id, b.Id)

	mainA := w.space(t, sp.Id).Revision
	crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, a.Id), mainA, a)
	mainB := w.space(t, sp.Id).Revision
	if !w.get(t, sp.Id, b.Id).Outdated {
		t.Fatal("B is not outdated after A's merge")
	}
	crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, b.Id), mainB, b)

	if md := w.mainMarkdown(t, sp.Id, ids["Intro"]); md != "The same new text.\n" {
		t.Fatalf("Intro markdown %q", md)
	}
	if md := w.mainMarkdown(t, sp.Id, ids["Other"]); md != "Other, edited by B.\n" {
		t.Fatalf("Other markdown %q", md)
	}
	pages := crFlatten(w.mainPages(t, sp.Id))
	if p := pages[ids["Intro"]]; p.Title != "Introduction" || p.Path != "intro" || len(pages) != 2 {
		t.Fatalf("pages %+v", pages)
	}
}

func TestMergeConflict(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Old.\n", "Other", "Other.\n")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.admin, sp.Id, "b")
	w.apply(t, w.admin, sp.Id, a.Id, crEdit(ids["Intro"], "A's text.\n"))
	// B edits the same page differently, and another page cleanly: nothing of B may land.
	w.apply(t, w.admin, sp.Id, b.Id, crEdit(ids["Intro"], "B's text.\n"), crEdit(ids["Other"], "B's other.\n"),
		crInsert("New in B", "New.\n", "new"))
	b = w.get(t, sp.Id, b.Id)
	w.merge(t, w.admin, sp.Id, a.Id)

	crWantConflicts(t, w, sp.Id, b)
	if md := w.mainMarkdown(t, sp.Id, ids["Intro"]); md != "A's text.\n" {
		t.Fatalf("Intro after the conflict %q", md)
	}
	if md := w.mainMarkdown(t, sp.Id, ids["Other"]); md != "Other.\n" {
		t.Fatalf("Other after the conflict %q", md)
	}
	if md := w.crMarkdown(t, sp.Id, b.Id, ids["Intro"]); md != "B's text.\n" {
		t.Fatalf("B's Intro after the conflict %q", md)
	}
	// Asking again gives the same answer.
	crWantConflicts(t, w, sp.Id, b)
	crWantCounters(t, w, sp.Id, 3, 1, 0)

	t.Run("TitleChangedDifferently", func(t *testing.T) {
		c := w.create(t, w.admin, sp.Id, "c")
		d := w.create(t, w.admin, sp.Id, "d")
		w.apply(t, w.admin, sp.Id, c.Id, map[string]any{"operation": "update_page", "page": ids["Other"], "title": "Title C"})
		w.apply(t, w.admin, sp.Id, d.Id, map[string]any{"operation": "update_page", "page": ids["Other"], "title": "Title D"})
		d = w.get(t, sp.Id, d.Id)
		w.merge(t, w.admin, sp.Id, c.Id)
		crWantConflicts(t, w, sp.Id, d)
	})
}

func TestMergeUpdateWithConflict(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Old.\n")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.admin, sp.Id, "b")
	w.apply(t, w.admin, sp.Id, a.Id, crEdit(ids["Intro"], "A's text.\n"))
	w.apply(t, w.admin, sp.Id, b.Id, crEdit(ids["Intro"], "B's text.\n"))
	w.merge(t, w.admin, sp.Id, a.Id)
	before := w.get(t, sp.Id, b.Id)
	pagesBefore := w.crPages(t, sp.Id, b.Id)

	r := w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, b.Id, "/update"), nil)
	crWantMessage(t, r, "Intro", ids["Intro"])

	after := w.get(t, sp.Id, b.Id)
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("a conflicting update changed the change request: %+v\nwas %+v", after, before)
	}
	if !after.Outdated || after.RevisionMergedAncestor != nil {
		t.Fatalf("after a conflicting update: outdated %v ancestor %v", after.Outdated, after.RevisionMergedAncestor)
	}
	if got := w.crPages(t, sp.Id, b.Id); !reflect.DeepEqual(got, pagesBefore) {
		t.Fatalf("pages changed: %+v", got)
	}
	if md := w.crMarkdown(t, sp.Id, b.Id, ids["Intro"]); md != "B's text.\n" {
		t.Fatalf("B's Intro %q", md)
	}
	if md := w.mainMarkdown(t, sp.Id, ids["Intro"]); md != "A's text.\n" {
		t.Fatalf("main's Intro %q", md)
	}
	// Resolving the conflict on B's side (taking A's text) lets the update through.
	w.apply(t, w.admin, sp.Id, b.Id, crEdit(ids["Intro"], "A's text.\n"))
	if up := w.update(t, w.admin, sp.Id, b.Id); up.Result != gen.UpdateResultUpdate {
		t.Fatalf("update after resolving: %+v", up)
	}
}

func TestMergeAfterUpdate(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "One", "One.\n", "Two", "Two.\n")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.editor, sp.Id, "b")
	w.apply(t, w.admin, sp.Id, a.Id, crEdit(ids["One"], "One, by A.\n"))
	bres := w.apply(t, w.editor, sp.Id, b.Id, crEdit(ids["Two"], "Two, by B.\n"), crInsert("Three", "Three, by B.\n", "three"))
	w.merge(t, w.admin, sp.Id, a.Id)
	mainA := w.space(t, sp.Id).Revision

	up := w.update(t, w.editor, sp.Id, b.Id)
	if up.Result != gen.UpdateResultUpdate || up.Revision == bres.Revision {
		t.Fatalf("update answered %+v", up)
	}
	bu := w.get(t, sp.Id, b.Id)
	if bu.Revision != up.Revision || bu.RevisionMergedAncestor == nil || *bu.RevisionMergedAncestor != mainA || bu.Outdated || bu.Status != "open" {
		t.Fatalf("after update: %+v (main %s)", bu, mainA)
	}
	rev := w.crRevision(t, sp.Id, b.Id)
	if rev.Id != up.Revision || rev.Type != "update" || !reflect.DeepEqual(rev.Parents, []string{bres.Revision, mainA}) {
		t.Fatalf("update revision %s type %s parents %v; want parents [%s %s]", rev.Id, rev.Type, rev.Parents, bres.Revision, mainA)
	}
	// B now has A's change as well as its own; main still has only A's.
	for id, md := range map[string]string{ids["One"]: "One, by A.\n", ids["Two"]: "Two, by B.\n", bres.Refs["three"]: "Three, by B.\n"} {
		if got := w.crMarkdown(t, sp.Id, b.Id, id); got != md {
			t.Fatalf("B's markdown of %s: %q, want %q", id, got, md)
		}
	}
	if md := w.mainMarkdown(t, sp.Id, ids["Two"]); md != "Two.\n" {
		t.Fatalf("main's Two before B's merge %q", md)
	}

	m := w.merge(t, w.admin, sp.Id, b.Id)
	crWantMerged(t, w, sp.Id, m, mainA, bu)
	for id, md := range map[string]string{ids["One"]: "One, by A.\n", ids["Two"]: "Two, by B.\n", bres.Refs["three"]: "Three, by B.\n"} {
		if got := w.mainMarkdown(t, sp.Id, id); got != md {
			t.Fatalf("main's markdown of %s: %q, want %q", id, got, md)
		}
	}
	if n := len(crFlatten(w.mainPages(t, sp.Id))); n != 3 {
		t.Fatalf("main has %d pages", n)
	}
}

func TestMergeOutdatedWithoutUpdate(t *testing.T) {
	// Edits on different pages merge cleanly even when the change request was never updated.
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "One", "One.\n", "Two", "Two.\n")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.admin, sp.Id, "b")
	w.apply(t, w.admin, sp.Id, a.Id, crEdit(ids["One"], "One, by A.\n"), crInsert("From A", "A.\n", "x"))
	w.apply(t, w.admin, sp.Id, b.Id, crEdit(ids["Two"], "Two, by B.\n"), crInsert("From B", "B.\n", "x"))
	b = w.get(t, sp.Id, b.Id)
	w.merge(t, w.admin, sp.Id, a.Id)
	mainA := w.space(t, sp.Id).Revision
	crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, b.Id), mainA, b)
	if got := w.mainMarkdown(t, sp.Id, ids["One"]); got != "One, by A.\n" {
		t.Fatalf("One %q", got)
	}
	if got := w.mainMarkdown(t, sp.Id, ids["Two"]); got != "Two, by B.\n" {
		t.Fatalf("Two %q", got)
	}
	titles := map[string]bool{}
	for _, p := range crFlatten(w.mainPages(t, sp.Id)) {
		titles[p.Title] = true
	}
	if !reflect.DeepEqual(titles, map[string]bool{"One": true, "Two": true, "From A": true, "From B": true}) {
		t.Fatalf("titles %v", titles)
	}
}

func TestMergeDeleteVersusEdit(t *testing.T) {
	w := crNewWorld(t)

	t.Run("MainDeletesChangeRequestEdits", func(t *testing.T) {
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
		ids := w.seed(t, sp.Id, "Doomed", "Doomed.\n", "Other", "Other.\n")
		del := w.create(t, w.admin, sp.Id, "delete")
		edit := w.create(t, w.admin, sp.Id, "edit")
		w.apply(t, w.admin, sp.Id, del.Id, crDelete(ids["Doomed"]))
		w.apply(t, w.admin, sp.Id, edit.Id, crEdit(ids["Doomed"], "Rescued?\n"))
		edit = w.get(t, sp.Id, edit.Id)
		w.merge(t, w.admin, sp.Id, del.Id)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+ids["Doomed"], nil)
		crWantConflicts(t, w, sp.Id, edit)
		r := w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, edit.Id, "/update"), nil)
		crWantMessage(t, r, "deleted")
	})

	t.Run("ChangeRequestDeletesMainEdits", func(t *testing.T) {
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
		ids := w.seed(t, sp.Id, "Doomed", "Doomed.\n")
		edit := w.create(t, w.admin, sp.Id, "edit")
		del := w.create(t, w.admin, sp.Id, "delete")
		w.apply(t, w.admin, sp.Id, edit.Id, crEdit(ids["Doomed"], "Edited.\n"))
		w.apply(t, w.admin, sp.Id, del.Id, crDelete(ids["Doomed"]))
		del = w.get(t, sp.Id, del.Id)
		w.merge(t, w.admin, sp.Id, edit.Id)
		crWantConflicts(t, w, sp.Id, del)
		if md := w.mainMarkdown(t, sp.Id, ids["Doomed"]); md != "Edited.\n" {
			t.Fatalf("markdown %q", md)
		}
	})

	t.Run("DeletedWhereTheOtherSideDidNotTouchIt", func(t *testing.T) {
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
		ids := w.seed(t, sp.Id, "Doomed", "Doomed.\n", "Other", "Other.\n")
		w.apply(t, w.admin, sp.Id, w.create(t, w.admin, sp.Id, "child").Id, crInsertInto("Child", "Child.\n", "c", ids["Doomed"]))
		w.merge(t, w.admin, sp.Id, "2")
		del := w.create(t, w.admin, sp.Id, "delete")
		edit := w.create(t, w.admin, sp.Id, "edit other")
		w.apply(t, w.admin, sp.Id, del.Id, crDelete(ids["Doomed"]))
		w.apply(t, w.admin, sp.Id, edit.Id, crEdit(ids["Other"], "Other, edited.\n"))
		del = w.get(t, sp.Id, del.Id)
		w.merge(t, w.admin, sp.Id, edit.Id)
		mainBefore := w.space(t, sp.Id).Revision
		crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, del.Id), mainBefore, del)
		pages := crFlatten(w.mainPages(t, sp.Id))
		if len(pages) != 1 || pages[ids["Other"]].Title != "Other" {
			t.Fatalf("pages after deleting Doomed with its child: %+v", pages)
		}
		if md := w.mainMarkdown(t, sp.Id, ids["Other"]); md != "Other, edited.\n" {
			t.Fatalf("Other %q", md)
		}
	})

	t.Run("RewrittenWithTheSameTextIsNoEdit", func(t *testing.T) {
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
		ids := w.seed(t, sp.Id, "Doomed", "Doomed.\n", "Other", "Other.\n")
		del := w.create(t, w.admin, sp.Id, "delete")
		same := w.create(t, w.admin, sp.Id, "same text")
		w.apply(t, w.admin, sp.Id, del.Id, crDelete(ids["Doomed"]))
		// The whole document sent again, unchanged, and another page edited.
		w.apply(t, w.admin, sp.Id, same.Id, crEdit(ids["Doomed"], "Doomed.\n"), crEdit(ids["Other"], "Other, edited.\n"))
		same = w.get(t, sp.Id, same.Id)
		w.merge(t, w.admin, sp.Id, del.Id)
		mainBefore := w.space(t, sp.Id).Revision
		crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, same.Id), mainBefore, same)
		pages := crFlatten(w.mainPages(t, sp.Id))
		if len(pages) != 1 || pages[ids["Other"]].Title != "Other" {
			t.Fatalf("pages %+v", pages)
		}
	})

	t.Run("MainDeletesParentChangeRequestAddsChild", func(t *testing.T) {
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
		ids := w.seed(t, sp.Id, "Parent", "Parent.\n")
		del := w.create(t, w.admin, sp.Id, "delete")
		add := w.create(t, w.admin, sp.Id, "add")
		w.apply(t, w.admin, sp.Id, del.Id, crDelete(ids["Parent"]))
		w.apply(t, w.admin, sp.Id, add.Id, crInsertInto("Child", "Child.\n", "c", ids["Parent"]))
		add = w.get(t, sp.Id, add.Id)
		w.merge(t, w.admin, sp.Id, del.Id)
		crWantConflicts(t, w, sp.Id, add)
		w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, add.Id, "/update"), nil)
	})
}

func TestMergeMoveVersusEdit(t *testing.T) {
	w := crNewWorld(t)
	for _, moveFirst := range []bool{true, false} {
		name := "EditMergedFirst"
		if moveFirst {
			name = "MoveMergedFirst"
		}
		t.Run(name, func(t *testing.T) {
			sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
			ids := w.seed(t, sp.Id, "Parent", "Parent.\n", "Mover", "Mover.\n")
			move := w.create(t, w.admin, sp.Id, "move")
			edit := w.create(t, w.admin, sp.Id, "edit")
			w.apply(t, w.admin, sp.Id, move.Id, crMove(ids["Mover"], ids["Parent"]))
			w.apply(t, w.admin, sp.Id, edit.Id, crEdit(ids["Mover"], "Mover, edited.\n"))
			first, second := w.get(t, sp.Id, move.Id), w.get(t, sp.Id, edit.Id)
			if !moveFirst {
				first, second = second, first
			}
			w.merge(t, w.admin, sp.Id, first.Id)
			mainBefore := w.space(t, sp.Id).Revision
			crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, second.Id), mainBefore, second)

			pages := crFlatten(w.mainPages(t, sp.Id))
			want := map[string]crFlatPage{
				ids["Parent"]: {"", "Parent", "parent"},
				ids["Mover"]:  {ids["Parent"], "Mover", "parent/mover"},
			}
			if !reflect.DeepEqual(pages, want) {
				t.Fatalf("pages %+v\nwant %+v", pages, want)
			}
			if md := w.mainMarkdown(t, sp.Id, ids["Mover"]); md != "Mover, edited.\n" {
				t.Fatalf("Mover %q", md)
			}
		})
	}

	t.Run("MovedDifferentlyIsAConflict", func(t *testing.T) {
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
		ids := w.seed(t, sp.Id, "P1", "1.\n", "P2", "2.\n", "Mover", "Mover.\n")
		a := w.create(t, w.admin, sp.Id, "a")
		b := w.create(t, w.admin, sp.Id, "b")
		w.apply(t, w.admin, sp.Id, a.Id, crMove(ids["Mover"], ids["P1"]))
		w.apply(t, w.admin, sp.Id, b.Id, crMove(ids["Mover"], ids["P2"]))
		b = w.get(t, sp.Id, b.Id)
		w.merge(t, w.admin, sp.Id, a.Id)
		crWantConflicts(t, w, sp.Id, b)
	})

	t.Run("MovedInsideEachOtherIsAConflict", func(t *testing.T) {
		sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
		ids := w.seed(t, sp.Id, "X", "X.\n", "Y", "Y.\n")
		a := w.create(t, w.admin, sp.Id, "a")
		b := w.create(t, w.admin, sp.Id, "b")
		w.apply(t, w.admin, sp.Id, a.Id, crMove(ids["X"], ids["Y"]))
		w.apply(t, w.admin, sp.Id, b.Id, crMove(ids["Y"], ids["X"]))
		b = w.get(t, sp.Id, b.Id)
		w.merge(t, w.admin, sp.Id, a.Id)
		crWantConflicts(t, w, sp.Id, b)
	})
}

func TestMergeLockedSpace(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Old.\n")
	cr := w.create(t, w.admin, sp.Id, "edit")
	applied := w.apply(t, w.admin, sp.Id, cr.Id, crEdit(ids["Intro"], "New.\n"))
	mainBefore := w.space(t, sp.Id).Revision

	var locked gen.Space
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"editMode": "locked"}).Decode(t, &locked)
	if locked.EditMode == nil || *locked.EditMode != "locked" {
		t.Fatalf("editMode %v", locked.EditMode)
	}
	r := w.Expect(t, http.StatusForbidden, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []any{crEdit(ids["Intro"], "Locked?\n")}})
	crWantMessage(t, r, "locked")
	r = w.Expect(t, http.StatusForbidden, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)
	crWantMessage(t, r, "locked")
	w.Expect(t, http.StatusForbidden, w.admin, "POST", crPath(sp.Id, cr.Id, "/update"), nil)

	if got := w.get(t, sp.Id, cr.Id); got.Revision != applied.Revision || got.Status != "open" {
		t.Fatalf("change request in a locked space: %+v", got)
	}
	if w.space(t, sp.Id).Revision != mainBefore || w.mainMarkdown(t, sp.Id, ids["Intro"]) != "Old.\n" {
		t.Fatal("the locked space's content changed")
	}

	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"editMode": "live"})
	crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, cr.Id), mainBefore, w.get(t, sp.Id, cr.Id))
	if md := w.mainMarkdown(t, sp.Id, ids["Intro"]); md != "New.\n" {
		t.Fatalf("Intro after unlocking and merging %q", md)
	}
}

func TestMergeClosedChangeRequests(t *testing.T) {
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Old.\n")
	batch := map[string]any{"changes": []any{crEdit(ids["Intro"], "Late.\n")}}

	t.Run("Merged", func(t *testing.T) {
		cr := w.create(t, w.admin, sp.Id, "merged")
		w.apply(t, w.admin, sp.Id, cr.Id, crEdit(ids["Intro"], "Merged.\n"))
		w.merge(t, w.admin, sp.Id, cr.Id)
		merged := w.get(t, sp.Id, cr.Id)
		mainAfter := w.space(t, sp.Id).Revision
		r := w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), batch)
		crWantMessage(t, r, "merged")
		r = w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)
		crWantMessage(t, r, "merged")
		w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, cr.Id, "/update"), nil)
		if got := w.get(t, sp.Id, cr.Id); !reflect.DeepEqual(got, merged) {
			t.Fatalf("refusals changed the merged change request: %+v\nwas %+v", got, merged)
		}
		if w.space(t, sp.Id).Revision != mainAfter || w.mainMarkdown(t, sp.Id, ids["Intro"]) != "Merged.\n" {
			t.Fatal("merging again changed the space")
		}
	})

	t.Run("Archived", func(t *testing.T) {
		cr := w.create(t, w.admin, sp.Id, "archived")
		w.patch(t, sp.Id, cr.Id, map[string]any{"status": "archived"})
		r := w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), batch)
		crWantMessage(t, r, "archived")
		w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)
		if got := w.get(t, sp.Id, cr.Id); got.Revision != cr.Revision || got.Status != "archived" {
			t.Fatalf("archived change request %+v", got)
		}
		// Reopened, it takes content again.
		w.patch(t, sp.Id, cr.Id, map[string]any{"status": "open"})
		w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), batch)
	})

	t.Run("DraftTakesContent", func(t *testing.T) {
		cr := w.create(t, w.admin, sp.Id, "draft")
		w.patch(t, sp.Id, cr.Id, map[string]any{"status": "draft"})
		res := w.apply(t, w.admin, sp.Id, cr.Id, crEdit(ids["Intro"], "Drafted.\n"))
		if got := w.get(t, sp.Id, cr.Id); got.Revision != res.Revision || got.Status != "draft" {
			t.Fatalf("draft after content %+v", got)
		}
	})

	t.Run("UnknownChangeRequest", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "POST", crPath(sp.Id, "nope", "/merge"), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", crPath(sp.Id, "nope", "/update"), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", crPath(sp.Id, "nope", "/content"), batch)
	})
}

func TestMergeBatchIsAtomic(t *testing.T) {
	// An invalid change rejects the whole batch: the change request keeps its revision and content.
	w := crNewWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	ids := w.seed(t, sp.Id, "Intro", "Old.\n")
	cr := w.create(t, w.admin, sp.Id, "atomic")
	r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []any{
		crEdit(ids["Intro"], "Should not land.\n"),
		crInsert("New", "New.\n", "n"),
		crEdit("no-such-page", "x"),
	}})
	crWantMessage(t, r, "changes[2]")
	if got := w.get(t, sp.Id, cr.Id); got.Revision != cr.Revision {
		t.Fatalf("a rejected batch moved the revision to %s", got.Revision)
	}
	if md := w.crMarkdown(t, sp.Id, cr.Id, ids["Intro"]); md != "Old.\n" {
		t.Fatalf("Intro %q", md)
	}
	if n := len(crFlatten(w.crPages(t, sp.Id, cr.Id))); n != 1 {
		t.Fatalf("%d pages after a rejected batch", n)
	}
	// A rejected batch makes no contributor.
	if l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests?contributor="+w.admin.ID); l.Count != 0 {
		t.Fatalf("contributor after a rejected batch: %v", crIDs(l))
	}
}

func TestMergeKeepsMainPaths(t *testing.T) {
	// Two change requests add a page with the same title: the page already in main keeps its
	// slug and path; the incoming one gives way, whichever comes first among the siblings.
	w := crNewWorld(t)
	for _, viaUpdate := range []bool{false, true} {
		name := "Merge"
		if viaUpdate {
			name = "UpdateThenMerge"
		}
		t.Run(name, func(t *testing.T) {
			sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
			w.seed(t, sp.Id, "Intro", "Intro.\n")
			a := w.create(t, w.admin, sp.Id, "a")
			b := w.create(t, w.admin, sp.Id, "b")
			ra := w.apply(t, w.admin, sp.Id, a.Id, crInsert("Guide", "A's guide.\n", "g"))
			first := crInsert("Guide", "B's guide.\n", "g")
			first["at"] = 0 // before every other page, so it comes first among the siblings
			rb := w.apply(t, w.admin, sp.Id, b.Id, first)
			w.merge(t, w.admin, sp.Id, a.Id)
			if viaUpdate {
				w.update(t, w.admin, sp.Id, b.Id)
				pages := crFlatten(w.crPages(t, sp.Id, b.Id))
				if pages[ra.Refs["g"]].Path != "guide" || pages[rb.Refs["g"]].Path != "guide-2" {
					t.Fatalf("B's pages after the update: %+v", pages)
				}
			}
			w.merge(t, w.admin, sp.Id, b.Id)
			pages := crFlatten(w.mainPages(t, sp.Id))
			if pages[ra.Refs["g"]].Path != "guide" || pages[rb.Refs["g"]].Path != "guide-2" {
				t.Fatalf("main's pages: A's guide %+v, B's guide %+v", pages[ra.Refs["g"]], pages[rb.Refs["g"]])
			}
			var byPath gen.RevisionPage
			w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/content/path/guide?format=markdown", nil).Decode(t, &byPath)
			if byPath.Id != ra.Refs["g"] || byPath.Markdown == nil || *byPath.Markdown != "A's guide.\n" {
				t.Fatalf("/content/path/guide is %s (%v), want A's", byPath.Id, byPath.Markdown)
			}
		})
	}
}
