package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The rows of reviews and of invitations.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixReviewRows() []matrixRow {
	cr := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return crPath(w.handbook, w.cr, rest) }
	}
	// editorCR opens a change request as the editor, which the admin may review.
	editorCR := func(t *testing.T, w *matrixWorld) string {
		t.Helper()
		return w.create(t, w.editor, w.handbook, w.name("Reviewed")).Id
	}
	return []matrixRow{
		matrixGet("getRequestedReviewersByChangeRequestId", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/requested-reviewers")),
		{"requestReviewersForChangeRequest", matrixWant{401, 401, 404, 403, 403, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", crPath(w.handbook, w.cr, "/requested-reviewers"), map[string]any{"users": []string{w.reader.ID}})
		}},
		{"removeRequestedReviewerFromChangeRequest", matrixWant{401, 401, 404, 403, 403, 205, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			id := editorCR(t, w)
			w.askReview(t, w.editor, w.handbook, id, w.reader)
			return matrixReq("DELETE", crPath(w.handbook, id, "/requested-reviewers/"+w.reader.ID), nil)
		}},
		// Reviewing takes the review role (the editor has edit).
		{"submitChangeRequestReview", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", crPath(w.handbook, editorCR(t, w), "/reviews"), map[string]any{"status": "approved"})
		}},
		matrixGet("getReviewsByChangeRequestId", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/reviews")),
		{"getChangeRequestReviewById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			id := editorCR(t, w)
			rv := w.review(t, w.admin, w.handbook, id, "changes-requested", nil)
			return matrixReq("GET", crPath(w.handbook, id, "/reviews/"+rv.Id), nil)
		}},
		matrixGet("getContributorsByChangeRequestId", matrixWant{401, 401, 404, 200, 200, 200, 200}, cr("/contributors")),
	}
}

func matrixInviteRows() []matrixRow {
	freshLink := func(t *testing.T, w *matrixWorld, admin *testUser, orgID string) string {
		t.Helper()
		return sendJSON[gen.InviteLink](t, w.testServer, http.StatusCreated, admin, "POST", "/orgs/"+orgID+"/link-invites", map[string]any{"role": "read"}).Id
	}
	return []matrixRow{
		{"listOrganizationInviteLinks", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/link-invites"), nil)
		}},
		{"createOrganizationInvite", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/link-invites"), map[string]any{"role": "comment"})
		}},
		{"updateOrganizationInviteById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.orgPath("/link-invites/"+freshLink(t, w, w.admin, w.org.Id)), map[string]any{"role": "edit"})
		}},
		// The link's id is the capability: whoever holds it reads it, to see what it gives.
		{"getOrganizationInviteLink", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			r := matrixReq("GET", w.orgPath("/link-invites/"+freshLink(t, w, w.admin, w.org.Id)), nil)
			r.capability = true
			return r
		}},
		// Whoever holds a link joins with it: each cell joins an organization of its own, made by
		// a user of its own, so that the callers stay what they are (and share nothing more) for
		// the other rows.
		{"joinOrganizationWithInvite", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			inviter := w.MustCreateUser(t, strings.ReplaceAll(w.name("inviter"), " ", "")+"@fresh.test", "Inviter")
			org := w.MustCreateOrg(t, inviter, w.name("Joined")).Id
			r := matrixReq("POST", "/orgs/"+org+"/invites/"+freshLink(t, w, inviter, org), nil)
			r.capability = true
			return r
		}},
		{"inviteUsersToOrganization", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/invites"), map[string]any{"emails": []string{strings.ReplaceAll(w.name("invited"), " ", "") + "@example.test"}})
		}},
	}
}

func matrixTeamMemberRows() []matrixRow {
	members := func(w *matrixWorld, rest string) string { return w.orgPath("/teams/" + w.team + "/members" + rest) }
	return []matrixRow{
		{"listTeamMembersInOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", members(w, ""), nil)
		}},
		{"addMemberToOrganizationTeamById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", members(w, "/"+w.freshMember(t).ID), map[string]any{"role": "member"})
		}},
		// Removing someone else takes an admin or a team owner (anyone may leave: not a cell here).
		{"deleteMemberFromOrganizationTeamById", matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			m := w.freshMember(t)
			w.Expect(t, http.StatusNoContent, w.admin, "PUT", members(w, "/"+m.ID), nil)
			return matrixReq("DELETE", members(w, "/"+m.ID), nil)
		}},
		{"updateMembersInOrganizationTeam", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", members(w, ""), map[string]any{"add": []string{w.freshMember(t).ID}})
		}},
		// One's own profile only: other members are refused, outsiders do not see the user.
		{"updateUserById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", "/users/"+w.admin.ID, map[string]any{"displayName": "Ada"})
		}},
	}
}
