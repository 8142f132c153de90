package server_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

// updateSpace patches a space as the admin, which must answer 200.
func (w *contentWorld) updateSpace(t *testing.T, id string, body map[string]any) gen.Space {
	t.Helper()
	var sp gen.Space
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+id, body).Decode(t, &sp)
	return sp
}

// moveSpace moves a space as the admin and returns the response, whatever its status.
func (w *contentWorld) moveSpace(t *testing.T, id string, body map[string]any) *response {
	t.Helper()
	return w.Do(t, w.admin, "POST", "/spaces/"+id+"/move", body)
}

func (w *contentWorld) wantStatus(t *testing.T, r *response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
}

func spaceBefore(id string) map[string]any {
	return map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": id}}}
}

func spaceAfter(id string) map[string]any {
	return map[string]any{"position": map[string]any{"after": map[string]any{"type": "space", "space": id}}}
}

func TestCreateSpace(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id

	t.Run("TitleOf50CharactersIsCreatedWithDefaults", func(t *testing.T) {
		title := strings.Repeat("s", 50)
		var sp gen.Space
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": title}).Decode(t, &sp)
		if sp.Object != "space" || sp.Id == "" || sp.Title != title || sp.Organization != org || sp.Parent != nil {
			t.Fatalf("created %+v", sp)
		}
		if sp.EditMode == nil || *sp.EditMode != "live" || sp.Visibility != "private" || sp.Emoji != "" || sp.DeletedAt != nil {
			t.Fatalf("defaults: editMode %v, visibility %s, emoji %q, deletedAt %v", sp.EditMode, sp.Visibility, sp.Emoji, sp.DeletedAt)
		}
		if sp.MergeRules.Type != "inherit" || sp.Revision == "" || sp.CreatedAt.IsZero() || !sp.UpdatedAt.Equal(sp.CreatedAt) {
			t.Fatalf("mergeRules %+v, revision %q, createdAt %v, updatedAt %v", sp.MergeRules, sp.Revision, sp.CreatedAt, sp.UpdatedAt)
		}
		if sp.Urls.Location != testBaseURL+"/v1/spaces/"+sp.Id {
			t.Fatalf("urls.location = %q", sp.Urls.Location)
		}
		p := sp.Permissions
		if !p.View || !p.Access || !p.Admin || !p.Edit || !p.Comment || !p.Merge || !p.Review || !p.ViewInviteLinks {
			t.Fatalf("creator's permissions = %+v", p)
		}
		got := w.space(t, w.admin, sp.Id)
		if got.Title != title || got.Revision != sp.Revision || !got.CreatedAt.Equal(sp.CreatedAt) {
			t.Fatalf("re-read %+v", got)
		}
		if !w.has(w.spaceIDs(w.orgSpaces(t, w.admin, org, "").Items), sp.Id) {
			t.Fatal("new space missing from the organization's list")
		}
	})

	t.Run("TitleOf51CharactersIs400NamingTitle", func(t *testing.T) {
		before := w.orgSpaces(t, w.admin, org, "").Count
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": strings.Repeat("s", 51)})
		w.wantMessage(t, r, "title")
		if after := w.orgSpaces(t, w.admin, org, "").Count; after != before {
			t.Fatalf("spaces %d -> %d after a refused create", before, after)
		}
	})

	t.Run("NoBodyCreatesUntitled", func(t *testing.T) {
		var sp gen.Space
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/spaces", nil).Decode(t, &sp)
		if sp.Title != "Untitled" {
			t.Fatalf("title = %q", sp.Title)
		}
	})

	t.Run("InACollectionAtTheEnd", func(t *testing.T) {
		c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
		first := w.MustCreateSpace(t, w.admin, org, "First", c.Id)
		var sp gen.Space
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/spaces",
			map[string]any{"title": "Second", "parent": c.Id}).Decode(t, &sp)
		if sp.Parent == nil || *sp.Parent != c.Id {
			t.Fatalf("parent = %v", sp.Parent)
		}
		if got := w.space(t, w.admin, sp.Id); got.Parent == nil || *got.Parent != c.Id {
			t.Fatalf("re-read parent = %v", got.Parent)
		}
		w.wantIDs(t, "collection's spaces", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), first.Id, sp.Id)
	})

	t.Run("WithEmojiLanguageAndEditMode", func(t *testing.T) {
		var sp gen.Space
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{
			"title": "Handbuch", "emoji": "📘", "language": "de", "editMode": "locked",
		}).Decode(t, &sp)
		check := func(what string, sp gen.Space) {
			t.Helper()
			if sp.Emoji != "📘" || sp.Language == nil || *sp.Language != "de" || sp.EditMode == nil || *sp.EditMode != "locked" {
				t.Fatalf("%s: emoji %q, language %v, editMode %v", what, sp.Emoji, sp.Language, sp.EditMode)
			}
		}
		check("created", sp)
		check("re-read", w.space(t, w.admin, sp.Id))
	})

	t.Run("UnknownLanguageIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "X", "language": "klingon"})
		w.wantMessage(t, r, "language")
	})

	t.Run("UnknownEditModeIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "X", "editMode": "frozen"})
		w.wantMessage(t, r, "editMode")
	})

	t.Run("UnknownParentIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "X", "parent": "nosuchcollection"})
		w.wantMessage(t, r, "parent")
	})

	t.Run("ParentInAnotherOrganizationIs400", func(t *testing.T) {
		theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "X", "parent": theirs.Id})
		w.wantMessage(t, r, "parent")
		if l := w.spacesIn(t, w.outsider, theirs.Id, ""); l.Count != 0 {
			t.Fatalf("their collection has %d spaces", l.Count)
		}
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		before := w.orgSpaces(t, w.admin, org, "").Count
		w.Expect(t, http.StatusForbidden, w.reader, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "Mine"})
		if after := w.orgSpaces(t, w.admin, org, "").Count; after != before {
			t.Fatalf("spaces %d -> %d", before, after)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "Mine"})
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "Mine"})
	})
}

