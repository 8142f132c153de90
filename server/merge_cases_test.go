package server_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestMergeDeleteVersusEdit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)

	t.Run("MainDeletesChangeRequestEdits", func(t *testing.T) {
		sp, ids := w.spaceWithPages(t, "Doomed", "Doomed.\n", "Other", "Other.\n")
		edit := w.rivals(t, sp.Id, batch{deletePage(ids["Doomed"])}, batch{editPage(ids["Doomed"], "Rescued?\n")})
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+ids["Doomed"], nil)
		crWantConflicts(t, w, sp.Id, edit)
		r := w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, edit.Id, "/update"), nil)
		wantMessage(t, r, "deleted")
	})

	t.Run("ChangeRequestDeletesMainEdits", func(t *testing.T) {
		sp, ids := w.spaceWithPages(t, "Doomed", "Doomed.\n")
		del := w.rivals(t, sp.Id, batch{editPage(ids["Doomed"], "Edited.\n")}, batch{deletePage(ids["Doomed"])})
		crWantConflicts(t, w, sp.Id, del)
		if md := w.mainMarkdown(t, sp.Id, ids["Doomed"]); md != "Edited.\n" {
			t.Fatalf("markdown %q", md)
		}
	})

	t.Run("DeletedWhereTheOtherSideDidNotTouchIt", func(t *testing.T) {
		sp, ids := w.spaceWithPages(t, "Doomed", "Doomed.\n", "Other", "Other.\n")
		w.apply(t, w.admin, sp.Id, w.create(t, w.admin, sp.Id, "child").Id, insertMarkdown("Child", "Child.\n", "c", "into", ids["Doomed"]))
		w.merge(t, w.admin, sp.Id, "2")
		del := w.create(t, w.admin, sp.Id, "delete")
		edit := w.create(t, w.admin, sp.Id, "edit other")
		w.apply(t, w.admin, sp.Id, del.Id, deletePage(ids["Doomed"]))
		w.apply(t, w.admin, sp.Id, edit.Id, editPage(ids["Other"], "Other, edited.\n"))
		del = w.get(t, sp.Id, del.Id)
		w.merge(t, w.admin, sp.Id, edit.Id)
		mainBefore := w.space(t, sp.Id).Revision
		crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, del.Id), mainBefore, del)
		pages := flatten(w.mainPages(t, sp.Id))
		if len(pages) != 1 || pages[ids["Other"]].Title != "Other" {
			t.Fatalf("pages after deleting Doomed with its child: %+v", pages)
		}
		if md := w.mainMarkdown(t, sp.Id, ids["Other"]); md != "Other, edited.\n" {
			t.Fatalf("Other %q", md)
		}
	})

	t.Run("RewrittenWithTheSameTextIsNoEdit", func(t *testing.T) {
		sp, ids := w.spaceWithPages(t, "Doomed", "Doomed.\n", "Other", "Other.\n")
		del := w.create(t, w.admin, sp.Id, "delete")
		same := w.create(t, w.admin, sp.Id, "same text")
		w.apply(t, w.admin, sp.Id, del.Id, deletePage(ids["Doomed"]))
		// The whole document sent again, unchanged, and another page edited.
		w.apply(t, w.admin, sp.Id, same.Id, editPage(ids["Doomed"], "Doomed.\n"), editPage(ids["Other"], "Other, edited.\n"))
		same = w.get(t, sp.Id, same.Id)
		w.merge(t, w.admin, sp.Id, del.Id)
		mainBefore := w.space(t, sp.Id).Revision
		crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, same.Id), mainBefore, same)
		pages := flatten(w.mainPages(t, sp.Id))
		if len(pages) != 1 || pages[ids["Other"]].Title != "Other" {
			t.Fatalf("pages %+v", pages)
		}
	})

	t.Run("MainDeletesParentChangeRequestAddsChild", func(t *testing.T) {
		sp, ids := w.spaceWithPages(t, "Parent", "Parent.\n")
		add := w.rivals(t, sp.Id, batch{deletePage(ids["Parent"])}, batch{insertMarkdown("Child", "Child.\n", "c", "into", ids["Parent"])})
		crWantConflicts(t, w, sp.Id, add)
		w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, add.Id, "/update"), nil)
	})
}

