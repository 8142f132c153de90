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
		// An organization's fonts: any member reads them, the create role changes them.
		matrixGet("listCustomFonts", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string { return w.orgPath("/fonts") }),
		{"getCustomFont", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/fonts/"+w.freshFont(t)), nil)
		}},
		{"createCustomFont", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.orgPath("/fonts"), map[string]any{"fontFamily": "Matrix", "fontFaces": []any{
				map[string]any{"weight": 400, "storageKey": w.fontKey(t, "wOFF")}}})
		}},
		{"updateCustomFont", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.orgPath("/fonts/"+w.freshFont(t)), map[string]any{"fontFamily": w.name("Font")})
		}},
		{"deleteCustomFont", matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.orgPath("/fonts/"+w.freshFont(t)), nil)
		}},
		// Both create spaces: the create role on the site and in the organization.
		{"duplicateSiteSpace", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/site-spaces/"+w.siteSpace+"/duplicate"), map[string]any{"draft": true})
		}},
		{"applyTemplateToSite", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.sectioned, "/template"), nil)
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

// freshFont makes a font of the organization.
func (w *matrixWorld) freshFont(t *testing.T) string {
	t.Helper()
	f := sendJSON[gen.CustomFont](t, w.testServer, http.StatusCreated, w.admin, "PUT", w.orgPath("/fonts"), map[string]any{"fontFamily": w.name("Font"),
		"fontFaces": []any{map[string]any{"weight": 400, "storageKey": w.fontKey(t, "wOF2")}}})
	return f.Id
}
