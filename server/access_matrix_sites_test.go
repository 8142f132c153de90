package server_test

import (
	"testing"
)

// The rows of sites and their structure (site spaces, sections, section groups). Reading takes
// the read role in the organization, changing the create role (which only the admin has here),
// deleting a site the admin role.
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixSiteRows() []matrixRow {
	site := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return w.sitePath(w.site, rest) }
	}
	sectioned := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return w.sitePath(w.sectioned, rest) }
	}
	position := func(kind, field, id string) map[string]any {
		return map[string]any{"position": map[string]any{"before": map[string]any{"type": kind, field: id}}}
	}
	return []matrixRow{
		matrixGet("listSites", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string { return w.orgPath("/sites") }),
		{"createSite", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/sites"), map[string]any{"title": "Portal"})
		}},
		matrixGet("getSiteById", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("")),
		{"updateSiteById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.site, ""), map[string]any{"title": "Docs"})
		}},
		// As deleteCollectionById: a site the caller cannot see answers 204 and stays.
		{"deleteSiteById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			path := w.sitePath(w.freshSite(t), "")
			r := matrixReq("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"publishSite", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.freshSite(t), "/publish"), nil)
		}},
		{"unpublishSite", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			s := w.freshSite(t)
			w.Expect(t, 200, w.admin, "POST", w.sitePath(s, "/publish"), nil)
			return matrixReq("POST", w.sitePath(s, "/unpublish"), nil)
		}},
		matrixGet("getSiteAdaptiveSchema", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("/adaptive-schema")),
		{"updateSiteAdaptiveSchema", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.sitePath(w.site, "/adaptive-schema"), map[string]any{"jsonSchema": validSiteSchema()})
		}},
		matrixGet("listSiteAdaptiveTemplateConditions", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("/adaptive-schema/template-conditions")),
		matrixGet("getPublishedContentSite", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("/published")),

		matrixGet("listSiteSpaces", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("/site-spaces")),
		{"addSpaceToSite", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/site-spaces"), map[string]any{"spaceId": w.freshSpace(t)})
		}},
		{"updateSiteSpaceById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.site, "/site-spaces/"+w.siteSpace), map[string]any{"path": "handbook"})
		}},
		{"deleteSiteSpaceById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.sitePath(w.site, "/site-spaces/"+w.freshSiteSpace(t)), nil)
		}},
		{"moveSiteSpace", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/site-spaces/"+w.freshSiteSpace(t)+"/move"), position("site-space", "siteSpace", w.siteSpace))
		}},

		matrixGet("listSiteSections", matrixWant{401, 401, 404, 200, 200, 200, 200}, sectioned("/sections")),
		{"addSectionToSite", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.sectioned, "/sections"), map[string]any{"spaceId": w.handbook, "title": w.name("Section")})
		}},
		{"updateSiteSectionById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.sectioned, "/sections/"+w.section), map[string]any{"description": "Where to start."})
		}},
		{"deleteSiteSectionById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.sitePath(w.sectioned, "/sections/"+w.freshSection(t)), nil)
		}},
		// Two fresh sections at the site's root (the world's section is in a group: not a sibling).
		{"moveSiteSection", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			before := w.freshSection(t)
			return matrixReq("POST", w.sitePath(w.sectioned, "/sections/"+w.freshSection(t)+"/move"), position("site-section", "siteSection", before))
		}},

		matrixGet("listSiteSectionGroups", matrixWant{401, 401, 404, 200, 200, 200, 200}, sectioned("/section-groups")),
		{"addSectionGroupToSite", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.sectioned, "/section-groups"), map[string]any{"title": "More"})
		}},
		{"updateSiteSectionGroupById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.sectioned, "/section-groups/"+w.group), map[string]any{"title": "Group"})
		}},
		{"deleteSiteSectionGroupById", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.sitePath(w.sectioned, "/section-groups/"+w.freshGroup(t)), nil)
		}},
		{"addSectionToGroup", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.sectioned, "/section-groups/"+w.group+"/sections"), map[string]any{"sectionId": w.freshSection(t)})
		}},
		{"removeSectionFromGroup", matrixWant{401, 401, 404, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			sec := w.freshSection(t)
			w.Expect(t, 201, w.admin, "POST", w.sitePath(w.sectioned, "/section-groups/"+w.group+"/sections"), map[string]any{"sectionId": sec})
			return matrixReq("DELETE", w.sitePath(w.sectioned, "/section-groups/"+w.group+"/sections/"+sec), nil)
		}},
	}
}