func TestGetSpace(t *testing.T) {
	w := newContentWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")

	t.Run("AdminReadsIt", func(t *testing.T) {
		got := w.space(t, w.admin, sp.Id)
		if got.Id != sp.Id || got.Title != "Docs" || got.Organization != w.org.Id || !got.Permissions.Admin {
			t.Fatalf("got %+v", got)
		}
	})

	t.Run("ReadMemberCanViewButNotEdit", func(t *testing.T) {
		p := w.space(t, w.reader, sp.Id).Permissions
		if !p.View || !p.Access {
			t.Fatalf("read member cannot view: %+v", p)
		}
		if p.Edit || p.Comment || p.Merge || p.Review || p.Admin || p.ViewInviteLinks || p.TriggerGitSync || p.InstallIntegration {
			t.Fatalf("read member has more than read: %+v", p)
		}
	})

	t.Run("GuestMemberIs403", func(t *testing.T) {
		r := w.Expect(t, http.StatusForbidden, w.guest, "GET", "/spaces/"+sp.Id, nil)
		if r.ErrorMessage(t) == "" {
			t.Fatal("403 without a message")
		}
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/nosuchspace", nil)
	})

	t.Run("OutsiderIs404LikeAnUnknownId", func(t *testing.T) {
		r := w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id, nil)
		unknown := w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/nosuchspace", nil)
		if r.ErrorMessage(t) != unknown.ErrorMessage(t) {
			t.Fatalf("outsider told %q, unknown id told %q", r.ErrorMessage(t), unknown.ErrorMessage(t))
		}
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", "/spaces/"+sp.Id, nil)
	})
}

func TestUpdateSpace(t *testing.T) {
	w := newContentWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	path := "/spaces/" + sp.Id

	t.Run("Title", func(t *testing.T) {
		w.Clock.Advance(time.Minute)
		got := w.updateSpace(t, sp.Id, map[string]any{"title": "Documentation"})
		if got.Title != "Documentation" || !got.UpdatedAt.After(sp.UpdatedAt) || !got.CreatedAt.Equal(sp.CreatedAt) {
			t.Fatalf("title %q, updatedAt %v (was %v), createdAt %v", got.Title, got.UpdatedAt, sp.UpdatedAt, got.CreatedAt)
		}
		if re := w.space(t, w.admin, sp.Id); re.Title != "Documentation" {
			t.Fatalf("re-read title %q", re.Title)
		}
	})

	t.Run("TitleOf51CharactersIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"title": strings.Repeat("t", 51)})
		w.wantMessage(t, r, "title")
		if re := w.space(t, w.admin, sp.Id); re.Title != "Documentation" {
			t.Fatalf("title = %q", re.Title)
		}
	})

	t.Run("EmojiEditModeAndLanguage", func(t *testing.T) {
		got := w.updateSpace(t, sp.Id, map[string]any{"emoji": "🚀", "editMode": "locked", "language": "ja"})
		for what, s := range map[string]gen.Space{"answered": got, "re-read": w.space(t, w.admin, sp.Id)} {
			if s.Emoji != "🚀" || s.EditMode == nil || *s.EditMode != "locked" || s.Language == nil || *s.Language != "ja" || s.Title != "Documentation" {
				t.Fatalf("%s: emoji %q, editMode %v, language %v, title %q", what, s.Emoji, s.EditMode, s.Language, s.Title)
			}
		}
		// Back to live, the other fields untouched.
		got = w.updateSpace(t, sp.Id, map[string]any{"editMode": "live"})
		if *got.EditMode != "live" || got.Emoji != "🚀" || *got.Language != "ja" {
			t.Fatalf("after editMode live: %+v", got)
		}
	})

	t.Run("DefaultLevelSetThenLeftAloneThenNulled", func(t *testing.T) {
		if got := w.updateSpace(t, sp.Id, map[string]any{"defaultLevel": "edit"}); w.level(got.DefaultLevel) != "edit" {
			t.Fatalf("defaultLevel = %s", w.level(got.DefaultLevel))
		}
		if p := w.space(t, w.reader, sp.Id).Permissions; !p.Edit || !p.Comment || !p.Merge || p.Review || p.Admin {
			t.Fatalf("read member on an edit-level space: %+v", p)
		}
		if got := w.updateSpace(t, sp.Id, map[string]any{"emoji": "📗"}); w.level(got.DefaultLevel) != "edit" {
			t.Fatalf("defaultLevel = %s after an update without it", w.level(got.DefaultLevel))
		}
		if got := w.updateSpace(t, sp.Id, map[string]any{"defaultLevel": nil}); w.level(got.DefaultLevel) != "null" {
			t.Fatalf("defaultLevel = %s after null", w.level(got.DefaultLevel))
		}
		if re := w.space(t, w.admin, sp.Id); w.level(re.DefaultLevel) != "null" || re.Emoji != "📗" {
			t.Fatalf("re-read defaultLevel %s, emoji %q", w.level(re.DefaultLevel), re.Emoji)
		}
		if p := w.space(t, w.reader, sp.Id).Permissions; p.Edit || !p.View {
			t.Fatalf("read member on a no-level space: %+v", p)
		}
	})

	t.Run("MergeRulesRulesThenInherit", func(t *testing.T) {
		got := w.updateSpace(t, sp.Id, map[string]any{"mergeRules": map[string]any{
			"type":  "rules",
			"rules": []any{map[string]any{"rule": "require_specific_reviewers", "users": []string{w.reader.ID, w.admin.ID}}},
		}})
		for what, s := range map[string]gen.Space{"answered": got, "re-read": w.space(t, w.admin, sp.Id)} {
			m := s.MergeRules
			if m.Type != "rules" || m.Rules == nil || len(*m.Rules) != 1 {
				t.Fatalf("%s: mergeRules %+v", what, m)
			}
			r := (*m.Rules)[0]
			if r.Rule != "require_specific_reviewers" || len(r.Users) != 2 || r.Users[0] != w.reader.ID || r.Users[1] != w.admin.ID {
				t.Fatalf("%s: rule %+v", what, r)
			}
		}
		got = w.updateSpace(t, sp.Id, map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		if got.MergeRules.Type != "inherit" || got.MergeRules.Rules != nil {
			t.Fatalf("after inherit: %+v", got.MergeRules)
		}
		if re := w.space(t, w.admin, sp.Id); re.MergeRules.Type != "inherit" {
			t.Fatalf("re-read mergeRules %+v", re.MergeRules)
		}
	})

	t.Run("MergeRulesOfTypeRulesWithoutRulesIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"mergeRules": map[string]any{"type": "rules"}})
		w.wantMessage(t, r, "mergeRules.rules")
		if re := w.space(t, w.admin, sp.Id); re.MergeRules.Type != "inherit" {
			t.Fatalf("mergeRules changed by a refused update: %+v", re.MergeRules)
		}
	})

	t.Run("UnknownFieldIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"visibility": "public"})
		w.wantMessage(t, r, "visibility")
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "PATCH", path, map[string]any{"title": "Hijacked"})
		if re := w.space(t, w.admin, sp.Id); re.Title != "Documentation" {
			t.Fatalf("title = %q", re.Title)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "PATCH", path, map[string]any{"title": "Hijacked"})
		if re := w.space(t, w.admin, sp.Id); re.Title != "Documentation" {
			t.Fatalf("title = %q", re.Title)
		}
	})

	t.Run("DeletedSpaceIs404", func(t *testing.T) {
		gone := w.MustCreateSpace(t, w.admin, w.org.Id, "Gone", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone.Id, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", "/spaces/"+gone.Id, map[string]any{"title": "Back"})
		if re := w.space(t, w.admin, gone.Id); re.Title != "Gone" {
			t.Fatalf("deleted space's title = %q", re.Title)
		}
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", "/spaces/nosuchspace", map[string]any{"title": "X"})
	})
}

