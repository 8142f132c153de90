package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

// updateSpace patches a space as the admin, which must answer 200.
func (w *world) updateSpace(t *testing.T, id string, body map[string]any) gen.Space {
	t.Helper()
	return sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", "/spaces/"+id, body)
}

// moveSpace moves a space as the admin and returns the response, whatever its status.
func (w *world) moveSpace(t *testing.T, id string, body map[string]any) *response {
	t.Helper()
	return w.Do(t, w.admin, "POST", "/spaces/"+id+"/move", body)
}

func (w *world) wantStatus(t *testing.T, r *response, status int) {
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
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id

	t.Run("TitleOf50CharactersIsCreatedWithDefaults", func(t *testing.T) {
		title := strings.Repeat("s", 50)
		sp := sendJSON[gen.Space](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": title})
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
		got := w.spaceAs(t, w.admin, sp.Id)
		if got.Title != title || got.Revision != sp.Revision || !got.CreatedAt.Equal(sp.CreatedAt) {
			t.Fatalf("re-read %+v", got)
		}
		if !w.has(idsOf(w.orgSpaces(t, w.admin, org, "").Items), sp.Id) {
			t.Fatal("new space missing from the organization's list")
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
		if got := w.spaceAs(t, w.admin, sp.Id); got.Parent == nil || *got.Parent != c.Id {
			t.Fatalf("re-read parent = %v", got.Parent)
		}
		wantIDs(t, "collection's spaces", idsOf(w.spacesIn(t, w.admin, c.Id, "").Items), first.Id, sp.Id)
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
		check("re-read", w.spaceAs(t, w.admin, sp.Id))
	})

	t.Run("UnknownLanguageIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "X", "language": "klingon"})
		wantMessage(t, r, "language")
	})

	t.Run("UnknownEditModeIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/orgs/"+org+"/spaces", map[string]any{"title": "X", "editMode": "frozen"})
		wantMessage(t, r, "editMode")
	})
}

func TestGetSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")

	t.Run("AdminReadsIt", func(t *testing.T) {
		got := w.spaceAs(t, w.admin, sp.Id)
		if got.Id != sp.Id || got.Title != "Docs" || got.Organization != w.org.Id || !got.Permissions.Admin {
			t.Fatalf("got %+v", got)
		}
	})

	t.Run("ReadMemberCanViewButNotEdit", func(t *testing.T) {
		p := w.spaceAs(t, w.reader, sp.Id).Permissions
		if !p.View || !p.Access {
			t.Fatalf("read member cannot view: %+v", p)
		}
		if p.Edit || p.Comment || p.Merge || p.Review || p.Admin || p.ViewInviteLinks || p.TriggerGitSync || p.InstallIntegration {
			t.Fatalf("read member has more than read: %+v", p)
		}
	})

	w.readRefusals(t, placeables[1], sp.Id)
}

func TestUpdateSpace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	path := "/spaces/" + sp.Id

	t.Run("Title", func(t *testing.T) {
		w.Clock.Advance(time.Minute)
		got := w.updateSpace(t, sp.Id, map[string]any{"title": "Documentation"})
		if got.Title != "Documentation" || !got.UpdatedAt.After(sp.UpdatedAt) || !got.CreatedAt.Equal(sp.CreatedAt) {
			t.Fatalf("title %q, updatedAt %v (was %v), createdAt %v", got.Title, got.UpdatedAt, sp.UpdatedAt, got.CreatedAt)
		}
		if re := w.spaceAs(t, w.admin, sp.Id); re.Title != "Documentation" {
			t.Fatalf("re-read title %q", re.Title)
		}
	})

	t.Run("EmojiEditModeAndLanguage", func(t *testing.T) {
		got := w.updateSpace(t, sp.Id, map[string]any{"emoji": "🚀", "editMode": "locked", "language": "ja"})
		for what, s := range map[string]gen.Space{"answered": got, "re-read": w.spaceAs(t, w.admin, sp.Id)} {
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
		if p := w.spaceAs(t, w.reader, sp.Id).Permissions; !p.Edit || !p.Comment || !p.Merge || p.Review || p.Admin {
			t.Fatalf("read member on an edit-level space: %+v", p)
		}
		if got := w.updateSpace(t, sp.Id, map[string]any{"emoji": "📗"}); w.level(got.DefaultLevel) != "edit" {
			t.Fatalf("defaultLevel = %s after an update without it", w.level(got.DefaultLevel))
		}
		if got := w.updateSpace(t, sp.Id, map[string]any{"defaultLevel": nil}); w.level(got.DefaultLevel) != "null" {
			t.Fatalf("defaultLevel = %s after null", w.level(got.DefaultLevel))
		}
		if re := w.spaceAs(t, w.admin, sp.Id); w.level(re.DefaultLevel) != "null" || re.Emoji != "📗" {
			t.Fatalf("re-read defaultLevel %s, emoji %q", w.level(re.DefaultLevel), re.Emoji)
		}
		// null is no access by default: the space is not shown to a member granted nothing.
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+sp.Id, nil)
	})

	t.Run("MergeRulesRulesThenInherit", func(t *testing.T) {
		got := w.updateSpace(t, sp.Id, map[string]any{"mergeRules": map[string]any{
			"type":  "rules",
			"rules": []any{map[string]any{"rule": "require_specific_reviewers", "users": []string{w.reader.ID, w.admin.ID}}},
		}})
		for what, s := range map[string]gen.Space{"answered": got, "re-read": w.spaceAs(t, w.admin, sp.Id)} {
			m := s.MergeRules
			if m.Type != "rules" || m.Rules == nil || len(*m.Rules) != 1 {
				t.Fatalf("%s: mergeRules %+v", what, m)
			}
			r := (*m.Rules)[0]
			if r.Rule != "require_specific_reviewers" || r.Users == nil || len(*r.Users) != 2 || (*r.Users)[0] != w.reader.ID || (*r.Users)[1] != w.admin.ID {
				t.Fatalf("%s: rule %+v", what, r)
			}
		}
		got = w.updateSpace(t, sp.Id, map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		if got.MergeRules.Type != "inherit" || got.MergeRules.Rules != nil {
			t.Fatalf("after inherit: %+v", got.MergeRules)
		}
		if re := w.spaceAs(t, w.admin, sp.Id); re.MergeRules.Type != "inherit" {
			t.Fatalf("re-read mergeRules %+v", re.MergeRules)
		}
	})

	t.Run("MergeRulesOfTypeRulesWithoutRulesIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"mergeRules": map[string]any{"type": "rules"}})
		wantMessage(t, r, "mergeRules.rules")
		if re := w.spaceAs(t, w.admin, sp.Id); re.MergeRules.Type != "inherit" {
			t.Fatalf("mergeRules changed by a refused update: %+v", re.MergeRules)
		}
	})

	t.Run("UnknownFieldIs400", func(t *testing.T) {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, map[string]any{"visibility": "public"})
		wantMessage(t, r, "visibility")
	})

	t.Run("DeletedSpaceIs404", func(t *testing.T) {
		gone := w.MustCreateSpace(t, w.admin, w.org.Id, "Gone", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone.Id, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "PATCH", "/spaces/"+gone.Id, map[string]any{"title": "Back"})
		if re := w.spaceAs(t, w.admin, gone.Id); re.Title != "Gone" {
			t.Fatalf("deleted space's title = %q", re.Title)
		}
	})
}
