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
// installation lists, which need none) and the role the installation acts with for it, and only
// on the installation's organization, its integration, and the spaces and sites it is installed
// on. Every other call answers 403.
//
// Reads act with the read role. A write scope opens only the writes its name says, each acting
// with the role that operation needs (edit for change requests, admin for a space's metadata,
// create for a site's adaptive schema and the organization's OpenAPI specs, admin for ingesting
// conversations): the gate lets the installation call nothing else, so the role reaches no
// further than those operations. Writes are attributed to the user who installed the integration. Scopes with no operation here (space:git:sync,
// page:feedback:read, site:views:read, site:script:*, site:visitor:*) open nothing yet.
type installationOperation struct {
	scope string
	role  store.Role
}

var installationOperations = map[string]installationOperation{
	"getSpaceById":                       {"space:metadata:read", store.RoleRead},
	"getCurrentRevision":                 {"space:content:read", store.RoleRead},
	"listPages":                          {"space:content:read", store.RoleRead},
	"getPageById":                        {"space:content:read", store.RoleRead},
	"getPageByPath":                      {"space:content:read", store.RoleRead},
	"searchSpaceContent":                 {"space:content:read", store.RoleRead},
	"listFiles":                          {"space:content:read", store.RoleRead},
	"getFileById":                        {"space:content:read", store.RoleRead},
	"listSpaceFileBacklinks":             {"space:content:read", store.RoleRead},
	"listPageLinksInSpace":               {"space:content:read", store.RoleRead},
	"listSpacePageBacklinks":             {"space:content:read", store.RoleRead},
	"getSiteById":                        {"site:metadata:read", store.RoleRead},
	"listSiteSpaces":                     {"site:metadata:read", store.RoleRead},
	"listSiteSections":                   {"site:metadata:read", store.RoleRead},
	"listSiteSectionGroups":              {"site:metadata:read", store.RoleRead},
	"getSiteAdaptiveSchema":              {"site:adaptive:read", store.RoleRead},
	"listSiteAdaptiveTemplateConditions": {"site:adaptive:read", store.RoleRead},
	"listOpenAPISpecs":                   {"openapi:read", store.RoleRead},
	"getOpenAPISpecBySlug":               {"openapi:read", store.RoleRead},
	"listOpenAPISpecVersions":            {"openapi:read", store.RoleRead},
	"getLatestOpenAPISpecVersion":        {"openapi:read", store.RoleRead},
	"getLatestOpenAPISpecVersionContent": {"openapi:read", store.RoleRead},
	"getOpenAPISpecVersionById":          {"openapi:read", store.RoleRead},
	"getOpenAPISpecVersionContentById":   {"openapi:read", store.RoleRead},
	"getIntegrationByName":               {"", store.RoleRead},
	"getIntegrationInstallationById":     {"", store.RoleRead},
	"listIntegrationInstallations":       {"", store.RoleRead},
	"listIntegrationSpaceInstallations":  {"", store.RoleRead},
	"listIntegrationSiteInstallations":   {"", store.RoleRead},
	"listIntegrationInstallationSpaces":  {"", store.RoleRead},
	"listIntegrationInstallationSites":   {"", store.RoleRead},
	"getIntegrationSpaceInstallation":    {"", store.RoleRead},
	"getIntegrationSiteInstallation":     {"", store.RoleRead},

	// Writes.
	"createChangeRequest":             {"space:content:write", store.RoleEdit},
	"updateChangeRequestById":         {"space:content:write", store.RoleEdit},
	"updateChangeRequest":             {"space:content:write", store.RoleEdit},
	"updateChangeRequestContent":      {"space:content:write", store.RoleEdit},
	"mergeChangeRequest":              {"space:content:write", store.RoleEdit},
	"updateSpaceById":                 {"space:metadata:write", store.RoleAdmin},
	"updateSiteAdaptiveSchema":        {"site:adaptive:write", openAPIEditRole},
	"createOpenAPISpec":               {"openapi:write", openAPIEditRole},
	"createOrUpdateOpenAPISpecBySlug": {"openapi:write", openAPIEditRole},
	"updateOpenAPISpecBySlug":         {"openapi:write", openAPIEditRole},
	"deleteOpenAPISpecBySlug":         {"openapi:write", openAPIEditRole},
	"ingestConversation":              {"conversations:ingest", store.RoleAdmin},
	// Its own space and site installations' configuration and external ids (the gate keeps it
	// to the spaces and sites it is installed on).
	"updateIntegrationSpaceInstallation": {"", store.RoleAdmin},
	"updateIntegrationSiteInstallation":  {"", store.RoleAdmin},
}

type grantKey struct{}

// grantedCall is what the gate lets one call of an installation reach: its grant, and the role
// it acts with for the operation called.
type grantedCall struct {
	*store.InstallationGrant
	role store.Role
}

// installationGrant returns what the calling installation may reach (nil for a user).
func installationGrant(ctx context.Context) *grantedCall {
	g, _ := ctx.Value(grantKey{}).(*grantedCall)
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
			allowed, listed := installationOperations[op]
			switch {
			case !listed:
				return &httpError{http.StatusForbidden, "An installation token cannot call " + op + "."}
			case allowed.scope != "" && !slices.Contains(g.Scopes, allowed.scope):
				return &httpError{http.StatusForbidden, "This needs the " + allowed.scope + " scope, which the integration does not have."}
			}
			if name := c.Param("integrationName"); name != "" && name != g.IntegrationName {
				return &httpError{http.StatusForbidden, "An installation token reaches its own integration only."}
			}
			if id := c.Param("installationId"); id != "" && id != g.InstallationID {
				return &httpError{http.StatusForbidden, "An installation token reaches its own installation only."}
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
			ctx = context.WithValue(ctx, grantKey{}, &grantedCall{g, allowed.role})
			if allowed.role != store.RoleRead {
				// A write is attributed to the user who installed the integration (the author of
				// the change requests and revisions it makes); the caller stays the installation.
				if g.InstalledBy == "" {
					return &httpError{http.StatusForbidden, "This installation records no installing user to write as; install the integration again."}
				}
				acting := *u
				acting.ID = g.InstalledBy
				ctx = context.WithValue(ctx, callerKey{}, &acting)
			}
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}

// grantedOrgRole is the role an installation acts with in an organization: in its own, the role
// the table gives the operation called (what it reaches is narrowed by the gate above); none
// elsewhere.
func grantedOrgRole(g *grantedCall, orgID string) (store.Role, bool) {
	if g.OrganizationID != orgID {
		return "", false
	}
	return g.role, true
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