func TestDeleteSpace(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")

	t.Run("HiddenFromListsAndMarkedDeleted", func(t *testing.T) {
		keep := w.MustCreateSpace(t, w.admin, org, "Keep", c.Id)
		doomed := w.MustCreateSpace(t, w.admin, org, "Doomed", c.Id)
		before := w.orgSpaces(t, w.admin, org, "").Count
		w.Clock.Advance(time.Hour)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+doomed.Id, nil)

		l := w.orgSpaces(t, w.admin, org, "")
		if l.Count != before-1 || w.has(w.spaceIDs(l.Items), doomed.Id) || !w.has(w.spaceIDs(l.Items), keep.Id) {
			t.Fatalf("org list after delete: count %d (was %d), %v", l.Count, before, w.spaceIDs(l.Items))
		}
		cl := w.spacesIn(t, w.admin, c.Id, "")
		if cl.Count != 1 {
			t.Fatalf("collection count %d", cl.Count)
		}
		w.wantIDs(t, "collection's spaces", w.spaceIDs(cl.Items), keep.Id)
		got := w.space(t, w.admin, doomed.Id)
		if got.DeletedAt == nil || !got.DeletedAt.After(doomed.CreatedAt.Add(59*time.Minute)) {
			t.Fatalf("deletedAt = %v (created %v)", got.DeletedAt, doomed.CreatedAt)
		}
		if w.space(t, w.admin, keep.Id).DeletedAt != nil {
			t.Fatal("the sibling is deleted too")
		}
	})

	t.Run("DeletingTwiceIs204AndKeepsTheFirstDeletedAt", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Twice", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		first := w.space(t, w.admin, s.Id).DeletedAt
		w.Clock.Advance(time.Hour)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		if again := w.space(t, w.admin, s.Id).DeletedAt; again == nil || !again.Equal(*first) {
			t.Fatalf("deletedAt %v after a second delete, was %v", again, first)
		}
	})

	t.Run("UnknownIdIs204", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/nosuchspace", nil)
	})

	t.Run("ReadMemberIs403AndNothingIsDeleted", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Protected", "")
		w.Expect(t, http.StatusForbidden, w.reader, "DELETE", "/spaces/"+s.Id, nil)
		if w.space(t, w.admin, s.Id).DeletedAt != nil {
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
		if got := w.space(t, w.admin, s.Id); got.DeletedAt != nil {
			t.Fatalf("outsider deleted the space: deletedAt %v", got.DeletedAt)
		}
		if !w.has(w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), s.Id) {
			t.Fatal("space gone from its collection")
		}
	})
}

func TestRestoreSpace(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")

	t.Run("WithinSevenDaysItComesBackAtTheEndOfItsCollection", func(t *testing.T) {
		s1 := w.MustCreateSpace(t, w.admin, org, "One", c.Id)
		s2 := w.MustCreateSpace(t, w.admin, org, "Two", c.Id)
		s3 := w.MustCreateSpace(t, w.admin, org, "Three", c.Id)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s1.Id, nil)
		w.Clock.Advance(6 * 24 * time.Hour)
		var got gen.Space
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+s1.Id+"/restore", nil).Decode(t, &got)
		if got.Id != s1.Id || got.DeletedAt != nil || got.Parent == nil || *got.Parent != c.Id || got.Title != "One" {
			t.Fatalf("restored: %+v", got)
		}
		if re := w.space(t, w.admin, s1.Id); re.DeletedAt != nil {
			t.Fatalf("re-read deletedAt %v", re.DeletedAt)
		}
		w.wantIDs(t, "collection's spaces", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), s2.Id, s3.Id, s1.Id)
		if !w.has(w.spaceIDs(w.orgSpaces(t, w.admin, org, "").Items), s1.Id) {
			t.Fatal("restored space missing from the organization's list")
		}
		// Restored, it takes edits again.
		w.updateSpace(t, s1.Id, map[string]any{"title": "One again"})
	})

	t.Run("NotDeletedIs400", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Alive", "")
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/spaces/"+s.Id+"/restore", nil)
		w.wantMessage(t, r, "not deleted")
	})

	t.Run("AfterEightDaysIs400", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Too late", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		w.Clock.Advance(8 * 24 * time.Hour)
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/spaces/"+s.Id+"/restore", nil)
		w.wantMessage(t, r, "7 days")
		if re := w.space(t, w.admin, s.Id); re.DeletedAt == nil {
			t.Fatal("a refused restore undeleted the space")
		}
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Deleted by admin", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		w.Expect(t, http.StatusForbidden, w.reader, "POST", "/spaces/"+s.Id+"/restore", nil)
		if w.space(t, w.admin, s.Id).DeletedAt == nil {
			t.Fatal("restored by a read member")
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Deleted too", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", "/spaces/"+s.Id+"/restore", nil)
		if w.space(t, w.admin, s.Id).DeletedAt == nil {
			t.Fatal("restored by an outsider")
		}
	})

	t.Run("UnknownIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "POST", "/spaces/nosuchspace/restore", nil)
	})
}

