package server_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestChangeRequestLists(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.MustCreateSpace(t, w.admin, w.org.Id, "A", "")
	b := w.MustCreateSpace(t, w.admin, w.org.Id, "B", "")
	outside := w.MustCreateSpace(t, w.outsider, w.other.Id, "Outside", "")

	cr1 := w.create(t, w.admin, a.Id, "one")            // open; the editor writes content to it
	cr2 := w.create(t, w.editor, a.Id, "two")           // open
	cr3 := w.create(t, w.admin, a.Id, "three")          // draft
	cr4 := w.create(t, w.admin, a.Id, "four")           // archived
	cr5 := w.create(t, w.editor, b.Id, "five")          // open, other space
	cr6 := w.create(t, w.admin, a.Id, "six")            // merged
	away := w.create(t, w.outsider, outside.Id, "away") // another organization
	w.apply(t, w.editor, a.Id, cr1.Id, insertMarkdown("Page", "Text.\n", "p"))
	w.patch(t, a.Id, cr3.Id, map[string]any{"status": "draft"})
	w.patch(t, a.Id, cr4.Id, map[string]any{"status": "archived"})
	w.merge(t, w.admin, a.Id, cr6.Id)

	sp := "/spaces/" + a.Id + "/change-requests"
	t.Run("SpaceDefaultsToOpenNewestFirst", func(t *testing.T) {
		wantList(t, "default", w.list(t, w.admin, sp), 2, cr2.Id, cr1.Id)
		wantList(t, "status=open", w.list(t, w.admin, sp+"?status=open"), 2, cr2.Id, cr1.Id)
		wantList(t, "reader", w.list(t, w.reader, sp), 2, cr2.Id, cr1.Id)
	})

	t.Run("SpaceByStatus", func(t *testing.T) {
		wantList(t, "draft", w.list(t, w.admin, sp+"?status=draft"), 1, cr3.Id)
		wantList(t, "archived", w.list(t, w.admin, sp+"?status=archived"), 1, cr4.Id)
		wantList(t, "merged", w.list(t, w.admin, sp+"?status=merged"), 1, cr6.Id)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", sp+"?status=closed", nil)
	})

	t.Run("SpaceByCreatorContributorReviewer", func(t *testing.T) {
		wantList(t, "creator=editor", w.list(t, w.admin, sp+"?creator="+w.editor.ID), 1, cr2.Id)
		wantList(t, "creator=admin", w.list(t, w.admin, sp+"?creator="+w.admin.ID), 1, cr1.Id)
		wantList(t, "creator=admin&status=draft", w.list(t, w.admin, sp+"?status=draft&creator="+w.admin.ID), 1, cr3.Id)
		wantList(t, "creator=reader", w.list(t, w.admin, sp+"?creator="+w.reader.ID), 0)
		wantList(t, "contributor=editor", w.list(t, w.admin, sp+"?contributor="+w.editor.ID), 1, cr1.Id)
		wantList(t, "contributor=admin", w.list(t, w.admin, sp+"?contributor="+w.admin.ID), 0)
		wantList(t, "requestedReviewer", w.list(t, w.admin, sp+"?requestedReviewer="+w.admin.ID), 0)
		wantList(t, "conversationsIssuesCluster", w.list(t, w.admin, sp+"?conversationsIssuesCluster=c1"), 0)
	})

	t.Run("SpacePaging", func(t *testing.T) {
		p1 := w.list(t, w.admin, sp+"?limit=1")
		wantList(t, "page 1", p1, 2, cr2.Id)
		if p1.Next == nil || p1.Next.Page == "" {
			t.Fatalf("page 1 has no next: %+v", p1)
		}
		p2 := w.list(t, w.admin, sp+"?limit=1&page="+url.QueryEscape(p1.Next.Page))
		wantList(t, "page 2", p2, 2, cr1.Id)
		if p2.Next != nil {
			t.Fatalf("page 2 has next %+v", p2.Next)
		}
		if l := w.list(t, w.admin, sp+"?limit=2"); l.Next != nil {
			t.Fatalf("a full page has next %+v", l.Next)
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", sp+"?limit=0", nil)
	})

	t.Run("SpaceAccess", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", sp, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/nope/change-requests", nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", sp, nil)
	})

	org := "/orgs/" + w.org.Id + "/change-requests"
	t.Run("OrganizationAcrossSpaces", func(t *testing.T) {
		wantList(t, "org default", w.list(t, w.admin, org), 3, cr5.Id, cr2.Id, cr1.Id)
		wantList(t, "org reader", w.list(t, w.reader, org), 3, cr5.Id, cr2.Id, cr1.Id)
		wantList(t, "org draft", w.list(t, w.admin, org+"?status=draft"), 1, cr3.Id)
		wantList(t, "org merged", w.list(t, w.admin, org+"?status=merged"), 1, cr6.Id)
		wantList(t, "org creator=editor", w.list(t, w.admin, org+"?creator="+w.editor.ID), 2, cr5.Id, cr2.Id)
		wantList(t, "org contributor=editor", w.list(t, w.admin, org+"?contributor="+w.editor.ID), 1, cr1.Id)
		wantList(t, "org requestedReviewer", w.list(t, w.admin, org+"?requestedReviewer="+w.editor.ID), 0)
		p1 := w.list(t, w.admin, org+"?limit=2")
		wantList(t, "org page 1", p1, 3, cr5.Id, cr2.Id)
		if p1.Next == nil {
			t.Fatal("org page 1 has no next")
		}
		wantList(t, "org page 2", w.list(t, w.admin, org+"?limit=2&page="+url.QueryEscape(p1.Next.Page)), 3, cr1.Id)
	})

	t.Run("OrganizationGuestSeesNoneOutsiderNotFound", func(t *testing.T) {
		wantList(t, "guest", w.list(t, w.guest, org), 0)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", org, nil)
		wantList(t, "outsider's own org", w.list(t, w.outsider, "/orgs/"+w.other.Id+"/change-requests"), 1, away.Id)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.other.Id+"/change-requests", nil)
	})

	t.Run("OrganizationDropsDeletedSpaces", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+b.Id, nil)
		wantList(t, "after deleting B", w.list(t, w.admin, org), 2, cr2.Id, cr1.Id)
	})
}

