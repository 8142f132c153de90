package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// review submits a review as u, which must answer 201.
func (w *world) review(t testing.TB, u *testUser, spaceID, crID, status string, comment map[string]any) gen.ChangeRequestReview {
	t.Helper()
	body := map[string]any{"status": status}
	if comment != nil {
		body["comment"] = map[string]any{"document": comment}
	}
	return sendJSON[gen.ChangeRequestReview](t, w.testServer, http.StatusCreated, u, "POST", crPath(spaceID, crID, "/reviews"), body)
}

// askReview asks users to review as u, which must answer 200.
func (w *world) askReview(t testing.TB, u *testUser, spaceID, crID string, users ...*testUser) gen.RequestReviewersResult {
	t.Helper()
	ids := []string{}
	for _, r := range users {
		ids = append(ids, r.ID)
	}
	return sendJSON[gen.RequestReviewersResult](t, w.testServer, http.StatusOK, u, "POST", crPath(spaceID, crID, "/requested-reviewers"),
		map[string]any{"users": ids})
}

// A draft asked for review becomes open; reviews are listed, read, outdated when the change
// request moves on or the reviewer reviews again, and a review's comment is posted in the thread.
func TestReviewsOfAChangeRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reviewer := w.memberWith(t, "review")
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.editedCR(t, w.editor, sp.Id, "Edits")
	w.patch(t, sp.Id, cr.Id, map[string]any{"status": "draft"})

	asked := sendJSON[gen.RequestReviewersResult](t, w.testServer, http.StatusOK, w.editor, "POST", crPath(sp.Id, cr.Id, "/requested-reviewers"),
		map[string]any{"users": []string{reviewer.ID}, "subject": "Ready edits"})
	if len(asked.Users) != 1 || asked.Users[0].User.Id != reviewer.ID || asked.Users[0].RequestedBy.Id != w.editor.ID {
		t.Fatalf("asked %+v", asked.Users)
	}
	if got := w.get(t, sp.Id, cr.Id); got.Status != gen.ChangeRequestStatusOpen || got.Subject != "Ready edits" {
		t.Fatalf("after asking for review the change request is %s %q, want open %q", got.Status, got.Subject, "Ready edits")
	}
	requested := getJSON[gen.ChangeRequestRequestedReviewerList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/requested-reviewers"))
	wantIDs(t, "requested reviewers", idsOfReviewers(requested.Items), reviewer.ID)

	first := w.review(t, reviewer, sp.Id, cr.Id, "changes-requested", paragraphDoc("Fix the title."))
	if first.Outdated || first.RequestedBy == nil || first.RequestedBy.Id != w.editor.ID || first.Comment == nil ||
		*first.Comment.Body.Markdown != "Fix the title." || first.Revision != w.get(t, sp.Id, cr.Id).Revision {
		t.Fatalf("first review %+v", first)
	}
	if got := w.get(t, sp.Id, cr.Id).Comments; got != 1 {
		t.Fatalf("the review's comment left %d open comments, want 1", got)
	}
	comments := getJSON[gen.CommentList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/comments"))
	wantList(t, "comments", comments, 1, first.Comment.Id)

	w.apply(t, w.editor, sp.Id, cr.Id, insertMarkdown("More", "More text.\n", ""))
	read := getJSON[gen.ChangeRequestReview](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/reviews/"+first.Id))
	if !read.Outdated {
		t.Fatal("a review stays current after the change request's content changed")
	}
	second := w.review(t, reviewer, sp.Id, cr.Id, "approved", nil)
	third := w.review(t, w.admin, sp.Id, cr.Id, "approved", nil)
	all := getJSON[gen.ChangeRequestReviewList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/reviews"))
	wantList(t, "reviews", all, 3, first.Id, second.Id, third.Id)
	current := getJSON[gen.ChangeRequestReviewList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/reviews?outdated=false"))
	wantList(t, "current reviews", current, 2, second.Id, third.Id)
	if third.RequestedBy != nil {
		t.Fatalf("an unrequested review names %s as its requester", third.RequestedBy.Id)
	}
	// Asked again, the reviewer's approval is outdated.
	w.askReview(t, w.editor, sp.Id, cr.Id, reviewer)
	outdated := getJSON[gen.ChangeRequestReviewList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/reviews?outdated=true"))
	wantList(t, "outdated reviews", outdated, 2, first.Id, second.Id)

	contributors := getJSON[gen.ChangeRequestContributorList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/contributors"))
	got := map[string]int{}
	for _, c := range contributors.Items {
		got[c.User.Id+" "+string(c.ActionType)] = c.Count
	}
	if len(got) != 2 || got[w.editor.ID+" edit"] != 2 || got[reviewer.ID+" comment"] != 1 {
		t.Fatalf("contributors %v, want the editor's 2 edits and the reviewer's comment", got)
	}

	w.Expect(t, http.StatusResetContent, w.editor, "DELETE", crPath(sp.Id, cr.Id, "/requested-reviewers/"+reviewer.ID), nil)
	w.Expect(t, http.StatusNoContent, w.editor, "DELETE", crPath(sp.Id, cr.Id, "/requested-reviewers/"+reviewer.ID), nil)
	requested = getJSON[gen.ChangeRequestRequestedReviewerList](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/requested-reviewers"))
	wantIDs(t, "requested reviewers after removal", idsOfReviewers(requested.Items))
}

func idsOfReviewers(list []gen.ChangeRequestRequestedReviewer) []string {
	out := []string{}
	for _, r := range list {
		out = append(out, r.User.Id)
	}
	return out
}

// Self-reviews, reviews of merged change requests, strangers asked and roles short of review
// are refused, and change nothing.
func TestReviewsRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reviewer := w.memberWith(t, "review")
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.editedCR(t, reviewer, sp.Id, "Mine")
	path := crPath(sp.Id, cr.Id, "/reviews")

	wantMessage(t, w.Expect(t, http.StatusBadRequest, reviewer, "POST", path, map[string]any{"status": "approved"}), "author")
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", path, map[string]any{"status": "maybe"}), "status")
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", path, map[string]any{"status": "approved", "comment": map[string]any{"document": paragraphDoc(" ")}}), "comment.document")
	w.Expect(t, http.StatusForbidden, w.editor, "POST", path, map[string]any{"status": "approved"})
	w.Expect(t, http.StatusNotFound, w.outsider, "POST", path, map[string]any{"status": "approved"})
	asked := crPath(sp.Id, cr.Id, "/requested-reviewers")
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", asked, map[string]any{"users": []string{reviewer.ID}}), "users[0]", "author")
	wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", asked, map[string]any{"users": []string{w.editor.ID, w.outsider.ID}}), "users[1]", "member")
	w.Expect(t, http.StatusForbidden, w.reader, "POST", asked, map[string]any{"users": []string{w.editor.ID}})
	if n := getJSON[gen.ChangeRequestReviewList](t, w.testServer, w.admin, path).Count; n != 0 {
		t.Fatalf("refused reviews left %d reviews", n)
	}
	if n := getJSON[gen.ChangeRequestRequestedReviewerList](t, w.testServer, w.admin, asked).Count; n != 0 {
		t.Fatalf("refused requests left %d requested reviewers", n)
	}
	if c := w.get(t, sp.Id, cr.Id).Comments; c != 0 {
		t.Fatalf("a refused review posted %d comments", c)
	}

	w.merged(t, sp.Id, cr.Id)
	wantMessage(t, w.Expect(t, http.StatusConflict, w.admin, "POST", path, map[string]any{"status": "approved"}), "merged")
	wantMessage(t, w.Expect(t, http.StatusConflict, w.admin, "POST", asked, map[string]any{"users": []string{w.editor.ID}}), "merged")
	w.Expect(t, http.StatusNotFound, w.admin, "GET", path+"/nosuchreview", nil)
}