func TestPurgeJobRemovesSpacesDeletedMoreThanSevenDaysAgo(t *testing.T) {
	w := newContentWorld(t)
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
		if w.space(t, w.admin, old.Id).DeletedAt == nil {
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
		if got := w.space(t, w.admin, recent.Id); got.DeletedAt == nil {
			t.Fatal("recently deleted space lost its deletedAt")
		}
		if got := w.space(t, w.admin, alive.Id); got.DeletedAt != nil {
			t.Fatal("live space deleted")
		}
		w.wantIDs(t, "org spaces", w.spaceIDs(w.orgSpaces(t, w.admin, org, "").Items), alive.Id)
	})

	t.Run("TheJobRecursSoALaterDeletionIsPurgedToo", func(t *testing.T) {
		w.Clock.Advance(8 * 24 * time.Hour)
		if _, err := w.Runner.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+recent.Id, nil)
		w.space(t, w.admin, alive.Id)
	})
}

func TestDuplicateSpace(t *testing.T) {
	w := newContentWorld(t)
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
			(*dup.MergeRules.Rules)[0].Users[0] != w.admin.ID {
			t.Fatalf("duplicate's mergeRules %+v", dup.MergeRules)
		}
		if re := w.space(t, w.admin, dup.Id); re.Title != dup.Title || *re.Language != "fr" {
			t.Fatalf("re-read duplicate %+v", re)
		}
		l := w.spacesIn(t, w.admin, c.Id, "")
		if l.Count != 4 {
			t.Fatalf("collection count %d", l.Count)
		}
		w.wantIDs(t, "collection's spaces", w.spaceIDs(l.Items), a.Id, b.Id, dup.Id, z.Id)
		if orig := w.space(t, w.admin, b.Id); orig.Title != "B" || orig.DeletedAt != nil {
			t.Fatalf("original changed: %+v", orig)
		}
	})

	t.Run("ASecondDuplicateGoesRightAfterTheOriginalToo", func(t *testing.T) {
		var again gen.Space
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+b.Id+"/duplicate", nil).Decode(t, &again)
		w.wantIDs(t, "collection's spaces", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), a.Id, b.Id, again.Id, dup.Id, z.Id)
	})

	t.Run("AtTheTopLevel", func(t *testing.T) {
		top := w.MustCreateSpace(t, w.admin, org, "Top", "")
		before := w.orgSpaces(t, w.admin, org, "").Count
		var d gen.Space
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+top.Id+"/duplicate", nil).Decode(t, &d)
		if d.Parent != nil || d.Title != "Top (copy)" {
			t.Fatalf("duplicate %+v", d)
		}
		l := w.orgSpaces(t, w.admin, org, "")
		if l.Count != before+1 || !w.has(w.spaceIDs(l.Items), d.Id) {
			t.Fatalf("org list: count %d (was %d)", l.Count, before)
		}
	})

	t.Run("ALongTitleStaysWithin50Characters", func(t *testing.T) {
		long := w.MustCreateSpace(t, w.admin, org, strings.Repeat("L", 50), "")
		var d gen.Space
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+long.Id+"/duplicate", nil).Decode(t, &d)
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

func TestMoveSpace(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
	d := w.MustCreateCollection(t, w.admin, org, "Reference", "")
	s1 := w.MustCreateSpace(t, w.admin, org, "One", c.Id)
	s2 := w.MustCreateSpace(t, w.admin, org, "Two", c.Id)
	s3 := w.MustCreateSpace(t, w.admin, org, "Three", c.Id)
	d1 := w.MustCreateSpace(t, w.admin, org, "D one", d.Id)
	d2 := w.MustCreateSpace(t, w.admin, org, "D two", d.Id)
	top := w.MustCreateSpace(t, w.admin, org, "Top", "")
	inC := func(t *testing.T) []string { return w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items) }
	inD := func(t *testing.T) []string { return w.spaceIDs(w.spacesIn(t, w.admin, d.Id, "").Items) }

	t.Run("BeforeASibling", func(t *testing.T) {
		r := w.moveSpace(t, s3.Id, spaceBefore(s1.Id))
		w.wantStatus(t, r, http.StatusOK)
		var got gen.Space
		r.Decode(t, &got)
		if got.Id != s3.Id || got.Parent == nil || *got.Parent != c.Id {
			t.Fatalf("moved %+v", got)
		}
		w.wantIDs(t, "c", inC(t), s3.Id, s1.Id, s2.Id)
	})

	t.Run("AfterASibling", func(t *testing.T) {
		w.wantStatus(t, w.moveSpace(t, s3.Id, spaceAfter(s1.Id)), http.StatusOK)
		w.wantIDs(t, "c", inC(t), s1.Id, s3.Id, s2.Id)
		w.wantStatus(t, w.moveSpace(t, s1.Id, spaceAfter(s2.Id)), http.StatusOK)
		w.wantIDs(t, "c", inC(t), s3.Id, s2.Id, s1.Id)
		w.wantStatus(t, w.moveSpace(t, s1.Id, spaceBefore(s3.Id)), http.StatusOK)
		w.wantIDs(t, "c", inC(t), s1.Id, s3.Id, s2.Id)
	})

	t.Run("IntoACollectionAtTheEnd", func(t *testing.T) {
		before := w.orgSpaces(t, w.admin, org, "").Count
		r := w.moveSpace(t, top.Id, map[string]any{"parent": d.Id})
		w.wantStatus(t, r, http.StatusOK)
		var got gen.Space
		r.Decode(t, &got)
		if got.Parent == nil || *got.Parent != d.Id {
			t.Fatalf("parent = %v", got.Parent)
		}
		if re := w.space(t, w.admin, top.Id); re.Parent == nil || *re.Parent != d.Id {
			t.Fatalf("re-read parent = %v", re.Parent)
		}
		w.wantIDs(t, "d", inD(t), d1.Id, d2.Id, top.Id)
		if after := w.orgSpaces(t, w.admin, org, "").Count; after != before {
			t.Fatalf("org spaces %d -> %d", before, after)
		}
	})

	t.Run("IntoACollectionAtAPosition", func(t *testing.T) {
		body := spaceBefore(d1.Id)
		body["parent"] = d.Id
		w.wantStatus(t, w.moveSpace(t, s2.Id, body), http.StatusOK)
		w.wantIDs(t, "d", inD(t), s2.Id, d1.Id, d2.Id, top.Id)
		w.wantIDs(t, "c", inC(t), s1.Id, s3.Id)
	})

	t.Run("ToTopLevelWithParentNull", func(t *testing.T) {
		r := w.moveSpace(t, top.Id, map[string]any{"parent": nil})
		w.wantStatus(t, r, http.StatusOK)
		var got gen.Space
		r.Decode(t, &got)
		if got.Parent != nil {
			t.Fatalf("parent = %v", *got.Parent)
		}
		if re := w.space(t, w.admin, top.Id); re.Parent != nil {
			t.Fatalf("re-read parent = %v", *re.Parent)
		}
		w.wantIDs(t, "d", inD(t), s2.Id, d1.Id, d2.Id)
	})

	t.Run("MoveThatChangesNothingIs400", func(t *testing.T) {
		// d is [s2, d1, d2].
		for _, c := range []struct {
			name string
			id   string
			body map[string]any
		}{
			{"same parent, already last", d2.Id, map[string]any{"parent": d.Id}},
			{"already before its next sibling", s2.Id, spaceBefore(d1.Id)},
			{"already after its previous sibling", d2.Id, spaceAfter(d1.Id)},
			{"same parent and already in place", d1.Id, map[string]any{"parent": d.Id, "position": spaceAfter(s2.Id)["position"]}},
			{"top-level space to the top level, already last", top.Id, map[string]any{"parent": nil}},
		} {
			r := w.moveSpace(t, c.id, c.body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d: %s", c.name, r.Status, r.Body)
			}
			w.wantMessage(t, r, "nothing")
		}
		w.wantIDs(t, "d", inD(t), s2.Id, d1.Id, d2.Id)
	})

	t.Run("NextToItselfIs400", func(t *testing.T) {
		w.wantStatus(t, w.moveSpace(t, d1.Id, spaceBefore(d1.Id)), http.StatusBadRequest)
	})

	t.Run("UnknownParentIs400", func(t *testing.T) {
		r := w.moveSpace(t, s1.Id, map[string]any{"parent": "nosuchcollection"})
		w.wantStatus(t, r, http.StatusBadRequest)
		w.wantMessage(t, r, "parent")
		if re := w.space(t, w.admin, s1.Id); re.Parent == nil || *re.Parent != c.Id {
			t.Fatalf("parent = %v", re.Parent)
		}
	})

	t.Run("ParentInAnotherOrganizationIs400", func(t *testing.T) {
		theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")
		w.wantStatus(t, w.moveSpace(t, s1.Id, map[string]any{"parent": theirs.Id}), http.StatusBadRequest)
		if re := w.space(t, w.admin, s1.Id); re.Organization != org || *re.Parent != c.Id {
			t.Fatalf("after a refused move: %+v", re)
		}
		if l := w.spacesIn(t, w.outsider, theirs.Id, ""); l.Count != 0 {
			t.Fatalf("their collection has %d spaces", l.Count)
		}
	})

	t.Run("SiblingUnderAnotherParentIs400", func(t *testing.T) {
		// d1 is in d, not in c where s1 stays.
		r := w.moveSpace(t, s1.Id, spaceBefore(d1.Id))
		w.wantStatus(t, r, http.StatusBadRequest)
		w.wantMessage(t, r, "position.before")
		// Moving to c's parent (top level) next to a space of c.
		body := spaceAfter(s3.Id)
		body["parent"] = nil
		r = w.moveSpace(t, s1.Id, body)
		w.wantStatus(t, r, http.StatusBadRequest)
		w.wantMessage(t, r, "position.after")
		w.wantIDs(t, "c", inC(t), s1.Id, s3.Id)
	})

	t.Run("PointerWithoutIdIs400", func(t *testing.T) {
		r := w.moveSpace(t, s1.Id, map[string]any{"position": map[string]any{"after": map[string]any{"type": "space"}}})
		w.wantStatus(t, r, http.StatusBadRequest)
		w.wantMessage(t, r, "position.after")
	})

	t.Run("DeletedSpaceIs404", func(t *testing.T) {
		gone := w.MustCreateSpace(t, w.admin, org, "Gone", c.Id)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone.Id, nil)
		w.wantStatus(t, w.moveSpace(t, gone.Id, map[string]any{"parent": d.Id}), http.StatusNotFound)
		// Nor can a live space be placed next to a deleted one.
		w.wantStatus(t, w.moveSpace(t, s3.Id, spaceBefore(gone.Id)), http.StatusBadRequest)
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "POST", "/spaces/"+s1.Id+"/move", map[string]any{"parent": nil})
		if re := w.space(t, w.admin, s1.Id); re.Parent == nil {
			t.Fatal("moved by a read member")
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", "/spaces/"+s1.Id+"/move", map[string]any{"parent": nil})
		w.wantIDs(t, "c", inC(t), s1.Id, s3.Id)
	})
}

