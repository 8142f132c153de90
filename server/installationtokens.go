package server

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// An installation token (createIntegrationInstallationToken) authenticates like a user's token
// (the same hash lookup, the same cache) as a caller whose InstallationID is set. What it may
// call is this table: each operation the scope it needs ("" for the integration's own
// installation lists, which need none), and only on the installation's organization, its
// integration, and the spaces and sites it is installed on. Every other call answers 403.
var installationOperations = map[string]string{
	"getSpaceById":                       "space:metadata:read",
	"getCurrentRevision":                 "space:content:read",
	"listPages":                          "space:content:read",
	"getPageById":                        "space:content:read",
	"getPageByPath":                      "space:content:read",
	"searchSpaceContent":                 "space:content:read",
	"listFiles":                          "space:content:read",
	"getFileById":                        "space:content:read",
	"listSpaceFileBacklinks":             "space:content:read",
	"listPageLinksInSpace":               "space:content:read",
	"listSpacePageBacklinks":             "space:content:read",
	"getSiteById":                        "site:metadata:read",
	"listSiteSpaces":                     "site:metadata:read",
	"listSiteSections":                   "site:metadata:read",
	"listSiteSectionGroups":              "site:metadata:read",
	"getSiteAdaptiveSchema":              "site:adaptive:read",
	"listSiteAdaptiveTemplateConditions": "site:adaptive:read",
	"getIntegrationByName":               "",
	"listIntegrationInstallations":       "",
	"listIntegrationSpaceInstallations":  "",
	"listIntegrationSiteInstallations":   "",
}

type grantKey struct{}

// installationGrant returns what the calling installation may reach (nil for a user).
func installationGrant(ctx context.Context) *store.InstallationGrant {
	g, _ := ctx.Value(grantKey{}).(*store.InstallationGrant)
	return g
}

// installationGate refuses an installation token every call its grant does not allow; operations
// maps "METHOD /echo/path" to operation ids. The grant is read on every call (not cached with the
// token), so uninstalling from a space takes effect at once.
func (s *Server) installationGate(operations map[string]string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			u := caller(ctx)
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
			op := operations[c.Request().Method+" "+c.Path()]
			scope, listed := installationOperations[op]
			switch {
			case !listed:
				return &httpError{http.StatusForbidden, "An installation token cannot call " + op + "."}
			case scope != "" && !slices.Contains(g.Scopes, scope):
				return &httpError{http.StatusForbidden, "This needs the " + scope + " scope, which the integration does not have."}
			}
			if name := c.Param("integrationName"); name != "" && name != g.IntegrationName {
				return &httpError{http.StatusForbidden, "An installation token reaches its own integration only."}
			}
			if org := c.Param("organizationId"); org != "" && org != g.OrganizationID {
				return &httpError{http.StatusForbidden, "An installation token reaches its installation's organization only."}
			}
			if id := c.Param("spaceId"); id != "" && g.SpaceSelection != "all" && !slices.Contains(g.SpaceIDs, id) {
				return &httpError{http.StatusForbidden, "The integration is not installed on this space."}
			}
			if id := c.Param("siteId"); id != "" && g.SiteSelection != "all" && !slices.Contains(g.SiteIDs, id) {
				return &httpError{http.StatusForbidden, "The integration is not installed on this site."}
			}
			c.SetRequest(c.Request().WithContext(context.WithValue(ctx, grantKey{}, g)))
			return next(c)
		}
	}
}

// grantedOrgRole is the role an installation acts with in an organization: read in its own
// (what it may read is narrowed by the gate above), none elsewhere.
func grantedOrgRole(g *store.InstallationGrant, orgID string) (store.Role, bool) {
	if g.OrganizationID != orgID {
		return "", false
	}
	return store.RoleRead, true
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
