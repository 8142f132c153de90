package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The rows of a site's navigation (issue 30 item 4): external links and sorting the structure,
// with the create role on the site (which only the admin has here).
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixSiteNavRows() []matrixRow {
	return []matrixRow{
		{"addExternalLinkToSite", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.sectioned, "/external-links"), map[string]any{"title": "Blog", "url": "https://example.com/blog"})
		}},
		{"updateSiteExternalLinkById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.sectioned, "/external-links/"+w.freshExternalLink(t)), map[string]any{"title": "Status"})
		}},
		{"deleteSiteExternalLinkById", matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.sitePath(w.sectioned, "/external-links/"+w.freshExternalLink(t)), nil)
		}},
		{"sortSiteStructure", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.sectioned, "/structure/sort"), map[string]any{
				"item": map[string]any{"type": "site-external-link", "id": w.freshExternalLink(t)}, "position": map[string]any{}})
		}},
		{"moveSiteSectionGroup", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.sectioned, "/section-groups/"+w.freshGroup(t)+"/move"), map[string]any{})
		}},
	}
}

// freshExternalLink adds an external link to the site with sections.
func (w *matrixWorld) freshExternalLink(t *testing.T) string {
	t.Helper()
	l := sendJSON[gen.SiteExternalLink](t, w.testServer, http.StatusCreated, w.admin, "POST", w.sitePath(w.sectioned, "/external-links"),
		map[string]any{"title": w.name("Link"), "url": "https://example.com/"})
	return l.Id
}