func TestChangeRequestSpaceCounters(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	if sp.ChangeRequests != 0 || sp.ChangeRequestsOpen != 0 || sp.ChangeRequestsDraft != 0 {
		t.Fatalf("a new space counts %d/%d/%d", sp.ChangeRequests, sp.ChangeRequestsOpen, sp.ChangeRequestsDraft)
	}
	a := w.create(t, w.admin, sp.Id, "a")
	crWantCounters(t, w, sp.Id, 1, 1, 0)
	b := w.create(t, w.admin, sp.Id, "b")
	crWantCounters(t, w, sp.Id, 2, 2, 0)
	w.patch(t, sp.Id, a.Id, map[string]any{"status": "draft"})
	crWantCounters(t, w, sp.Id, 2, 1, 1)
	w.patch(t, sp.Id, b.Id, map[string]any{"status": "archived"})
	crWantCounters(t, w, sp.Id, 2, 0, 1)
	w.patch(t, sp.Id, a.Id, map[string]any{"status": "open"})
	crWantCounters(t, w, sp.Id, 2, 1, 0)
	w.patch(t, sp.Id, a.Id, map[string]any{"subject": "no status change"})
	crWantCounters(t, w, sp.Id, 2, 1, 0)
	w.apply(t, w.admin, sp.Id, a.Id, insertMarkdown("Page", "Text.\n", "p"))
	w.merge(t, w.admin, sp.Id, a.Id)
	crWantCounters(t, w, sp.Id, 2, 0, 0)
	w.patch(t, sp.Id, b.Id, map[string]any{"status": "draft"})
	crWantCounters(t, w, sp.Id, 2, 0, 1)
	w.create(t, w.admin, sp.Id, "c")
	crWantCounters(t, w, sp.Id, 3, 1, 1)
	// The list of spaces carries the same counters.
	l := getJSON[gen.SpaceList](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/spaces")
	if len(l.Items) != 1 || l.Items[0].ChangeRequests != 3 || l.Items[0].ChangeRequestsOpen != 1 || l.Items[0].ChangeRequestsDraft != 1 {
		t.Fatalf("listed space %+v", l.Items)
	}
}

func TestChangeRequestOutdated(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	a := w.create(t, w.admin, sp.Id, "a")
	b := w.create(t, w.admin, sp.Id, "b")
	if a.Outdated || b.Outdated {
		t.Fatal("fresh change requests are outdated")
	}
	w.apply(t, w.admin, sp.Id, a.Id, insertMarkdown("From A", "A wrote this.\n", "a"))
	if w.get(t, sp.Id, a.Id).Outdated || w.get(t, sp.Id, b.Id).Outdated {
		t.Fatal("a change request's own content makes change requests outdated")
	}
	w.merge(t, w.admin, sp.Id, a.Id)
	main := w.space(t, sp.Id).Revision

	bb := w.get(t, sp.Id, b.Id)
	if !bb.Outdated || bb.RevisionInitial != sp.Revision || bb.RevisionMergedAncestor != nil {
		t.Fatalf("after another merge: outdated %v, initial %q, ancestor %v", bb.Outdated, bb.RevisionInitial, bb.RevisionMergedAncestor)
	}
	if l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests"); len(l.Items) != 1 || !l.Items[0].Outdated {
		t.Fatalf("listed %+v", l.Items)
	}
	if am := w.get(t, sp.Id, a.Id); am.Outdated {
		t.Fatal("the merged change request is outdated")
	}
	c := w.create(t, w.admin, sp.Id, "c")
	if c.Outdated || c.RevisionInitial != main {
		t.Fatalf("created after the merge: outdated %v initial %q, want %q", c.Outdated, c.RevisionInitial, main)
	}

	res := w.update(t, w.admin, sp.Id, b.Id)
	if res.Result != gen.UpdateResultUpdate || res.Revision == bb.Revision {
		t.Fatalf("update answered %+v (revision before %q)", res, bb.Revision)
	}
	bu := w.get(t, sp.Id, b.Id)
	if bu.Outdated || bu.Revision != res.Revision || bu.RevisionMergedAncestor == nil || *bu.RevisionMergedAncestor != main || bu.RevisionInitial != sp.Revision {
		t.Fatalf("after update: outdated %v revision %q ancestor %v initial %q; want revision %q ancestor %q",
			bu.Outdated, bu.Revision, bu.RevisionMergedAncestor, bu.RevisionInitial, res.Revision, main)
	}
	// The update pulled A's page into B.
	if pages := w.crPages(t, sp.Id, b.Id); len(pages) != 1 || pages[0].Title != "From A" {
		t.Fatalf("B's pages after update: %+v", pages)
	}
	// Updating again is a no-op that answers the same revision.
	if again := w.update(t, w.admin, sp.Id, b.Id); again.Revision != res.Revision || again.Result != gen.UpdateResultUpdate {
		t.Fatalf("second update: %+v, want revision %q", again, res.Revision)
	}
	// A draft is outdated too once main moves; an archived one is not reported outdated.
	w.patch(t, sp.Id, c.Id, map[string]any{"status": "draft"})
	d := w.create(t, w.admin, sp.Id, "d")
	w.apply(t, w.admin, sp.Id, d.Id, insertMarkdown("From D", "D.\n", "d"))
	w.merge(t, w.admin, sp.Id, d.Id)
	if cd := w.get(t, sp.Id, c.Id); !cd.Outdated || cd.Status != "draft" {
		t.Fatalf("draft after another merge: %+v", cd)
	}
	if bo := w.get(t, sp.Id, b.Id); !bo.Outdated {
		t.Fatal("B is not outdated once main moved past its update")
	}
}