func TestMergeMoveVersusEdit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, moveFirst := range []bool{true, false} {
		name := "EditMergedFirst"
		if moveFirst {
			name = "MoveMergedFirst"
		}
		t.Run(name, func(t *testing.T) {
			sp, ids := w.spaceWithPages(t, "Parent", "Parent.\n", "Mover", "Mover.\n")
			move := w.create(t, w.admin, sp.Id, "move")
			edit := w.create(t, w.admin, sp.Id, "edit")
			w.apply(t, w.admin, sp.Id, move.Id, movePage(ids["Mover"], ids["Parent"]))
			w.apply(t, w.admin, sp.Id, edit.Id, editPage(ids["Mover"], "Mover, edited.\n"))
			first, second := w.get(t, sp.Id, move.Id), w.get(t, sp.Id, edit.Id)
			if !moveFirst {
				first, second = second, first
			}
			w.merge(t, w.admin, sp.Id, first.Id)
			mainBefore := w.space(t, sp.Id).Revision
			crWantMerged(t, w, sp.Id, w.merge(t, w.admin, sp.Id, second.Id), mainBefore, second)

			pages := flatten(w.mainPages(t, sp.Id))
			want := map[string]flatPage{
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
		sp, ids := w.spaceWithPages(t, "P1", "1.\n", "P2", "2.\n", "Mover", "Mover.\n")
		b := w.rivals(t, sp.Id, batch{movePage(ids["Mover"], ids["P1"])}, batch{movePage(ids["Mover"], ids["P2"])})
		crWantConflicts(t, w, sp.Id, b)
	})

	t.Run("MovedInsideEachOtherIsAConflict", func(t *testing.T) {
		sp, ids := w.spaceWithPages(t, "X", "X.\n", "Y", "Y.\n")
		b := w.rivals(t, sp.Id, batch{movePage(ids["X"], ids["Y"])}, batch{movePage(ids["Y"], ids["X"])})
		crWantConflicts(t, w, sp.Id, b)
	})
}

func TestMergeLockedSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Old.\n")
	cr := w.create(t, w.admin, sp.Id, "edit")
	applied := w.apply(t, w.admin, sp.Id, cr.Id, editPage(ids["Intro"], "New.\n"))
	mainBefore := w.space(t, sp.Id).Revision

	locked := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"editMode": "locked"})
	if locked.EditMode == nil || *locked.EditMode != "locked" {
		t.Fatalf("editMode %v", locked.EditMode)
	}
	r := w.Expect(t, http.StatusForbidden, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []any{editPage(ids["Intro"], "Locked?\n")}})
	wantMessage(t, r, "locked")
	r = w.Expect(t, http.StatusForbidden, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)
	wantMessage(t, r, "locked")
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
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Old.\n")
	batch := map[string]any{"changes": []any{editPage(ids["Intro"], "Late.\n")}}

	t.Run("Merged", func(t *testing.T) {
		cr := w.create(t, w.admin, sp.Id, "merged")
		w.apply(t, w.admin, sp.Id, cr.Id, editPage(ids["Intro"], "Merged.\n"))
		w.merge(t, w.admin, sp.Id, cr.Id)
		merged := w.get(t, sp.Id, cr.Id)
		mainAfter := w.space(t, sp.Id).Revision
		r := w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), batch)
		wantMessage(t, r, "merged")
		r = w.Expect(t, http.StatusConflict, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)
		wantMessage(t, r, "merged")
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
		wantMessage(t, r, "archived")
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
		res := w.apply(t, w.admin, sp.Id, cr.Id, editPage(ids["Intro"], "Drafted.\n"))
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
	t.Parallel()
	// An invalid change rejects the whole batch: the change request keeps its revision and content.
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Old.\n")
	cr := w.create(t, w.admin, sp.Id, "atomic")
	r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []any{
		editPage(ids["Intro"], "Should not land.\n"),
		insertMarkdown("New", "New.\n", "n"),
		editPage("no-such-page", "x"),
	}})
	wantMessage(t, r, "changes[2]")
	if got := w.get(t, sp.Id, cr.Id); got.Revision != cr.Revision {
		t.Fatalf("a rejected batch moved the revision to %s", got.Revision)
	}
	if md := w.crMarkdown(t, sp.Id, cr.Id, ids["Intro"]); md != "Old.\n" {
		t.Fatalf("Intro %q", md)
	}
	if n := len(flatten(w.crPages(t, sp.Id, cr.Id))); n != 1 {
		t.Fatalf("%d pages after a rejected batch", n)
	}
	// A rejected batch makes no contributor.
	if l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests?contributor="+w.admin.ID); l.Count != 0 {
		t.Fatalf("contributor after a rejected batch: %v", idsOf(l.Items))
	}
}

func TestMergeKeepsMainPaths(t *testing.T) {
	t.Parallel()
	// Two change requests add a page with the same title: the page already in main keeps its
	// slug and path; the incoming one gives way, whichever comes first among the siblings.
	w := newWorld(t)
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
			ra := w.apply(t, w.admin, sp.Id, a.Id, insertMarkdown("Guide", "A's guide.\n", "g"))
			first := insertMarkdown("Guide", "B's guide.\n", "g")
			first["at"] = 0 // before every other page, so it comes first among the siblings
			rb := w.apply(t, w.admin, sp.Id, b.Id, first)
			w.merge(t, w.admin, sp.Id, a.Id)
			if viaUpdate {
				w.update(t, w.admin, sp.Id, b.Id)
				pages := flatten(w.crPages(t, sp.Id, b.Id))
				if pages[ra.Refs["g"]].Path != "guide" || pages[rb.Refs["g"]].Path != "guide-2" {
					t.Fatalf("B's pages after the update: %+v", pages)
				}
			}
			w.merge(t, w.admin, sp.Id, b.Id)
			pages := flatten(w.mainPages(t, sp.Id))
			if pages[ra.Refs["g"]].Path != "guide" || pages[rb.Refs["g"]].Path != "guide-2" {
				t.Fatalf("main's pages: A's guide %+v, B's guide %+v", pages[ra.Refs["g"]], pages[rb.Refs["g"]])
			}
			byPath := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/path/guide?format=markdown")
			if byPath.Id != ra.Refs["g"] || byPath.Markdown == nil || *byPath.Markdown != "A's guide.\n" {
				t.Fatalf("/content/path/guide is %s (%v), want A's", byPath.Id, byPath.Markdown)
			}
		})
	}
}
