package server_test

import (
	"net/http"
	"testing"
)

// The rules that read reviews: only reviews of the change request's current content count, an
// admin merges no sooner than anyone else unless allow_bypass names them, and each refusal names
// the rule unmet and changes nothing. (With the store's check switched off, every refusal here
// merges instead.)
func TestMergeRulesOnReviews(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ria, rob := w.memberWith(t, "review"), w.memberWith(t, "review")
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	rules := func(rules ...map[string]any) {
		t.Helper()
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rulesBody(rules...))
	}

	t.Run("AtLeastOneApprovedReview", func(t *testing.T) {
		rules(map[string]any{"rule": "require_at_least_one_approved_review"})
		cr := w.editedCR(t, w.editor, sp.Id, "Needs approval")
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "require_at_least_one_approved_review")
		w.review(t, ria, sp.Id, cr.Id, "changes-requested", nil)
		w.mergeRefused(t, w.editor, sp.Id, cr.Id, http.StatusConflict, "require_at_least_one_approved_review")
		w.review(t, ria, sp.Id, cr.Id, "approved", nil)
		// An edit after the approval outdates it.
		w.apply(t, w.editor, sp.Id, cr.Id, insertMarkdown("Late", "Late text.\n", ""))
		w.mergeRefused(t, w.editor, sp.Id, cr.Id, http.StatusConflict, "require_at_least_one_approved_review")
		w.review(t, ria, sp.Id, cr.Id, "approved", nil)
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("AtLeastOneReview", func(t *testing.T) {
		rules(map[string]any{"rule": "require_at_least_one_review"})
		cr := w.editedCR(t, w.editor, sp.Id, "Needs a look")
		w.mergeRefused(t, w.editor, sp.Id, cr.Id, http.StatusConflict, "require_at_least_one_review")
		w.review(t, ria, sp.Id, cr.Id, "changes-requested", nil)
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("AllReviewsApproved", func(t *testing.T) {
		rules(map[string]any{"rule": "require_all_reviews_approved"})
		cr := w.editedCR(t, w.editor, sp.Id, "Needs everyone")
		w.askReview(t, w.editor, sp.Id, cr.Id, ria, rob)
		w.review(t, ria, sp.Id, cr.Id, "approved", nil)
		w.mergeRefused(t, w.editor, sp.Id, cr.Id, http.StatusConflict, "require_all_reviews_approved", rob.ID)
		w.review(t, rob, sp.Id, cr.Id, "changes-requested", nil)
		w.mergeRefused(t, w.editor, sp.Id, cr.Id, http.StatusConflict, "require_all_reviews_approved", "1 of 2")
		w.review(t, rob, sp.Id, cr.Id, "approved", nil)
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("SpecificReviewers", func(t *testing.T) {
		rules(map[string]any{"rule": "require_specific_reviewers", "users": []string{ria.ID, rob.ID}})
		cr := w.editedCR(t, w.editor, sp.Id, "Needs Ria and Rob")
		w.review(t, ria, sp.Id, cr.Id, "approved", nil)
		w.review(t, w.admin, sp.Id, cr.Id, "approved", nil)
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "require_specific_reviewers", rob.ID)
		w.review(t, rob, sp.Id, cr.Id, "approved", nil)
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("OneOfSpecificReviewers", func(t *testing.T) {
		rules(map[string]any{"rule": "require_one_of_specific_reviewers", "users": []string{ria.ID, rob.ID}})
		cr := w.editedCR(t, w.editor, sp.Id, "Needs Ria or Rob")
		w.review(t, w.admin, sp.Id, cr.Id, "approved", nil)
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "require_one_of_specific_reviewers")
		w.review(t, rob, sp.Id, cr.Id, "approved", nil)
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("InheritedFromTheOrganization", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, rulesBody(map[string]any{"rule": "require_at_least_one_approved_review"}))
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"mergeRules": map[string]any{"type": "inherit"}})
		cr := w.editedCR(t, w.editor, sp.Id, "Org rules")
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "require_at_least_one_approved_review")
		w.review(t, rob, sp.Id, cr.Id, "approved", nil)
		w.merged(t, sp.Id, cr.Id)
	})
	t.Run("AdminsBypassOnlyWhenNamed", func(t *testing.T) {
		rules(map[string]any{"rule": "require_at_least_one_approved_review"})
		cr := w.editedCR(t, w.editor, sp.Id, "Bypassed")
		w.mergeRefused(t, w.admin, sp.Id, cr.Id, http.StatusConflict, "require_at_least_one_approved_review")
		rules(map[string]any{"rule": "require_at_least_one_approved_review"}, map[string]any{"rule": "allow_bypass", "users": []string{w.admin.ID}})
		w.mergeRefused(t, w.editor, sp.Id, cr.Id, http.StatusConflict, "require_at_least_one_approved_review")
		w.merged(t, sp.Id, cr.Id)
	})
}
