package server_test

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// The rows of running a site (issue 30): redirects, share links, visitor authentication, hostnames,
// customization and insights. Reading takes the read role on the site, changing it the create
// role (which only the admin has here).
//
// A want lists the statuses for the callers: none, garbage, outsider, reader, commenter, editor, admin.

func matrixSiteOpsRows() []matrixRow {
	site := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return w.sitePath(w.site, rest) }
	}
	external := func(u string) map[string]any { return map[string]any{"kind": "external", "url": u} }
	return []matrixRow{
		matrixGet("getSiteStructure", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("/structure")),
		matrixGet("listSiteRedirects", matrixWant{401, 401, 404, 200, 200, 200, 200}, site("/redirects")),
		{"createSiteRedirect", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/redirects"), map[string]any{"source": "/" + w.slug("from"), "destination": external("https://example.com/")})
		}},
		{"updateSiteRedirectById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.site, "/redirects/"+w.freshRedirect(t)), map[string]any{"permanent": true})
		}},
		{"deleteSiteRedirectById", matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.sitePath(w.site, "/redirects/"+w.freshRedirect(t)), nil)
		}},
		{"bulkUpsertSiteRedirects", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PUT", w.sitePath(w.site, "/redirects"), map[string]any{"redirects": []any{
				map[string]any{"source": "/" + w.slug("bulk"), "destination": external("https://example.com/")}}})
		}},

		// Share links and visitor authentication carry keys: the create role reads the links, the
		// admin role the settings.
		matrixGet("listSiteShareLinks", matrixWant{401, 401, 404, 403, 403, 403, 200}, site("/share-links")),
		{"createSiteShareLink", matrixWant{401, 401, 404, 403, 403, 403, 201}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/share-links"), map[string]any{"name": "Partners"})
		}},
		{"updateSiteShareLinkById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.site, "/share-links/"+w.freshShareLink(t)), map[string]any{"active": false})
		}},
		{"deleteSiteShareLinkById", matrixWant{401, 401, 404, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("DELETE", w.sitePath(w.site, "/share-links/"+w.freshShareLink(t)), nil)
		}},
		matrixGet("getSitePublishingAuthById", matrixWant{401, 401, 404, 403, 403, 403, 200}, site("/publishing/auth")),
		{"updateSitePublishingAuthById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", w.sitePath(w.site, "/publishing/auth"), map[string]any{"backend": "custom"})
		}},
		matrixGet("getSitePublishingPreviewById", matrixWant{401, 401, 404, 403, 403, 403, 200}, site("/publishing/preview?claims=(plan:pro)")),
		// A site's hostname: read with the read role on its site, checked and removed with the
		// create role; the check of a name that resolves nowhere answers 409.
		{"getCustomHostname", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", "/custom-hostnames/"+w.siteHostname(t), nil)
		}},
		{"dnsRevalidateCustomHostname", matrixWant{401, 401, 404, 403, 403, 403, 409}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("PATCH", "/custom-hostnames/"+w.siteHostname(t), nil)
		}},
		// As deleteSiteById: a hostname the caller cannot see answers 204 and stays.
		{"removeCustomHostname", matrixWant{401, 401, 204, 403, 403, 403, 205}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			host := w.siteHostname(t)
			r := matrixReq("DELETE", "/custom-hostnames/"+host, nil)
			r.gone = func(t *testing.T) bool { return w.status(t, "/custom-hostnames/"+host) == 404 }
			return r
		}},
		{"getSubdomain", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			w.Expect(t, 200, w.admin, "PATCH", w.orgPath(""), map[string]any{"hostname": "matrix-org"})
			return matrixReq("GET", "/subdomains/matrix-org", nil)
		}},
		{"regenerateSitePublishingAuthById", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/publishing/auth/regenerate"), nil)
		}},
	}
}

// slug is a name no other call returns, as a path segment.
func (w *matrixWorld) slug(prefix string) string {
	w.n++
	return prefix + "-" + string(rune('a'+w.n%26)) + string(rune('a'+w.n/26%26)) + string(rune('a'+w.n/676%26))
}

// freshRedirect adds a redirect to the published site.
func (w *matrixWorld) freshRedirect(t *testing.T) string {
	t.Helper()
	target := "https://example.com/"
	r := &store.SiteRedirect{SiteID: w.site, Source: "/" + w.slug("fresh"), RedirectDestination: store.RedirectDestination{DestinationKind: "external", URL: &target}}
	if err := w.Store.CreateSiteRedirect(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

// freshShareLink adds a share link to the published site.
func (w *matrixWorld) freshShareLink(t *testing.T) string {
	t.Helper()
	l, err := w.Store.CreateSiteShareLink(context.Background(), w.site, "Fresh")
	if err != nil {
		t.Fatal(err)
	}
	return l.ID
}

// siteHostname gives the published site a hostname (again, when a row took it away).
func (w *matrixWorld) siteHostname(t *testing.T) string {
	t.Helper()
	const host = "docs.matrix.invalid"
	w.Expect(t, 200, w.admin, "PATCH", w.sitePath(w.site, ""), map[string]any{"hostname": host})
	return host
}
