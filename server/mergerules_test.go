package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// rulesBody is a mergeRules value of type "rules".
func rulesBody(rules ...map[string]any) map[string]any {
	return map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": rules}}
}

// editedCR opens a change request as u with one new page in it.
func (w *world) editedCR(t *testing.T, u *testUser, spaceID, subject string) gen.ChangeRequest {
	t.Helper()
	cr := w.create(t, u, spaceID, subject)
	w.apply(t, u, spaceID, cr.Id, insertMarkdown("Page of "+subject, "Text.\n", ""))
	return cr
}

// paragraphDoc is a rich-text document of one paragraph of text.
func paragraphDoc(text string) map[string]any {
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{
		"object": "block", "type": "paragraph",
		"nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": text, "marks": []any{}}}}},
	}}}
}

// mergeRefused wants a merge as u refused with status and a message containing parts, and the
// space's content unchanged.
func (w *world) mergeRefused(t *testing.T, u *testUser, spaceID, crID string, status int, parts ...string) {
	t.Helper()
	before := w.space(t, spaceID).Revision
	wantMessage(t, w.Expect(t, status, u, "POST", crPath(spaceID, crID, "/merge"), nil), parts...)
	if after := w.space(t, spaceID).Revision; after != before {
		t.Fatalf("a refused merge moved the space from %s to %s", before, after)
	}
	if st := w.get(t, spaceID, crID).Status; st != gen.ChangeRequestStatusOpen {
		t.Fatalf("a refused merge left the change request %s", st)
	}
}

// Every rule kind 0.202.0 defines is taken, stored and answered, on spaces and on organizations.
func TestMergeRulesEveryKindStoredAndAnswered(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	rules := []map[string]any{
		{"rule": "require_specific_reviewers", "users": []string{w.reader.ID}},
		{"rule": "require_one_of_specific_reviewers", "users": []string{w.reader.ID, w.editor.ID}},
		{"rule": "allow_bypass", "users": []string{w.commenter.ID}},
		{"rule": "require_at_least_one_review"},
		{"rule": "require_at_least_one_approved_review"},
		{"rule": "require_all_reviews_approved"},
		{"rule": "require_agent_review"},
		{"rule": "require_up_to_date_change_request"},
		{"rule": "require_change_request_subject"},
		{"rule": "require_change_request_description"},
		{"rule": "require_author_to_merge"},
		{"rule": "custom", "expression": `changeRequest.subject != ""`, "message": "Give it a subject."},
		{"rule": "custom", "expression": "true"},
	}
	want, _ := json.Marshal(rules)
	check := func(t *testing.T, what string, m gen.MergeRules) {
		t.Helper()
		got, _ := json.Marshal(m.Rules)
		if m.Type != "rules" || string(got) != string(want) {
			t.Fatalf("%s: mergeRules %s %s, want rules %s", what, m.Type, got, want)
		}
	}
	space := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(rules...))
	check(t, "space answered", space.MergeRules)
	check(t, "space re-read", w.space(t, sp.Id).MergeRules)
	org := sendJSON[gen.Organization](t, w.testServer, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, rulesBody(rules...))
	check(t, "organization answered", org.MergeRules)
	check(t, "organization re-read", getJSON[gen.Organization](t, w.testServer, w.admin, "/orgs/"+w.org.Id).MergeRules)
}

func TestMergeRulesRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(map[string]any{"rule": "require_author_to_merge"}))
	for name, c := range map[string]struct {
		rule  map[string]any
		parts []string
	}{
		"users on a rule that takes none": {map[string]any{"rule": "require_author_to_merge", "users": []string{w.admin.ID}}, []string{"rules[0].users", "require_author_to_merge"}},
		"reviewers without users":         {map[string]any{"rule": "require_specific_reviewers"}, []string{"rules[0].users"}},
		"bypass without users":            {map[string]any{"rule": "allow_bypass"}, []string{"rules[0].users"}},
		"custom without an expression":    {map[string]any{"rule": "custom", "message": "m"}, []string{"rules[0].expression"}},
		"expression on another rule":      {map[string]any{"rule": "require_agent_review", "expression": "true"}, []string{"rules[0]", "custom"}},
		"unknown rule":                    {map[string]any{"rule": "require_coffee"}, []string{"rule"}},
		"unknown property":                {map[string]any{"rule": "require_agent_review", "severity": "high"}, []string{"severity"}},
	} {
		for _, path := range []string{"/spaces/" + sp.Id, "/orgs/" + w.org.Id} {
			r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, rulesBody(c.rule))
			if name != "unknown property" && name != "unknown rule" {
				wantMessage(t, r, c.parts...)
			}
		}
	}
	// Nothing changed.
	if m := w.space(t, sp.Id).MergeRules; m.Rules == nil || len(*m.Rules) != 1 || (*m.Rules)[0].Rule != "require_author_to_merge" {
		t.Fatalf("space's rules after refusals: %+v", m)
	}
	if m := getJSON[gen.Organization](t, w.testServer, w.admin, "/orgs/"+w.org.Id).MergeRules; m.Type != "none" {
		t.Fatalf("organization's rules after refusals: %+v", m)
	}
}

