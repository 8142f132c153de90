package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// reviews: reviewers asked and withdrawn, reviews outdated by an edit, a second review or a second
// request, a review's comment in the thread, contributors counted, and merge rules checked in
// the merge's transaction against the reviews of that moment.
func reviews(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	rita := MustOwner(t, w.st, "rita@example.com").User
	if _, err := w.st.UpdateOrganization(ctx, w.org, w.user, store.OrganizationUpdate{EmailDomains: &[]string{"example.com"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.st.JoinOrganization(ctx, w.org, rita); err != nil {
		t.Fatal(err)
	}
	stranger := MustOwner(t, w.st, "stranger@elsewhere.test").User
	sp := w.space("Docs")
	cr, _ := w.edit(sp.ID, insert("a", "A", "a0"))
	draft := "draft"
	if _, err := w.st.UpdateChangeRequest(ctx, sp.ID, cr, store.ChangeRequestUpdate{Status: &draft}); err != nil {
		t.Fatal(err)
	}

	_, err := w.st.RequestReviewers(ctx, sp.ID, cr, w.user, []string{rita.ID, stranger.ID}, store.ChangeRequestUpdate{})
	wantCode(t, err, store.EINVALID)
	_, err = w.st.RequestReviewers(ctx, sp.ID, cr, w.user, []string{w.user}, store.ChangeRequestUpdate{})
	wantCode(t, err, store.EINVALID)
	subject := "Reviewed"
	asked, err := w.st.RequestReviewers(ctx, sp.ID, cr, w.user, []string{rita.ID}, store.ChangeRequestUpdate{Subject: &subject})
	if err != nil || len(asked) != 1 || asked[0].User.ID != rita.ID || asked[0].RequestedBy.ID != w.user {
		t.Fatalf("asked %+v, %v", asked, err)
	}
	got, _ := w.st.FindChangeRequest(ctx, sp.ID, cr)
	if got.Status != "open" || got.Subject != subject {
		t.Fatalf("after asking: %s %q", got.Status, got.Subject)
	}

	_, err = w.st.SubmitReview(ctx, sp.ID, cr, store.NewReview{ReviewerID: w.user, Status: store.ReviewApproved})
	wantCode(t, err, store.EINVALID)
	first, err := w.st.SubmitReview(ctx, sp.ID, cr, store.NewReview{ReviewerID: rita.ID, Status: store.ReviewChangesRequested,
		Comment: &store.NewComment{Body: "Fix A."}})
	if err != nil || first.Outdated || first.RequestedBy == nil || first.RequestedBy.ID != w.user || first.CommentID == nil {
		t.Fatalf("first review %+v, %v", first, err)
	}
	if c, err := w.st.FindComment(ctx, store.CommentScope{SpaceID: sp.ID, ChangeRequestID: &got.ID}, *first.CommentID); err != nil ||
		c.Body != "Fix A." || c.PostedBy.ID != rita.ID {
		t.Fatalf("the review's comment: %+v, %v", c, err)
	}
	needsApproval := store.MergeRules{Type: "rules", Rules: []store.MergeRule{{Rule: "require_at_least_one_approved_review"}}}
	if _, err := w.st.UpdateSpace(ctx, sp.ID, store.SpaceUpdate{MergeRules: &needsApproval}); err != nil {
		t.Fatal(err)
	}
	_, _, err = w.st.MergeChangeRequestByRules(ctx, sp.ID, cr, w.user)
	wantCode(t, err, store.ECONFLICT)

	approval, err := w.st.SubmitReview(ctx, sp.ID, cr, store.NewReview{ReviewerID: rita.ID, Status: store.ReviewApproved})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := w.st.FindReview(ctx, sp.ID, cr, first.ID); !r.Outdated {
		t.Fatal("a review stays current after its reviewer reviewed again")
	}
	if _, err := w.st.UpdateChangeRequestContent(ctx, sp.ID, cr, w.user, []store.PageChange{insert("b", "B", "b0")}); err != nil {
		t.Fatal(err)
	}
	current := false
	list, err := w.st.FindReviews(ctx, sp.ID, cr, store.ReviewFilter{Outdated: &current}, store.Page{})
	if err != nil || list.Count != 0 {
		t.Fatalf("current reviews after an edit: %d, %v", list.Count, err)
	}
	all, err := w.st.FindReviews(ctx, sp.ID, cr, store.ReviewFilter{}, store.Page{Limit: 1})
	if err != nil || all.Count != 2 || len(all.Items) != 1 || all.Items[0].ID != first.ID || all.Next == "" {
		t.Fatalf("first page of reviews: %+v, %v", all, err)
	}
	_, _, err = w.st.MergeChangeRequestByRules(ctx, sp.ID, cr, w.user)
	wantCode(t, err, store.ECONFLICT)
	if r, _ := w.st.FindReview(ctx, sp.ID, cr, approval.ID); !r.Outdated {
		t.Fatal("an approval stays current after the change request changed")
	}

	contributors, err := w.st.FindContributors(ctx, sp.ID, cr)
	if err != nil || len(contributors) != 2 {
		t.Fatalf("contributors %+v, %v", contributors, err)
	}
	for _, c := range contributors {
		if (c.Action == "edit" && (c.User.ID != w.user || c.Count != 2)) || (c.Action == "comment" && (c.User.ID != rita.ID || c.Count != 1)) {
			t.Fatalf("contributor %+v", c)
		}
	}

	if _, err := w.st.SubmitReview(ctx, sp.ID, cr, store.NewReview{ReviewerID: rita.ID, Status: store.ReviewApproved}); err != nil {
		t.Fatal(err)
	}
	if _, conflicts, err := w.st.MergeChangeRequestByRules(ctx, sp.ID, cr, w.user); err != nil || conflicts {
		t.Fatalf("merge once approved: %v %v", conflicts, err)
	}
	_, err = w.st.SubmitReview(ctx, sp.ID, cr, store.NewReview{ReviewerID: rita.ID, Status: store.ReviewApproved})
	wantCode(t, err, store.ECONFLICT)

	if removed, err := w.st.RemoveRequestedReviewer(ctx, sp.ID, cr, rita.ID); err != nil || !removed {
		t.Fatalf("removing a requested reviewer: %v %v", removed, err)
	}
	if removed, err := w.st.RemoveRequestedReviewer(ctx, sp.ID, cr, rita.ID); err != nil || removed {
		t.Fatalf("removing it again: %v %v", removed, err)
	}
	if l, err := w.st.FindRequestedReviewers(ctx, sp.ID, cr, store.Page{}); err != nil || l.Count != 0 {
		t.Fatalf("requested reviewers after removal: %d %v", l.Count, err)
	}
}
