package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// GitBook's renderer caches what it reads from the API (Next.js "use cache") and reads two
// headers of each answer: x-gitbook-cache-tag, the comma-separated tags an answer is filed under
// (space:{id}, site:{id}, user:{id}), so that purging a tag drops every answer that read it; and
// x-gitbook-cache-control, whose max-age bounds how long it keeps an answer. quire names the
// resources a read depends on by its route's parameters, and marks the revision-pinned reads
// long-lived: a revision never changes (DESIGN.md §4).

// revisionCacheControl is how long an answer about one revision may be kept: a week.
const revisionCacheControl = "public, max-age=604800, immutable"

// cacheHeaders sets the renderer's cache headers on the successful reads of the API.
func cacheHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !strings.HasPrefix(c.Path(), "/v1/") {
			return next(c)
		}
		res := c.Response()
		res.Before(func() {
			if res.Status < 200 || res.Status >= 300 {
				return
			}
			var tags []string
			for _, p := range [...]struct{ param, tag string }{{"spaceId", "space"}, {"siteId", "site"}, {"userId", "user"}} {
				if v := c.Param(p.param); v != "" {
					tags = append(tags, p.tag+":"+v)
				}
			}
			h := res.Header()
			if len(tags) > 0 {
				h.Set("X-Gitbook-Cache-Tag", strings.Join(tags, ","))
			}
			if c.Param("revisionId") != "" && c.Request().Method == http.MethodGet {
				h.Set("X-Gitbook-Cache-Control", revisionCacheControl)
			}
		})
		return next(c)
	}
}
