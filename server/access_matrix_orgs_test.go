package server_test

import (
	"strings"
	"testing"
)

// The rows of organizations, members, teams, collections and spaces.
//
// Columns:                   none garbage outsider reader commenter editor admin

// Per-user operations: any caller with a token, member or not.
var (
	matrixPublic  = matrixWant{200, 200, 200, 200, 200, 200, 200}
	matrixAnyUser = matrixWant{401, 401, 200, 200, 200, 200, 200}
)

// Operations on an organization's things by the role they need there.
var (
	matrixRead     = matrixWant{401, 401, 404, 200, 200, 200, 200}
	matrixAdmin    = matrixWant{401, 401, 404, 403, 403, 403, 200}
	matrixCreate   = matrixWant{401, 401, 404, 403, 403, 403, 201} // the create role: only the admin has it here
	matrixEdit     = matrixWant{401, 401, 404, 403, 403, 200, 200}
	matrixAdmin204 = matrixWant{401, 401, 404, 403, 403, 403, 204}
)

func matrixOrgRows() []matrixRow {
	return []matrixRow{
		{"getApiInformation", matrixPublic, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/", nil)
		}},
		{"getAuthenticatedUser", matrixAnyUser, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/user", nil)
		}},
		{"listOrganizationsForAuthenticatedUser", matrixAnyUser, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/orgs", nil)
		}},
		{"createOrganization", matrixWant{401, 401, 201, 201, 201, 201, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/orgs", map[string]any{"title": w.name("Org")})
		}},
		// The caller's own email domain; the outsider is told of no organization, not refused.
		{"getOrganizationsForEmailDomain", matrixAnyUser, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			domain := "acme.test"
			if u != nil && u.Email != "" {
				domain = u.Email[strings.LastIndexByte(u.Email, '@')+1:]
			}
			return req("GET", "/email-domains/"+domain+"/orgs", nil)
		}},
		{"getOrganizationById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath(""), nil)
		}},
		{"updateOrganizationById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", w.orgPath(""), map[string]any{"title": "Acme"})
		}},
		// Deleting an invite that does not exist answers 204 (seed 7.1), to an admin.
		{"deleteOrganizationInviteById", matrixAdmin204, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("DELETE", w.orgPath("/link-invites/noSuchInvite00000000"), nil)
		}},
		// Members are members already (204); the outsider's domain is not allowed, which answers
		// as an unknown organization would.
		{"joinOrganization", matrixWant{401, 401, 404, 204, 204, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.orgPath("/join"), nil)
		}},
		{"getOrganizationAgentInstructions", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/agent-instructions"), nil)
		}},
		{"updateOrganizationAgentInstructions", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PUT", w.orgPath("/agent-instructions"),
				map[string]any{"instructions": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}})
		}},

		{"listMembersInOrganizationById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/members"), nil)
		}},
		{"getMemberInOrganizationById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/members/"+w.admin.ID), nil)
		}},
		{"updateMemberInOrganizationById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", w.orgPath("/members/"+w.freshMember(t).ID), map[string]any{"role": "comment"})
		}},
		// Removing someone else takes an admin (anyone may leave: not a cell of this row).
		{"removeMemberFromOrganizationById", matrixAdmin204, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			m := w.freshMember(t)
			r := req("DELETE", w.orgPath("/members/"+m.ID), nil)
			r.gone = func(t *testing.T) bool { return w.status(t, w.orgPath("/members/"+m.ID)) == 404 }
			return r
		}},
		{"updateOrganizationMemberLastSeenAt", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.orgPath("/ping"), nil)
		}},
		{"setUserAsSSOMemberForOrganization", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.orgPath("/members/"+w.freshMember(t).ID+"/sso"), nil)
		}},
		// Another member's spaces and permissions: an admin's business (a member may read their own).
		{"listSpacesForOrganizationMember", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/members/"+w.admin.ID+"/spaces"), nil)
		}},
		{"listTeamsForOrganizationMember", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/members/"+w.admin.ID+"/teams"), nil)
		}},

		{"listTeamsInOrganizationById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/teams"), nil)
		}},
		{"createOrganizationTeam", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PUT", w.orgPath("/teams"), map[string]any{"title": w.name("Team")})
		}},
		{"getTeamInOrganizationById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/teams/"+w.team), nil)
		}},
		// Organization admins and the team's owners manage a team; none of the others owns it.
		{"updateTeamInOrganizationById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", w.orgPath("/teams/"+w.team), map[string]any{"title": "Writers"})
		}},
		{"removeTeamFromOrganizationById", matrixAdmin204, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			team := teamCreate(t, w.testServer, w.admin, w.org.Id, w.name("Team")).Id
			r := req("DELETE", w.orgPath("/teams/"+team), nil)
			r.gone = func(t *testing.T) bool { return w.status(t, w.orgPath("/teams/"+team)) == 404 }
			return r
		}},

		{"listCollectionsInOrganizationById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/collections"), nil)
		}},
		{"createCollection", matrixCreate, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.orgPath("/collections"), map[string]any{"title": "New"})
		}},
		{"getCollectionById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/collections/"+w.collection, nil)
		}},
		{"updateCollectionById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", "/collections/"+w.collection, map[string]any{"description": "How we work"})
		}},
		// A collection the caller cannot see is, to them, one that does not exist: deleting it
		// answers 204 (seed 7.1) and deletes nothing.
		{"deleteCollectionById", matrixWant{401, 401, 204, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			c := w.freshCollection(t)
			r := req("DELETE", "/collections/"+c, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, "/collections/"+c) == 404 }
			return r
		}},
		{"listSpacesInCollectionById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/collections/"+w.collection+"/spaces", nil)
		}},
		{"moveCollection", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/collections/"+w.freshCollection(t)+"/move", map[string]any{"parent": w.collection})
		}},
		{"transferCollection", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/collections/"+w.freshCollection(t)+"/transfer", map[string]any{"organization": w.org2.Id})
		}},

		{"listSpacesInOrganizationById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", w.orgPath("/spaces"), nil)
		}},
		{"createSpace", matrixCreate, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.orgPath("/spaces"), map[string]any{"title": "New"})
		}},
		{"getSpaceById", matrixRead, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("GET", "/spaces/"+w.handbook, nil)
		}},
		{"updateSpaceById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", "/spaces/"+w.handbook, map[string]any{"title": "Handbook"})
		}},
		// As deleteCollectionById: the outsider's 204 deletes nothing.
		{"deleteSpaceById", matrixWant{401, 401, 204, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			sp := w.freshSpace(t)
			r := req("DELETE", "/spaces/"+sp, nil)
			r.gone = func(t *testing.T) bool { return w.crWorld.space(t, sp).DeletedAt != nil }
			return r
		}},
		// Reading the space is not enough: the copy is new content, which takes the create role.
		{"duplicateSpace", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/spaces/"+w.spare+"/duplicate", nil)
		}},
		{"restoreSpace", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			sp := w.freshSpace(t)
			w.Expect(t, 204, w.admin, "DELETE", "/spaces/"+sp, nil)
			return req("POST", "/spaces/"+sp+"/restore", nil)
		}},
		{"moveSpace", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/spaces/"+w.freshSpace(t)+"/move", map[string]any{"parent": w.collection})
		}},
		{"transferSpace", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", "/spaces/"+w.freshSpace(t)+"/transfer", map[string]any{"organization": w.org2.Id})
		}},
	}
}
