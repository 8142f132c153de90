package access

import (
	"context"
	"slices"

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
	"getRevisionById":                    {"space:content:read", store.RoleRead},
	"listPagesInRevisionById":            {"space:content:read", store.RoleRead},
	"getPageInRevisionById":              {"space:content:read", store.RoleRead},
	"getPageInRevisionByPath":            {"space:content:read", store.RoleRead},
	"getPageDocumentInRevisionById":      {"space:content:read", store.RoleRead},
	"listFilesInRevisionById":            {"space:content:read", store.RoleRead},
	"getFileInRevisionById":              {"space:content:read", store.RoleRead},
	"getDocumentById":                    {"space:content:read", store.RoleRead},
	"getRevisionSemanticChanges":         {"space:content:read", store.RoleRead},
	"listSpacePageMetaLinks":             {"space:content:read", store.RoleRead},
	"listRevisionPageMetaLinks":          {"space:content:read", store.RoleRead},
	"getEmbedByUrlInSpace":               {"space:content:read", store.RoleRead},
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
	"updateSiteAdaptiveSchema":        {"site:adaptive:write", OpenAPIEditRole},
	"createOpenAPISpec":               {"openapi:write", OpenAPIEditRole},
	"createOrUpdateOpenAPISpecBySlug": {"openapi:write", OpenAPIEditRole},
	"updateOpenAPISpecBySlug":         {"openapi:write", OpenAPIEditRole},
	"deleteOpenAPISpecBySlug":         {"openapi:write", OpenAPIEditRole},
	"ingestConversation":              {"conversations:ingest", store.RoleAdmin},
	// Its own space and site installations' configuration and external ids (the gate keeps it
	// to the spaces and sites it is installed on).
	"updateIntegrationSpaceInstallation": {"", store.RoleAdmin},
	"updateIntegrationSiteInstallation":  {"", store.RoleAdmin},
}

// OpenAPIEditRole is the organization role that manages OpenAPI specifications (and a site's
// adaptive schema).
const OpenAPIEditRole = store.RoleCreate

type grantKey struct{}

// Granted is what the installation table lets one call of an installation reach: its grant, and
// the role it acts with for the operation called.
type Granted struct {
	*store.InstallationGrant
	Role store.Role
}

// Grant returns what the calling installation may reach (nil for a user).
func Grant(ctx context.Context) *Granted {
	g, _ := ctx.Value(grantKey{}).(*Granted)
	return g
}

// WithGrant returns a context whose calls are the installation's, as CheckInstallationCall allowed.
func WithGrant(ctx context.Context, g *Granted) context.Context {
	return context.WithValue(ctx, grantKey{}, g)
}

// OrgRole is the role an installation acts with in an organization: in its own, the role the
// table gives the operation called (what it reaches is narrowed by CheckInstallationCall); none
// elsewhere.
func (g *Granted) OrgRole(orgID string) (store.Role, bool) {
	if g.OrganizationID != orgID {
		return "", false
	}
	return g.Role, true
}

// CheckInstallationCall decides whether an installation's grant lets it call the operation op
// with the path parameters param names, and answers what the call may reach, or a 403 naming the
// reason.
func CheckInstallationCall(g *store.InstallationGrant, op string, param func(name string) string) (*Granted, error) {
	allowed, listed := installationOperations[op]
	switch {
	case !listed:
		return nil, forbidden("An installation token cannot call " + op + ".")
	case allowed.scope != "" && !slices.Contains(g.Scopes, allowed.scope):
		return nil, forbidden("This needs the " + allowed.scope + " scope, which the integration does not have.")
	}
	if name := param("integrationName"); name != "" && name != g.IntegrationName {
		return nil, forbidden("An installation token reaches its own integration only.")
	}
	if id := param("installationId"); id != "" && id != g.InstallationID {
		return nil, forbidden("An installation token reaches its own installation only.")
	}
	if org := param("organizationId"); org != "" && org != g.OrganizationID {
		return nil, forbidden("An installation token reaches its installation's organization only.")
	}
	if id := param("spaceId"); id != "" && g.SpaceSelection != "all" && !slices.Contains(g.SpaceIDs, id) {
		return nil, forbidden("The integration is not installed on this space.")
	}
	if id := param("siteId"); id != "" && g.SiteSelection != "all" && !slices.Contains(g.SiteIDs, id) {
		return nil, forbidden("The integration is not installed on this site.")
	}
	return &Granted{g, allowed.role}, nil
}
