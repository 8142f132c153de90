package server

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
)

// The renderer's cache headers: tags from the route's resources on a success, a long max-age on
// a revision-pinned read, nothing on a failure.
func TestCacheHeaders(t *testing.T) {
	t.Parallel()
	e := echo.New()
	e.Use(cacheHeaders)
	ok := func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{}) }
	e.GET("/v1/spaces/:spaceId/revisions/:revisionId", ok)
	e.GET("/v1/orgs/:organizationId/sites/:siteId/published", ok)
	e.GET("/v1/users/:userId", func(c echo.Context) error { return c.JSON(http.StatusNotFound, map[string]string{}) })
	for _, c := range []struct{ path, tag, control string }{
		{"/v1/spaces/sp1/revisions/rev1", "space:sp1", revisionCacheControl},
		{"/v1/orgs/o1/sites/site1/published", "site:site1", ""},
		{"/v1/users/u1", "", ""},
	} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if got := rec.Header().Get("X-Gitbook-Cache-Tag"); got != c.tag {
			t.Errorf("%s: cache tag %q, want %q", c.path, got, c.tag)
		}
		if got := rec.Header().Get("X-Gitbook-Cache-Control"); got != c.control {
			t.Errorf("%s: cache control %q, want %q", c.path, got, c.control)
		}
	}
}
