package server

import (
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// installationGate refuses an installation token every call its grant does not allow; operations
// maps "METHOD /echo/path" to operation ids. The grant is read on every call (not cached with the
// token), so uninstalling from a space takes effect at once.
func (s *Server) installationGate(operations map[string]string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			u := access.Caller(ctx)
			if u == nil || u.InstallationID == "" {
				return next(c)
			}
			g, err := s.Store.FindInstallationGrant(ctx, u.InstallationID)
			if store.ErrorCode(err) == store.ENOTFOUND {
				return &httpError{http.StatusUnauthorized, "The token is not valid."}
			}
			if err != nil {
				return err
			}
			granted, err := access.CheckInstallationCall(g, operations[c.Request().Method+" "+c.Path()], c.Param)
			if err != nil {
				return err
			}
			ctx = access.WithGrant(ctx, granted)
			if granted.Role != store.RoleRead {
				// A write is attributed to the user who installed the integration (the author of
				// the change requests and revisions it makes); the caller stays the installation.
				if g.InstalledBy == "" {
					return &httpError{http.StatusForbidden, "This installation records no installing user to write as; install the integration again."}
				}
				acting := *u
				acting.ID = g.InstalledBy
				ctx = access.WithCaller(ctx, &acting)
			}
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// operationsByRoute maps "METHOD /prefix/echo/path" to each operation id of a spec.
func operationsByRoute(doc *openapi3.T, prefix string) map[string]string {
	out := map[string]string{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			// The embedded spec names operations as Go does (GetSpaceById): the table uses the spec's.
			id := op.OperationID
			if id != "" {
				id = strings.ToLower(id[:1]) + id[1:]
			}
			out[method+" "+prefix+EchoPath(path)] = id
		}
	}
	return out
}
