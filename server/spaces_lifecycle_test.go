package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

func TestDeleteSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")

	t.Run("HiddenFromListsAndMarkedDeleted", func(t *testing.T) {
		keep := w.MustCreateSpace(t, w.admin, org, "Keep", c.Id)
		doomed := w.MustCreateSpace(t, w.admin, org, "Doomed", c.Id)
		before := w.orgSpaces(t, w.admin, org, "").Count
		w.Clock.Advance(time.Hour)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+doomed.Id, nil)

		l := w.orgSpaces(t, w.admin, org, "")
		if l.Count != before-1 || w.has(idsOf(l.Items), doomed.Id) || !w.has(idsOf(l.Items), keep.Id) {
			t.Fatalf("org list after delete: count %d (was %d), %v", l.Count, before, idsOf(l.Items))
		}
		cl := w.spacesIn(t, w.admin, c.Id, "")
		if cl.Count != 1 {
			t.Fatalf("collection count %d", cl.Count)
		}
		wantIDs(t, "collection's spaces", idsOf(cl.Items), keep.Id)
		got := w.spaceAs(t, w.admin, doomed.Id)
		if got.DeletedAt == nil || !got.DeletedAt.After(doomed.CreatedAt.Add(59*time.Minute)) {
			t.Fatalf("deletedAt = %v (created %v)", got.DeletedAt, doomed.CreatedAt)
		}
		if w.spaceAs(t, w.admin, keep.Id).DeletedAt != nil {
			t.Fatal("the sibling is deleted too")
		}
	})

	t.Run("DeletingTwiceIs204AndKeepsTheFirstDeletedAt", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Twice", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		first := w.spaceAs(t, w.admin, s.Id).DeletedAt
		w.Clock.Advance(time.Hour)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		if again := w.spaceAs(t, w.admin, s.Id).DeletedAt; again == nil || !again.Equal(*first) {
			t.Fatalf("deletedAt %v after a second delete, was %v", again, first)
		}
	})

	t.Run("UnknownIdIs204", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/nosuchspace", nil)
	})

	t.Run("ReadMemberIs403AndNothingIsDeleted", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Protected", "")
		w.Expect(t, http.StatusForbidden, w.reader, "DELETE", "/spaces/"+s.Id, nil)
		if w.spaceAs(t, w.admin, s.Id).DeletedAt != nil {
			t.Fatal("deleted by a read member")
		}
	})

	t.Run("OutsiderIsAnsweredAsForAnUnknownIdAndNothingIsDeleted", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Not theirs", c.Id)
		unknown := w.Do(t, w.outsider, "DELETE", "/spaces/nosuchspace", nil)
		r := w.Do(t, w.outsider, "DELETE", "/spaces/"+s.Id, nil)
		if r.Status != unknown.Status || string(r.Body) != string(unknown.Body) {
			t.Fatalf("outsider's delete answered %d %s, an unknown id %d %s", r.Status, r.Body, unknown.Status, unknown.Body)
		}
		if got := w.spaceAs(t, w.admin, s.Id); got.DeletedAt != nil {
			t.Fatalf("outsider deleted the space: deletedAt %v", got.DeletedAt)
		}
		if !w.has(idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), s.Id) {
			t.Fatal("space gone from its collection")
		}
	})
}

func TestRestoreSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")

	t.Run("WithinSevenDaysItComesBackAtTheEndOfItsCollection", func(t *testing.T) {
		s1 := w.MustCreateSpace(t, w.admin, org, "One", c.Id)
		s2 := w.MustCreateSpace(t, w.admin, org, "Two", c.Id)
		s3 := w.MustCreateSpace(t, w.admin, org, "Three", c.Id)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s1.Id, nil)
		w.Clock.Advance(6 * 24 * time.Hour)
		got := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+s1.Id+"/restore", nil)
		if got.Id != s1.Id || got.DeletedAt != nil || got.Parent == nil || *got.Parent != c.Id || got.Title != "One" {
			t.Fatalf("restored: %+v", got)
		}
		if re := w.spaceAs(t, w.admin, s1.Id); re.DeletedAt != nil {
			t.Fatalf("re-read deletedAt %v", re.DeletedAt)
		}
		wantIDs(t, "collection's spaces", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), s2.Id, s3.Id, s1.Id)
		if !w.has(idsOf(w.orgSpaces(t, w.admin, org, "").Items), s1.Id) {
			t.Fatal("restored space missing from the organization's list")
		}
		// Restored, it takes edits again.
		w.updateSpace(t, s1.Id, map[string]any{"title": "One again"})
	})

	t.Run("NotDeletedIs400", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Alive", "")
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/spaces/"+s.Id+"/restore", nil)
		wantMessage(t, r, "not deleted")
	})

	t.Run("AfterEightDaysIs400", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Too late", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		w.Clock.Advance(8 * 24 * time.Hour)
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/spaces/"+s.Id+"/restore", nil)
		wantMessage(t, r, "7 days")
		if re := w.spaceAs(t, w.admin, s.Id); re.DeletedAt == nil {
			t.Fatal("a refused restore undeleted the space")
		}
	})

	for _, c := range []struct {
		name   string
		u      *testUser
		status int
	}{{"ReadMemberIs403", w.reader, http.StatusForbidden}, {"OutsiderIs404", w.outsider, http.StatusNotFound}} {
		t.Run(c.name, func(t *testing.T) {
			s := w.MustCreateSpace(t, w.admin, org, "Deleted "+c.name, "")
			w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
			w.Expect(t, c.status, c.u, "POST", "/spaces/"+s.Id+"/restore", nil)
			if w.spaceAs(t, w.admin, s.Id).DeletedAt == nil {
				t.Fatalf("restored by %s", c.u.Email)
			}
		})
	}

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/nosuchspace/restore", nil)
	})
}

func TestPurgeJobRemovesSpacesDeletedMoreThanSevenDaysAgo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	ctx := context.Background()
	if err := w.Runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	alive := w.MustCreateSpace(t, w.admin, org, "Alive", "")
	old := w.MustCreateSpace(t, w.admin, org, "Old", "")
	recent := w.MustCreateSpace(t, w.admin, org, "Recent", "")
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+old.Id, nil)

	t.Run("ARunBeforeTheWindowEndsKeepsIt", func(t *testing.T) {
		if _, err := w.Runner.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		if w.spaceAs(t, w.admin, old.Id).DeletedAt == nil {
			t.Fatal("deletedAt lost")
		}
	})

	t.Run("EightDaysLaterItIsGoneButARecentOneStays", func(t *testing.T) {
		w.Clock.Advance(8 * 24 * time.Hour)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+recent.Id, nil)
		n, err := w.Runner.RunDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("no job ran")
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+old.Id, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/"+old.Id+"/restore", nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+old.Id, nil)
		if got := w.spaceAs(t, w.admin, recent.Id); got.DeletedAt == nil {
			t.Fatal("recently deleted space lost its deletedAt")
		}
		if got := w.spaceAs(t, w.admin, alive.Id); got.DeletedAt != nil {
			t.Fatal("live space deleted")
		}
		wantIDs(t, "org spaces", idsOf(w.orgSpaces(t, w.admin, org, "").Items), alive.Id)
	})

	t.Run("TheJobRecursSoALaterDeletionIsPurgedToo", func(t *testing.T) {
		w.Clock.Advance(8 * 24 * time.Hour)
		if _, err := w.Runner.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+recent.Id, nil)
		w.spaceAs(t, w.admin, alive.Id)
	})
}

func TestDuplicateSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
	a := w.MustCreateSpace(t, w.admin, org, "A", c.Id)
	b := w.MustCreateSpace(t, w.admin, org, "B", c.Id)
	z := w.MustCreateSpace(t, w.admin, org, "Z", c.Id)
	b = w.updateSpace(t, b.Id, map[string]any{
		"emoji": "📙", "language": "fr", "editMode": "locked", "defaultLevel": "comment",
		"mergeRules": map[string]any{"type": "rules", "rules": []any{
			map[string]any{"rule": "require_specific_reviewers", "users": []string{w.admin.ID}},
		}},
	})

	var dup gen.Space
	t.Run("CopiesSettingsIntoANewSpaceRightAfterTheOriginal", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+b.Id+"/duplicate", nil).Decode(t, &dup)
		if dup.Id == "" || dup.Id == b.Id {
			t.Fatalf("duplicate id %q (original %q)", dup.Id, b.Id)
		}
		if dup.Title != "B (copy)" || dup.Emoji != "📙" || dup.Language == nil || *dup.Language != "fr" ||
			dup.EditMode == nil || *dup.EditMode != "locked" || w.level(dup.DefaultLevel) != "comment" ||
			dup.Organization != org || dup.Parent == nil || *dup.Parent != c.Id || dup.DeletedAt != nil {
			t.Fatalf("duplicate %+v", dup)
		}
		if dup.MergeRules.Type != "rules" || dup.MergeRules.Rules == nil || len(*dup.MergeRules.Rules) != 1 ||
			(*(*dup.MergeRules.Rules)[0].Users)[0] != w.admin.ID {
			t.Fatalf("duplicate's mergeRules %+v", dup.MergeRules)
		}
		if re := w.spaceAs(t, w.admin, dup.Id); re.Title != dup.Title || *re.Language != "fr" {
			t.Fatalf("re-read duplicate %+v", re)
		}
		l := w.spacesIn(t, w.admin, c.Id, "")
		if l.Count != 4 {
			t.Fatalf("collection count %d", l.Count)
		}
		wantIDs(t, "collection's spaces", idsOf(l.Items), a.Id, b.Id, dup.Id, z.Id)
		if orig := w.spaceAs(t, w.admin, b.Id); orig.Title != "B" || orig.DeletedAt != nil {
			t.Fatalf("original changed: %+v", orig)
		}
	})

	t.Run("ASecondDuplicateGoesRightAfterTheOriginalToo", func(t *testing.T) {
		again := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+b.Id+"/duplicate", nil)
		wantIDs(t, "collection's spaces", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), a.Id, b.Id, again.Id, dup.Id, z.Id)
	})

	t.Run("AtTheTopLevel", func(t *testing.T) {
		top := w.MustCreateSpace(t, w.admin, org, "Top", "")
		before := w.orgSpaces(t, w.admin, org, "").Count
		d := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+top.Id+"/duplicate", nil)
		if d.Parent != nil || d.Title != "Top (copy)" {
			t.Fatalf("duplicate %+v", d)
		}
		l := w.orgSpaces(t, w.admin, org, "")
		if l.Count != before+1 || !w.has(idsOf(l.Items), d.Id) {
			t.Fatalf("org list: count %d (was %d)", l.Count, before)
		}
	})

	t.Run("ALongTitleStaysWithin50Characters", func(t *testing.T) {
		long := w.MustCreateSpace(t, w.admin, org, strings.Repeat("L", 50), "")
		d := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+long.Id+"/duplicate", nil)
		if n := len([]rune(d.Title)); n == 0 || n > 50 {
			t.Fatalf("duplicate title %q (%d characters)", d.Title, n)
		}
	})

	t.Run("DeletedSpaceIs404", func(t *testing.T) {
		gone := w.MustCreateSpace(t, w.admin, org, "Gone", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone.Id, nil)
		before := w.orgSpaces(t, w.admin, org, "").Count
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/"+gone.Id+"/duplicate", nil)
		if after := w.orgSpaces(t, w.admin, org, "").Count; after != before {
			t.Fatalf("spaces %d -> %d", before, after)
		}
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		before := w.spacesIn(t, w.admin, c.Id, "").Count
		w.Expect(t, http.StatusForbidden, w.reader, "POST", "/spaces/"+b.Id+"/duplicate", nil)
		if after := w.spacesIn(t, w.admin, c.Id, "").Count; after != before {
			t.Fatalf("spaces %d -> %d", before, after)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", "/spaces/"+b.Id+"/duplicate", nil)
		if l := w.orgSpaces(t, w.outsider, w.other.Id, ""); l.Count != 0 {
			t.Fatalf("outsider's organization now has %d spaces", l.Count)
		}
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/nosuchspace/duplicate", nil)
	})
}
