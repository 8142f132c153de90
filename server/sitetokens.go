package server

import (
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/server/access"
)

// A site token (access/sitetokens.go) is checked by authenticate and gated here, before the
// handler runs, by the access rules.

// siteTokenGate lets a site token call only siteTokenOperations, on its own site's resources;
// operations maps "METHOD /echo/path" to operation ids.
func (s *Server) siteTokenGate(operations map[string]string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			t := access.SiteTokenOf(ctx)
			if t == nil {
				return next(c)
			}
			op, known := operations[c.Request().Method+" "+c.Path()]
			if !known {
				return next(c) // no such API path: its 404
			}
			ctx, err := s.Access.CheckSiteTokenCall(ctx, t, op, c.Param)
			if err != nil {
				return err
			}
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}
