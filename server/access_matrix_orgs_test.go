package server_test

import (
	"strings"
	"testing"
)

// The rows of organizations, members, teams, collections and spaces.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixOrgRows() []matrixRow {
	return []matrixRow{
		{"getApiInformation", matrixWant{200, 200, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/", nil)
		}},
		{"getAuthenticatedUser", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/user", nil)
		}},
		{"listOrganizationsForAuthenticatedUser", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/orgs", nil)
		}},
		{"createOrganization", matrixWant{401, 401, 201, 201, 201, 201, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/orgs", map[string]any{"title": w.name("Org")})
		}},
		// The caller's own email domain; the outsider is told of no organization, not refused.
		{"getOrganizationsForEmailDomain", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			domain := "acme.test"
			if u != nil && u.Email != "" {
				domain = u.Email[strings.LastIndexByte(u.Email, '@')+1:]
			}
			return matrixReq("GET", "/email-domains/"+domain+"/orgs", nil)
		}},
		{"getOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath(""), nil)
		}},
		{"updateOrganizationById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.orgPath(""), map[string]any{"title": "Acme"})
		}},
		// Deleting an invite that does not exist answers 204 (seed 7.1), to an admin.
		{"deleteOrganizationInviteById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.orgPath("/link-invites/noSuchInvite00000000"), nil)
		}},
		// Members are members already (204); the outsider's domain is not allowed, which answers
		// as an unknown organization would.
		{"joinOrganization", matrixWant{401, 401, 404, 204, 204, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/join"), nil)
		}},
		{"getOrganizationAgentInstructions", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/agent-instructions"), nil)
		}},
		{"updateOrganizationAgentInstructions", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.orgPath("/agent-instructions"),
				map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}})
		}},

		{"listMembersInOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/members"), nil)
		}},
		{"getMemberInOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/members/"+w.admin.ID), nil)
		}},
		{"updateMemberInOrganizationById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.orgPath("/members/"+w.freshMember(t).ID), map[string]any{"role": "comment"})
		}},
		// Removing someone else takes an admin (anyone may leave: not a cell of this row).
		{"removeMemberFromOrganizationById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			m := w.freshMember(t)
			r := matrixReq("DELETE", w.orgPath("/members/"+m.ID), nil)
			r.gone = func(t *testing.T) bool { return w.status(t, w.orgPath("/members/"+m.ID)) == 404 }
			return r
		}},
		{"updateOrganizationMemberLastSeenAt", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/ping"), nil)
		}},
		{"setUserAsSSOMemberForOrganization", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/members/"+w.freshMember(t).ID+"/sso"), nil)
		}},
		// Another member's spaces and permissions: an admin's business (a member may read their own).
		{"listSpacesForOrganizationMember", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/members/"+w.admin.ID+"/spaces"), nil)
		}},
		{"listTeamsForOrganizationMember", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/members/"+w.admin.ID+"/teams"), nil)
		}},

		{"listTeamsInOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/teams"), nil)
		}},
		{"createOrganizationTeam", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.orgPath("/teams"), map[string]any{"title": w.name("Team")})
		}},
		{"getTeamInOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/teams/"+w.team), nil)
		}},
		// Organization admins and the team's owners manage a team; none of the others owns it.
		{"updateTeamInOrganizationById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.orgPath("/teams/"+w.team), map[string]any{"title": "Writers"})
		}},
		{"removeTeamFromOrganizationById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			team := teamCreate(t, w.testServer, w.admin, w.org.Id, w.name("Team")).Id
			r := matrixReq("DELETE", w.orgPath("/teams/"+team), nil)
			r.gone = func(t *testing.T) bool { return w.status(t, w.orgPath("/teams/"+team)) == 404 }
			return r
		}},

		{"listCollectionsInOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/collections"), nil)
		}},
		{"createCollection", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/collections"), map[string]any{"title": "New"})
		}},
		{"getCollectionById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/collections/"+w.collection, nil)
		}},
		{"updateCollectionById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", "/collections/"+w.collection, map[string]any{"description": "How we work"})
		}},
		// A collection the caller cannot see is, to them, one that does not exist: deleting it
		// answers 204 (seed 7.1) and deletes nothing.
		{"deleteCollectionById", matrixWant{401, 401, 204, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			c := w.freshCollection(t)
			r := matrixReq("DELETE", "/collections/"+c, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, "/collections/"+c) == 404 }
			return r
		}},
		{"listSpacesInCollectionById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/collections/"+w.collection+"/spaces", nil)
		}},
		{"moveCollection", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/collections/"+w.freshCollection(t)+"/move", map[string]any{"parent": w.collection})
		}},
		{"transferCollection", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/collections/"+w.freshCollection(t)+"/transfer", map[string]any{"organization": w.org2.Id})
		}},

		{"listSpacesInOrganizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/spaces"), nil)
		}},
		{"createSpace", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/spaces"), map[string]any{"title": "New"})
		}},
		{"getSpaceById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/spaces/"+w.handbook, nil)
		}},
		{"updateSpaceById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", "/spaces/"+w.handbook, map[string]any{"title": "Handbook"})
		}},
		// As deleteCollectionById: the outsider's 204 deletes nothing.
		{"deleteSpaceById", matrixWant{401, 401, 204, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			sp := w.freshSpace(t)
			r := matrixReq("DELETE", "/spaces/"+sp, nil)
			r.gone = func(t *testing.T) bool { return w.world.space(t, sp).DeletedAt != nil }
			return r
		}},
		// Reading the space is not enough: the copy is new content, which takes the create role.
		{"duplicateSpace", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/spaces/"+w.spare+"/duplicate", nil)
		}},
		{"restoreSpace", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			sp := w.freshSpace(t)
			w.Expect(t, 204, w.admin, "DELETE", "/spaces/"+sp, nil)
			return matrixReq("POST", "/spaces/"+sp+"/restore", nil)
		}},
		{"moveSpace", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/spaces/"+w.freshSpace(t)+"/move", map[string]any{"parent": w.collection})
		}},
		{"transferSpace", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/spaces/"+w.freshSpace(t)+"/transfer", map[string]any{"organization": w.org2.Id})
		}},
	}
}