func TestTransferSpace(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	second := w.MustCreateOrg(t, w.admin, "Acme Labs")
	carol := w.MustCreateUser(t, "carol@third.test", "Carol")
	third := w.MustCreateOrg(t, carol, "Third")
	w.MustAddMember(t, carol, third.Id, w.admin, "create")
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
	transfer := func(t *testing.T, u *testUser, id, target string) *response {
		t.Helper()
		return w.Do(t, u, "POST", "/spaces/"+id+"/transfer", map[string]any{"organization": target})
	}

	t.Run("ToAnOrganizationTheCallerAdministers", func(t *testing.T) {
		stays := w.MustCreateSpace(t, w.admin, org, "Stays", c.Id)
		s := w.MustCreateSpace(t, w.admin, org, "Moving", c.Id)
		r := transfer(t, w.admin, s.Id, second.Id)
		w.wantStatus(t, r, http.StatusOK)
		var got gen.Space
		r.Decode(t, &got)
		if got.Id != s.Id || got.Organization != second.Id || got.Parent != nil || got.Title != "Moving" {
			t.Fatalf("transferred %+v", got)
		}
		if re := w.space(t, w.admin, s.Id); re.Organization != second.Id || re.Parent != nil {
			t.Fatalf("re-read %+v", re)
		}
		w.wantIDs(t, "second org's spaces", w.spaceIDs(w.orgSpaces(t, w.admin, second.Id, "").Items), s.Id)
		if ids := w.spaceIDs(w.orgSpaces(t, w.admin, org, "").Items); w.has(ids, s.Id) || !w.has(ids, stays.Id) {
			t.Fatalf("first org's spaces %v", ids)
		}
		w.wantIDs(t, "c", w.spaceIDs(w.spacesIn(t, w.admin, c.Id, "").Items), stays.Id)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+s.Id, nil)
	})

	t.Run("SameOrganizationIs400", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Home", c.Id)
		r := transfer(t, w.admin, s.Id, org)
		w.wantStatus(t, r, http.StatusBadRequest)
		w.wantMessage(t, r, "organization")
		if re := w.space(t, w.admin, s.Id); re.Parent == nil || *re.Parent != c.Id {
			t.Fatalf("parent = %v", re.Parent)
		}
	})

	t.Run("OrganizationWhereCallerIsNotAdminIs403", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Not there", "")
		w.wantStatus(t, transfer(t, w.admin, s.Id, third.Id), http.StatusForbidden)
		if re := w.space(t, w.admin, s.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
		if l := w.orgSpaces(t, carol, third.Id, ""); l.Count != 0 {
			t.Fatalf("third organization has %d spaces", l.Count)
		}
	})

	t.Run("OrganizationCallerIsNotInIs400", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Not theirs", "")
		r := transfer(t, w.admin, s.Id, w.other.Id)
		w.wantStatus(t, r, http.StatusBadRequest)
		w.wantMessage(t, r, "organization")
		if re := w.space(t, w.admin, s.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
		if l := w.orgSpaces(t, w.outsider, w.other.Id, ""); l.Count != 0 {
			t.Fatalf("other organization has %d spaces", l.Count)
		}
	})

	t.Run("DeletedSpaceIs404", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Gone", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+s.Id, nil)
		w.wantStatus(t, transfer(t, w.admin, s.Id, second.Id), http.StatusNotFound)
		if re := w.space(t, w.admin, s.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
	})

	t.Run("ReadMemberIs403", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Kept", "")
		w.wantStatus(t, transfer(t, w.reader, s.Id, second.Id), http.StatusForbidden)
		if re := w.space(t, w.admin, s.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Coveted", "")
		w.wantStatus(t, transfer(t, w.outsider, s.Id, w.other.Id), http.StatusNotFound)
		if re := w.space(t, w.admin, s.Id); re.Organization != org {
			t.Fatalf("organization = %s", re.Organization)
		}
	})
}

