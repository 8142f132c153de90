package server_test

import "testing"

// The rows of a site's customization (issue 30 item 4): read with the read role on the site,
// changed with the create role (which only the admin has here).
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixCustomizationRows() []matrixRow {
	site := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return w.sitePath(w.site, rest) }
	}
	siteSpace := func(w *matrixWorld) string {
		return w.sitePath(w.site, "/site-spaces/"+w.siteSpace+"/customization")
	}
	return []matrixRow{
		matrixGet("getSiteCustomizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("/customization")),
		{"updateSiteCustomizationById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.sitePath(w.site, "/customization"), map[string]any{"title": "Matrix"})
		}},
		matrixGet("getSiteSpaceCustomizationById", matrixWant{401, 401, 404, 200, 200, 200, 200}, siteSpace),
		{"overrideSiteSpaceCustomizationById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", siteSpace(w), map[string]any{"title": "Space"})
		}},
		{"deleteSiteSpaceCustomizationById", matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			w.Expect(t, 200, w.admin, "PATCH", siteSpace(w), map[string]any{"title": "Space"})
			return matrixReq("DELETE", siteSpace(w), nil)
		}},
	}
}