// require_author_to_merge: only the change request's author merges it; allow_bypass lets the
// users it names merge anyway; a space inheriting the organization's rules has them.
func TestMergeRuleRequireAuthorToMerge(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(map[string]any{"rule": "require_author_to_merge"}))

	cr := w.editedCR(t, w.editor, sp.Id, "By Eve")
	w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusForbidden, "author", "Eve")
	if m := w.merge(t, w.editor, sp.Id, cr.Id); m.Result != gen.MergeResultMerge {
		t.Fatalf("the author's merge: %+v", m)
	}

	t.Run("AllowBypass", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(
			map[string]any{"rule": "require_author_to_merge"},
			map[string]any{"rule": "allow_bypass", "users": []string{w.admin.ID}}))
		cr := w.editedCR(t, w.editor, sp.Id, "Bypassed")
		if m := w.merge(t, w.admin, sp.Id, cr.Id); m.Result != gen.MergeResultMerge {
			t.Fatalf("the bypassing admin's merge: %+v", m)
		}
	})
	t.Run("InheritedFromTheOrganization", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, rulesBody(map[string]any{"rule": "require_author_to_merge"}))
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		cr := w.editedCR(t, w.admin, sp.Id, "By Ada")
		w.mergeRefused(t, w.editor, sp.Id, cr.Id, http.StatusForbidden, "author", "Ada")
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("NoneLetsAnyEditorMerge", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"mergeRules": map[string]any{"type": "none"}})
		cr := w.editedCR(t, w.admin, sp.Id, "Anyone")
		if m := w.merge(t, w.editor, sp.Id, cr.Id); m.Result != gen.MergeResultMerge {
			t.Fatalf("merge: %+v", m)
		}
	})
}

// The rules about the change request itself: a subject, a description, up to date with main.
func TestMergeRulesOnTheChangeRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")

	t.Run("Subject", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(map[string]any{"rule": "require_change_request_subject"}))
		cr := w.editedCR(t, w.admin, sp.Id, "")
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "subject")
		w.patch(t, sp.Id, cr.Id, map[string]any{"subject": "Now with a subject"})
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("Description", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(map[string]any{"rule": "require_change_request_description"}))
		cr := w.editedCR(t, w.admin, sp.Id, "Undescribed")
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "description")
		w.patch(t, sp.Id, cr.Id, map[string]any{"description": paragraphDoc("  ")})
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "description")
		w.patch(t, sp.Id, cr.Id, map[string]any{"description": paragraphDoc("Adds a page.")})
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("UpToDate", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(map[string]any{"rule": "require_up_to_date_change_request"}))
		cr := w.editedCR(t, w.admin, sp.Id, "Behind")
		w.merged(t, sp.Id, w.editedCR(t, w.admin, sp.Id, "Ahead").Id)
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "up to date")
		w.update(t, w.admin, sp.Id, cr.Id)
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("RulesQuireCannotEvaluateAreNeverMet", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(map[string]any{"rule": "require_agent_review"}))
		cr := w.editedCR(t, w.admin, sp.Id, "Unreviewed by agents")
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "require_agent_review", "no review agent")
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(
			map[string]any{"rule": "custom", "expression": "true", "message": "Ask Ada."}))
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "custom", "Ask Ada.")
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(
			map[string]any{"rule": "custom", "expression": "true"}, map[string]any{"rule": "allow_bypass", "users": []string{w.admin.ID}}))
		w.merged(t, sp.Id, cr.Id)
	})
}
