package server_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"github.com/quire-docs/quire/store"
)

// The rows of published addresses and what GitBook's renderer reads of a site: resolving an
// address of a published (public) site is open to every authenticated caller, as the site is to
// every visitor; the site's search, redirects and events take the read role on the site; a
// user's profile is for those who share an organization with them.

func matrixURLRows() []matrixRow {
	site := func(rest string) func(w *matrixWorld) string {
		return func(w *matrixWorld) string { return w.sitePath(w.site, rest) }
	}
	return []matrixRow{
		{"resolvePublishedContentByUrl", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", "/urls/published", map[string]any{"url": testBaseURL + "/s/" + w.site + "/welcome"})
		}},
		matrixGet("getPublishedContentByUrl", matrixWant{401, 401, 200, 200, 200, 200, 200}, func(w *matrixWorld) string {
			return "/urls/published?url=" + url.QueryEscape(testBaseURL+"/s/"+w.site+"/welcome")
		}),
		matrixGet("getContentByUrl", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string {
			return "/urls/content?url=" + url.QueryEscape(testBaseURL+"/app/s/"+w.handbook+"/guide")
		}),
		matrixGet("getUserById", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string { return "/users/" + w.admin.ID }),
		{"searchSiteContent", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/search"), map[string]any{"query": "guide", "mode": "all"})
		}},
		{"prewarmSiteSearch", matrixWant{401, 401, 404, 204, 204, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/search/prewarm"), nil)
		}},
		{"trackEventsInSiteById", matrixWant{401, 401, 404, 204, 204, 204, 204}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/insights/events"), map[string]any{"events": []any{map[string]any{
				"type": "page_view", "session": map[string]any{"sessionId": "s", "visitorId": "v"}, "location": map[string]any{"url": "https://docs.test/"}}}})
		}},
		{"aggregateSiteEvents", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("POST", w.sitePath(w.site, "/insights/events/aggregate"), map[string]any{"range": "last7Days"})
		}},
		matrixGet("listSiteVisitorSegments", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(w *matrixWorld) string {
			return w.sitePath(w.site, "/insights/visitor-segments")
		}),
		{"getSiteRedirectBySource", matrixWant{401, 401, 404, 200, 200, 200, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			w.n++
			source := fmt.Sprintf("/old-%d", w.n)
			target := "https://example.com/new"
			if err := w.Store.CreateSiteRedirect(context.Background(), &store.SiteRedirect{SiteID: w.site, Source: source, RedirectDestination: store.RedirectDestination{DestinationKind: "external", URL: &target}}); err != nil {
				t.Fatal(err)
			}
			return matrixReq("GET", site("/redirect?source="+url.QueryEscape(source))(w), nil)
		}},
	}
}