func TestListSpacesInOrganization(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Guides", "")
	var want []string
	for i, parent := range []string{"", c.Id, "", c.Id, ""} {
		want = append(want, w.MustCreateSpace(t, w.admin, org, "Space "+string(rune('A'+i)), parent).Id)
	}
	theirs := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
	walk := func(t *testing.T, u *testUser, limit int, wantCount int) []string {
		t.Helper()
		var ids []string
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		for i := 0; ; i++ {
			if i > 20 {
				t.Fatal("paging does not end")
			}
			l := w.orgSpaces(t, u, org, "?"+q.Encode())
			if l.Count != wantCount || len(l.Items) > limit {
				t.Fatalf("page %d: count %d (want %d), %d items", i, l.Count, wantCount, len(l.Items))
			}
			ids = append(ids, w.spaceIDs(l.Items)...)
			if l.Next == nil {
				return ids
			}
			q.Set("page", l.Next.Page)
		}
	}

	t.Run("AllInOnePage", func(t *testing.T) {
		l := w.orgSpaces(t, w.admin, org, "")
		if l.Count != 5 || l.Next != nil {
			t.Fatalf("count %d, next %v", l.Count, l.Next)
		}
		w.wantIDs(t, "spaces", w.spaceIDs(l.Items), want...)
	})

	t.Run("PagesOfTwo", func(t *testing.T) {
		first := w.orgSpaces(t, w.admin, org, "?limit=2")
		if len(first.Items) != 2 || first.Next == nil || first.Count != 5 {
			t.Fatalf("first page: %d items, next %v, count %d", len(first.Items), first.Next, first.Count)
		}
		w.wantIDs(t, "pages of two", walk(t, w.admin, 2, 5), want...)
		w.wantIDs(t, "pages of one", walk(t, w.admin, 1, 5), want...)
	})

	t.Run("DeletedSpacesAreExcluded", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+want[1], nil)
		rest := append([]string{want[0]}, want[2:]...)
		w.wantIDs(t, "pages of two", walk(t, w.admin, 2, 4), rest...)
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+want[1]+"/restore", nil)
		w.wantIDs(t, "after restore", walk(t, w.admin, 10, 5), want...)
	})

	t.Run("AnotherOrganizationsSpacesAreNotListed", func(t *testing.T) {
		if w.has(walk(t, w.admin, 10, 5), theirs.Id) {
			t.Fatal("list includes the other organization's space")
		}
		w.wantIDs(t, "their list", w.spaceIDs(w.orgSpaces(t, w.outsider, w.other.Id, "").Items), theirs.Id)
	})

	t.Run("ReadMemberSeesThemWithReadPermissions", func(t *testing.T) {
		l := w.orgSpaces(t, w.reader, org, "")
		w.wantIDs(t, "reader's list", w.spaceIDs(l.Items), want...)
		for _, s := range l.Items {
			if !s.Permissions.View || s.Permissions.Edit || s.Permissions.Admin {
				t.Fatalf("reader's permissions on %s: %+v", s.Title, s.Permissions)
			}
		}
	})

	t.Run("GuestSeesNone", func(t *testing.T) {
		l := w.orgSpaces(t, w.guest, org, "")
		if l.Count != 0 || len(l.Items) != 0 {
			t.Fatalf("guest sees count %d, %d items", l.Count, len(l.Items))
		}
	})

	t.Run("BadCursorIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+org+"/spaces?page=notacursor", nil)
		w.wantMessage(t, r, "page")
	})

	t.Run("OutsiderIs404", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/orgs/"+org+"/spaces", nil)
	})

	t.Run("NoTokenIs401", func(t *testing.T) {
		w.Expect(t, http.StatusUnauthorized, nil, "GET", "/orgs/"+org+"/spaces", nil)
	})
}

