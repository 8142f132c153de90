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
func crWantMerged(t *testing.T, w *world, spaceID string, res gen.MergeChangeRequestResult, mainBefore string, cr gen.ChangeRequest) {
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
func crWantConflicts(t *testing.T, w *world, spaceID string, cr gen.ChangeRequest) {
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
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Hello.\n", "Keep", "Untouched.\n")
	mainBefore := w.space(t, sp.Id).Revision

	cr := w.create(t, w.editor, sp.Id, "Add a guide")
	res := w.apply(t, w.editor, sp.Id, cr.Id,
		insertMarkdown("Guide", "See [setup](setup.md).\n", "guide"),
		insertMarkdown("Setup", "Install it.\n", "setup", "into", "guide"),
		editPage(ids["Intro"], "Hello, world.\n"),
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
	if n := len(flatten(w.mainPages(t, sp.Id))); n != 2 {
		t.Fatalf("main has %d pages before the merge", n)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+res.Refs["guide"], nil)

	m := w.merge(t, w.editor, sp.Id, cr.Id)
	crWantMerged(t, w, sp.Id, m, mainBefore, cr)

	pages := flatten(w.mainPages(t, sp.Id))
	want := map[string]flatPage{
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
	byPath := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/path/guide%2Fsetup?format=markdown")
	if byPath.Id != res.Refs["setup"] || byPath.Markdown == nil || *byPath.Markdown != "Install it.\n" {
		t.Fatalf("page by path %+v", byPath)
	}
	// The document form is derived from the merged markdown.
	doc := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/page/"+ids["Intro"])
	if doc.Document == nil || len(doc.Document.Nodes) == 0 {
		t.Fatalf("document of the merged Intro: %+v", doc.Document)
	}
}

func TestMergeBothSidesSameEdit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Old.\n", "Other", "Other.\n")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.editor, sp.Id, "b")
	same := []map[string]any{editPage(ids["Intro"], "The same new text.\n"), {"operation": "update_page", "page": ids["Intro"], "title": "Introduction"}}
	w.apply(t, w.admin, sp.Id, a.Id, same...)
	w.apply(t, w.editor, sp.Id, b.Id, same...)
	// B also touches another page, which A left alone.
	w.apply(t, w.editor, sp.Id, b.Id, editPage(ids["Other"], "Other, edited by B.\n"))
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
	pages := flatten(w.mainPages(t, sp.Id))
	if p := pages[ids["Intro"]]; p.Title != "Introduction" || p.Path != "intro" || len(pages) != 2 {
		t.Fatalf("pages %+v", pages)
	}
}

func TestMergeConflict(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Old.\n", "Other", "Other.\n")
	// B edits the same page differently, and another page cleanly: nothing of B may land.
	b := w.rivals(t, sp.Id, batch{editPage(ids["Intro"], "A's text.\n")},
		batch{editPage(ids["Intro"], "B's text.\n"), editPage(ids["Other"], "B's other.\n"), insertMarkdown("New in B", "New.\n", "new")})

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
		d := w.rivals(t, sp.Id, batch{map[string]any{"operation": "update_page", "page": ids["Other"], "title": "Title C"}}, batch{map[string]any{"operation": "update_page", "page": ids["Other"], "title": "Title D"}})
		crWantConflicts(t, w, sp.Id, d)
	})
}

func TestMergeUpdateWithConflict(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Old.\n")
	b := w.rivals(t, sp.Id, batch{editPage(ids["Intro"], "A's text.\n")}, batch{editPage(ids["Intro"], "B's text.\n")})
	before := w.get(t, sp.Id, b.Id)
	pagesBefore := w.crPages(t, sp.Id, b.Id)

	r := w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, b.Id, "/update"), nil)
	wantMessage(t, r, "Intro", ids["Intro"])

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
	w.apply(t, w.admin, sp.Id, b.Id, editPage(ids["Intro"], "A's text.\n"))
	if up := w.update(t, w.admin, sp.Id, b.Id); up.Result != gen.UpdateResultUpdate {
		t.Fatalf("update after resolving: %+v", up)
	}
}

func TestMergeAfterUpdate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "One", "One.\n", "Two", "Two.\n")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.editor, sp.Id, "b")
	w.apply(t, w.admin, sp.Id, a.Id, editPage(ids["One"], "One, by A.\n"))
	bres := w.apply(t, w.editor, sp.Id, b.Id, editPage(ids["Two"], "Two, by B.\n"), insertMarkdown("Three", "Three, by B.\n", "three"))
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
	if n := len(flatten(w.mainPages(t, sp.Id))); n != 3 {
		t.Fatalf("main has %d pages", n)
	}
}

func TestMergeOutdatedWithoutUpdate(t *testing.T) {
	t.Parallel()
	// Edits on different pages merge cleanly even when the change request was never updated.
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "One", "One.\n", "Two", "Two.\n")
	b := w.rivals(t, sp.Id, batch{editPage(ids["One"], "One, by A.\n"), insertMarkdown("From A", "A.\n", "x")}, batch{editPage(ids["Two"], "Two, by B.\n"), insertMarkdown("From B", "B.\n", "x")})
	mainA := w.space(t, sp.Id).Revision
	crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, b.Id), mainA, b)
	if got := w.mainMarkdown(t, sp.Id, ids["One"]); got != "One, by A.\n" {
		t.Fatalf("One %q", got)
	}
	if got := w.mainMarkdown(t, sp.Id, ids["Two"]); got != "Two, by B.\n" {
		t.Fatalf("Two %q", got)
	}
	titles := map[string]bool{}
	for _, p := range flatten(w.mainPages(t, sp.Id)) {
		titles[p.Title] = true
	}
	if !reflect.DeepEqual(titles, map[string]bool{"One": true, "Two": true, "From A": true, "From B": true}) {
		t.Fatalf("titles %v", titles)
	}
}
