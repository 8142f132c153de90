package server_test

import (
	"testing"
)

// The rows of sites and their structure (site spaces, sections, section groups). Reading takes
// the read role in the organization, changing the create role (which only the admin has here),
// deleting a site the admin role.
//
// Columns:                   none garbage outsider reader commenter editor admin

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
		matrixGet("listSites", func(w *matrixWorld) string { return w.orgPath("/sites") }),
		{"createSite", matrixCreate, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.orgPath("/sites"), map[string]any{"title": "Portal"})
		}},
		matrixGet("getSiteById", site("")),
		{"updateSiteById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", w.sitePath(w.site, ""), map[string]any{"title": "Docs"})
		}},
		// As deleteCollectionById: a site the caller cannot see answers 204 and stays.
		{"deleteSiteById", matrixWant{401, 401, 204, 403, 403, 403, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			path := w.sitePath(w.freshSite(t), "")
			r := req("DELETE", path, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, path) == 404 }
			return r
		}},
		{"publishSite", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.sitePath(w.freshSite(t), "/publish"), nil)
		}},
		{"unpublishSite", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			s := w.freshSite(t)
			w.Expect(t, 200, w.admin, "POST", w.sitePath(s, "/publish"), nil)
			return req("POST", w.sitePath(s, "/unpublish"), nil)
		}},
		matrixGet("getSiteAdaptiveSchema", site("/adaptive-schema")),
		{"updateSiteAdaptiveSchema", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PUT", w.sitePath(w.site, "/adaptive-schema"), map[string]any{"jsonSchema": validSiteSchema()})
		}},
		matrixGet("listSiteAdaptiveTemplateConditions", site("/adaptive-schema/template-conditions")),
		matrixGet("getPublishedContentSite", site("/published")),

		matrixGet("listSiteSpaces", site("/site-spaces")),
		{"addSpaceToSite", matrixCreate, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.sitePath(w.site, "/site-spaces"), map[string]any{"spaceId": w.freshSpace(t)})
		}},
		{"updateSiteSpaceById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", w.sitePath(w.site, "/site-spaces/"+w.siteSpace), map[string]any{"path": "handbook"})
		}},
		{"deleteSiteSpaceById", matrixAdmin204, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("DELETE", w.sitePath(w.site, "/site-spaces/"+w.freshSiteSpace(t)), nil)
		}},
		{"moveSiteSpace", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.sitePath(w.site, "/site-spaces/"+w.freshSiteSpace(t)+"/move"), position("site-space", "siteSpace", w.siteSpace))
		}},

		matrixGet("listSiteSections", sectioned("/sections")),
		{"addSectionToSite", matrixCreate, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.sitePath(w.sectioned, "/sections"), map[string]any{"spaceId": w.handbook, "title": w.name("Section")})
		}},
		{"updateSiteSectionById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", w.sitePath(w.sectioned, "/sections/"+w.section), map[string]any{"description": "Where to start."})
		}},
		{"deleteSiteSectionById", matrixAdmin204, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("DELETE", w.sitePath(w.sectioned, "/sections/"+w.freshSection(t)), nil)
		}},
		// Two fresh sections at the site's root (the world's section is in a group: not a sibling).
		{"moveSiteSection", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			before := w.freshSection(t)
			return req("POST", w.sitePath(w.sectioned, "/sections/"+w.freshSection(t)+"/move"), position("site-section", "siteSection", before))
		}},

		matrixGet("listSiteSectionGroups", sectioned("/section-groups")),
		{"addSectionGroupToSite", matrixCreate, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.sitePath(w.sectioned, "/section-groups"), map[string]any{"title": "More"})
		}},
		{"updateSiteSectionGroupById", matrixAdmin, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("PATCH", w.sitePath(w.sectioned, "/section-groups/"+w.group), map[string]any{"title": "Group"})
		}},
		{"deleteSiteSectionGroupById", matrixAdmin204, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("DELETE", w.sitePath(w.sectioned, "/section-groups/"+w.freshGroup(t)), nil)
		}},
		{"addSectionToGroup", matrixCreate, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return req("POST", w.sitePath(w.sectioned, "/section-groups/"+w.group+"/sections"), map[string]any{"sectionId": w.freshSection(t)})
		}},
		{"removeSectionFromGroup", matrixAdmin204, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			sec := w.freshSection(t)
			w.Expect(t, 201, w.admin, "POST", w.sitePath(w.sectioned, "/section-groups/"+w.group+"/sections"), map[string]any{"sectionId": sec})
			return req("DELETE", w.sitePath(w.sectioned, "/section-groups/"+w.group+"/sections/"+sec), nil)
		}},
	}
}