func TestSpacePermissionsFollowRoles(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id

	t.Run("ReadMemberReadsButCannotWrite", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Plain", "")
		c := w.MustCreateCollection(t, w.admin, org, "Plain collection", "")
		w.space(t, w.reader, s.Id)
		w.collection(t, w.reader, c.Id)
		for _, req := range []struct {
			method, path string
			body         any
		}{
			{"PATCH", "/spaces/" + s.Id, map[string]any{"title": "X"}},
			{"DELETE", "/spaces/" + s.Id, nil},
			{"POST", "/spaces/" + s.Id + "/move", map[string]any{"parent": c.Id}},
			{"POST", "/spaces/" + s.Id + "/duplicate", nil},
			{"POST", "/orgs/" + org + "/spaces", map[string]any{"title": "X"}},
			{"PATCH", "/collections/" + c.Id, map[string]any{"title": "X"}},
			{"DELETE", "/collections/" + c.Id, nil},
			{"POST", "/collections/" + c.Id + "/move", map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": s.Id}}}},
			{"POST", "/orgs/" + org + "/collections", map[string]any{"title": "X"}},
		} {
			w.Expect(t, http.StatusForbidden, w.reader, req.method, req.path, req.body)
		}
		if got := w.space(t, w.admin, s.Id); got.Title != "Plain" || got.DeletedAt != nil || got.Parent != nil {
			t.Fatalf("space after refused writes: %+v", got)
		}
		if got := w.collection(t, w.admin, c.Id); got.Title != "Plain collection" {
			t.Fatalf("collection after refused writes: %+v", got)
		}
	})

	t.Run("SpaceDefaultLevelEditGivesAReadMemberEdit", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Open", "")
		w.updateSpace(t, s.Id, map[string]any{"defaultLevel": "edit"})
		p := w.space(t, w.reader, s.Id).Permissions
		if !p.View || !p.Edit || !p.Comment || !p.Merge || p.Review || p.Admin {
			t.Fatalf("read member on an edit-level space: %+v", p)
		}
		// Edit is not admin: the read member still cannot change the space's settings.
		w.Expect(t, http.StatusForbidden, w.reader, "PATCH", "/spaces/"+s.Id, map[string]any{"title": "X"})
	})

	t.Run("InheritTakesTheLevelOfTheCollectionsAbove", func(t *testing.T) {
		top := w.MustCreateCollection(t, w.admin, org, "Top", "")
		mid := w.MustCreateCollection(t, w.admin, org, "Mid", top.Id)
		s := w.MustCreateSpace(t, w.admin, org, "Deep", mid.Id)
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+top.Id, map[string]any{"defaultLevel": "review"})
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+mid.Id, map[string]any{"defaultLevel": "inherit"})
		w.updateSpace(t, s.Id, map[string]any{"defaultLevel": "inherit"})
		if p := w.space(t, w.reader, s.Id).Permissions; !p.Review || !p.Edit || p.Admin {
			t.Fatalf("read member under a review-level collection: %+v", p)
		}
		// A null level in between stops the inheritance.
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+mid.Id, map[string]any{"defaultLevel": nil})
		if p := w.space(t, w.reader, s.Id).Permissions; p.Edit || p.Review || !p.View {
			t.Fatalf("read member below a no-level collection: %+v", p)
		}
		// Moved out to the top level, the space inherits nothing.
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+mid.Id, map[string]any{"defaultLevel": "inherit"})
		w.wantStatus(t, w.moveSpace(t, s.Id, map[string]any{"parent": nil}), http.StatusOK)
		if p := w.space(t, w.reader, s.Id).Permissions; p.Edit || !p.View {
			t.Fatalf("read member on a top-level inheriting space: %+v", p)
		}
	})

	t.Run("GuestGetsNothingFromADefaultLevel", func(t *testing.T) {
		s := w.MustCreateSpace(t, w.admin, org, "Open to members", "")
		w.updateSpace(t, s.Id, map[string]any{"defaultLevel": "edit"})
		w.Expect(t, http.StatusForbidden, w.guest, "GET", "/spaces/"+s.Id, nil)
	})
}