func TestChangeRequestPermissions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Intro", "Hello.\n")
	mainBefore := w.space(t, sp.Id).Revision

	cr := w.create(t, w.editor, sp.Id, "By the editor")
	if cr.CreatedBy.Id != w.editor.ID {
		t.Fatalf("createdBy %s", cr.CreatedBy.Id)
	}
	applied := w.apply(t, w.editor, sp.Id, cr.Id, editPage(ids["Intro"], "Edited by the editor.\n"))

	t.Run("ReaderCannotWrite", func(t *testing.T) {
		for _, op := range []struct {
			method, path string
			body         any
		}{
			{"POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []any{editPage(ids["Intro"], "Reader.\n")}}},
			{"POST", crPath(sp.Id, cr.Id, "/merge"), nil},
			{"POST", crPath(sp.Id, cr.Id, "/update"), nil},
			{"PATCH", crPath(sp.Id, cr.Id), map[string]any{"subject": "Reader"}},
		} {
			r := w.Expect(t, http.StatusForbidden, w.reader, op.method, op.path, op.body)
			r.ErrorMessage(t)
			w.Expect(t, http.StatusNotFound, w.outsider, op.method, op.path, op.body)
		}
		got := w.get(t, sp.Id, cr.Id)
		if got.Revision != applied.Revision || got.Status != "open" || got.Subject != "By the editor" {
			t.Fatalf("refused writes changed the change request: %+v", got)
		}
		if w.space(t, sp.Id).Revision != mainBefore {
			t.Fatal("a refused merge moved the space")
		}
		if md := w.crMarkdown(t, sp.Id, cr.Id, ids["Intro"]); md != "Edited by the editor.\n" {
			t.Fatalf("markdown %q", md)
		}
	})

	t.Run("ReaderReads", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.reader, "GET", crPath(sp.Id, cr.Id), nil)
		w.Expect(t, http.StatusOK, w.reader, "GET", crPath(sp.Id, cr.Id, "/content"), nil)
		w.Expect(t, http.StatusOK, w.reader, "GET", "/spaces/"+sp.Id+"/change-requests", nil)
	})

	t.Run("EditorUpdatesAndMerges", func(t *testing.T) {
		other := w.create(t, w.admin, sp.Id, "Other")
		w.apply(t, w.admin, sp.Id, other.Id, insertMarkdown("Other page", "Other.\n", "o"))
		w.merge(t, w.admin, sp.Id, other.Id)
		if up := w.update(t, w.editor, sp.Id, cr.Id); up.Result != gen.UpdateResultUpdate {
			t.Fatalf("editor's update %+v", up)
		}
		res := w.merge(t, w.editor, sp.Id, cr.Id)
		if res.Result != gen.MergeResultMerge || w.space(t, sp.Id).Revision != res.Revision {
			t.Fatalf("editor's merge %+v", res)
		}
		if md := w.mainMarkdown(t, sp.Id, ids["Intro"]); md != "Edited by the editor.\n" {
			t.Fatalf("merged markdown %q", md)
		}
		if l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests?status=merged&contributor="+w.editor.ID); l.Count != 1 || l.Items[0].Id != cr.Id {
			t.Fatalf("merged contributed by the editor: %+v", idsOf(l.Items))
		}
	})
}