// TestAnotherOrganizationsContentIsInvisible checks every collection and space operation as a
// user of another organization: each answers as for an id that does not exist, and nothing
// changes.
func TestAnotherOrganizationsContentIsInvisible(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "Private", "")
	s := w.MustCreateSpace(t, w.admin, org, "Private space", c.Id)
	deleted := w.MustCreateSpace(t, w.admin, org, "Deleted", "")
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+deleted.Id, nil)
	theirs := w.MustCreateCollection(t, w.outsider, w.other.Id, "Theirs", "")

	for _, req := range []struct {
		name, method, path string
		body               any
	}{
		{"GetCollection", "GET", "/collections/" + c.Id, nil},
		{"UpdateCollection", "PATCH", "/collections/" + c.Id, map[string]any{"title": "Mine"}},
		{"ListSpacesInCollection", "GET", "/collections/" + c.Id + "/spaces", nil},
		{"MoveCollection", "POST", "/collections/" + c.Id + "/move", map[string]any{"parent": theirs.Id}},
		{"TransferCollection", "POST", "/collections/" + c.Id + "/transfer", map[string]any{"organization": w.other.Id}},
		{"ListCollections", "GET", "/orgs/" + org + "/collections", nil},
		{"CreateCollection", "POST", "/orgs/" + org + "/collections", map[string]any{"title": "Mine"}},
		{"GetSpace", "GET", "/spaces/" + s.Id, nil},
		{"GetDeletedSpace", "GET", "/spaces/" + deleted.Id, nil},
		{"UpdateSpace", "PATCH", "/spaces/" + s.Id, map[string]any{"title": "Mine"}},
		{"DuplicateSpace", "POST", "/spaces/" + s.Id + "/duplicate", nil},
		{"RestoreSpace", "POST", "/spaces/" + deleted.Id + "/restore", nil},
		{"MoveSpace", "POST", "/spaces/" + s.Id + "/move", map[string]any{"parent": nil}},
		{"TransferSpace", "POST", "/spaces/" + s.Id + "/transfer", map[string]any{"organization": w.other.Id}},
		{"ListSpaces", "GET", "/orgs/" + org + "/spaces", nil},
		{"CreateSpace", "POST", "/orgs/" + org + "/spaces", map[string]any{"title": "Mine"}},
	} {
		t.Run(req.name+"Is404", func(t *testing.T) {
			w.Expect(t, http.StatusNotFound, w.outsider, req.method, req.path, req.body)
		})
	}
	// Deleting what one cannot see answers what deleting nothing answers, and deletes nothing.
	t.Run("DeleteSpaceAnswersAsForAnUnknownId", func(t *testing.T) {
		unknown := w.Do(t, w.outsider, "DELETE", "/spaces/nosuchspace", nil)
		r := w.Do(t, w.outsider, "DELETE", "/spaces/"+s.Id, nil)
		if r.Status != unknown.Status || string(r.Body) != string(unknown.Body) {
			t.Fatalf("answered %d %s, an unknown id %d %s", r.Status, r.Body, unknown.Status, unknown.Body)
		}
	})
	t.Run("DeleteCollectionAnswersAsForAnUnknownId", func(t *testing.T) {
		unknown := w.Do(t, w.outsider, "DELETE", "/collections/nosuchcollection", nil)
		r := w.Do(t, w.outsider, "DELETE", "/collections/"+c.Id, nil)
		if r.Status != unknown.Status || string(r.Body) != string(unknown.Body) {
			t.Fatalf("answered %d %s, an unknown id %d %s", r.Status, r.Body, unknown.Status, unknown.Body)
		}
	})

	t.Run("NothingChangedForTheOwner", func(t *testing.T) {
		gotC := w.collection(t, w.admin, c.Id)
		if gotC.Title != "Private" || gotC.Organization != org || gotC.Parent != nil {
			t.Fatalf("collection %+v", gotC)
		}
		gotS := w.space(t, w.admin, s.Id)
		if gotS.Title != "Private space" || gotS.Organization != org || gotS.Parent == nil || *gotS.Parent != c.Id || gotS.DeletedAt != nil {
			t.Fatalf("space %+v", gotS)
		}
		if gotD := w.space(t, w.admin, deleted.Id); gotD.DeletedAt == nil {
			t.Fatal("deleted space restored")
		}
		w.wantIDs(t, "org spaces", w.spaceIDs(w.orgSpaces(t, w.admin, org, "").Items), s.Id)
		w.wantIDs(t, "org collections", w.collectionIDs(w.collections(t, w.admin, org, "").Items), c.Id)
		w.wantIDs(t, "their collections", w.collectionIDs(w.collections(t, w.outsider, w.other.Id, "").Items), theirs.Id)
		if l := w.orgSpaces(t, w.outsider, w.other.Id, ""); l.Count != 0 {
			t.Fatalf("their organization has %d spaces", l.Count)
		}
	})
}

// TestContentOperationsNeedAToken checks that every collection and space operation answers 401
// without a token.
func TestContentOperationsNeedAToken(t *testing.T) {
	w := newContentWorld(t)
	org := w.org.Id
	c := w.MustCreateCollection(t, w.admin, org, "C", "")
	s := w.MustCreateSpace(t, w.admin, org, "S", c.Id)
	for _, req := range []struct{ method, path string }{
		{"GET", "/orgs/" + org + "/collections"},
		{"POST", "/orgs/" + org + "/collections"},
		{"GET", "/collections/" + c.Id},
		{"PATCH", "/collections/" + c.Id},
		{"DELETE", "/collections/" + c.Id},
		{"GET", "/collections/" + c.Id + "/spaces"},
		{"POST", "/collections/" + c.Id + "/move"},
		{"POST", "/collections/" + c.Id + "/transfer"},
		{"GET", "/orgs/" + org + "/spaces"},
		{"POST", "/orgs/" + org + "/spaces"},
		{"GET", "/spaces/" + s.Id},
		{"PATCH", "/spaces/" + s.Id},
		{"DELETE", "/spaces/" + s.Id},
		{"POST", "/spaces/" + s.Id + "/duplicate"},
		{"POST", "/spaces/" + s.Id + "/restore"},
		{"POST", "/spaces/" + s.Id + "/move"},
		{"POST", "/spaces/" + s.Id + "/transfer"},
	} {
		r := w.Expect(t, http.StatusUnauthorized, nil, req.method, req.path, nil)
		if r.ErrorMessage(t) == "" {
			t.Fatalf("%s %s: 401 without a message", req.method, req.path)
		}
	}
	if got := w.space(t, w.admin, s.Id); got.DeletedAt != nil {
		t.Fatal("space deleted without a token")
	}
	w.collection(t, w.admin, c.Id)
}

// A collection's default level can grant the create role: a read member then creates inside that
// collection (as its permissions.create says), but still not at the organization's top level.
func TestCreateInsideACollectionThatGrantsCreate(t *testing.T) {
	w := newContentWorld(t)
	ts := w.testServer
	open := ts.MustCreateCollection(t, w.admin, w.org.Id, "Open", "")
	ts.Expect(t, http.StatusOK, w.admin, "PATCH", "/collections/"+open.Id, map[string]any{"defaultLevel": "create"})

	c := ts.Expect(t, http.StatusOK, w.reader, "GET", "/collections/"+open.Id, nil).Map(t)
	if c["permissions"].(map[string]any)["create"] != true {
		t.Fatalf("permissions = %v", c["permissions"])
	}
	ts.Expect(t, http.StatusCreated, w.reader, "POST", "/orgs/"+w.org.Id+"/spaces", map[string]any{"title": "Notes", "parent": open.Id})
	ts.Expect(t, http.StatusCreated, w.reader, "POST", "/orgs/"+w.org.Id+"/collections", map[string]any{"title": "Sub", "parent": open.Id})
	ts.Expect(t, http.StatusForbidden, w.reader, "POST", "/orgs/"+w.org.Id+"/spaces", map[string]any{"title": "Top"})
	ts.Expect(t, http.StatusForbidden, w.reader, "POST", "/orgs/"+w.org.Id+"/collections", map[string]any{"title": "Top"})
}
