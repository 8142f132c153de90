package access

import (
	"context"
	"sync"

	"github.com/quire-docs/quire/store"
)

// Store is what the rules read.
type Store interface {
	store.Clock
	FindMemberRole(ctx context.Context, orgID string, userID string) (store.Role, error)
	CollectionLevels(ctx context.Context, orgID string) (store.Levels, error)
	FindSpaceForUser(ctx context.Context, id string, userID string) (sp *store.Space, role store.Role, member bool, err error)
	FindCollection(ctx context.Context, id string) (*store.Collection, error)
	FindSite(ctx context.Context, id string) (*store.Site, error)
	FindSpace(ctx context.Context, id string) (*store.Space, error)
	EnsureSetting(ctx context.Context, name, value string) (string, error)
	FindSiteShareLinkByKey(ctx context.Context, siteID, key string) (*store.SiteShareLink, error)
	SitePublishingAuth(ctx context.Context, siteID string) (*store.SitePublishingAuth, error)
}

// Rules resolves the caller's roles (steps 1 to 4 of the package doc) and reads visitors' tokens
// (step 5).
type Rules struct {
	Store Store
	// VisitorSecret signs the visitor tokens that sites with visitor authentication check.
	VisitorSecret []byte
	// siteKey caches the key site tokens are signed with (sitetokens.go).
	siteKey siteKey
}

// MemberRole returns the caller's role in an organization, or ENOTFOUND when not a member.
func (r *Rules) MemberRole(ctx context.Context, orgID string) (store.Role, error) {
	if g := Grant(ctx); g != nil {
		if role, ok := g.OrgRole(orgID); ok {
			return role, nil
		}
		return "", store.NotFound("Organization")
	}
	return r.Store.FindMemberRole(ctx, orgID, Caller(ctx).ID)
}

// RequireOrgRole returns the caller's role in an organization when it is at least min.
func (r *Rules) RequireOrgRole(ctx context.Context, orgID string, min store.Role) (store.Role, error) {
	role, err := r.MemberRole(ctx, orgID)
	if err != nil {
		return "", err
	}
	if !role.AtLeast(min) {
		return role, forbidden("This needs the " + string(min) + " role in the organization.")
	}
	return role, nil
}

// ContentRoles resolves the caller's role on the content of one organization, loading the
// collection levels at most once however many items are resolved.
type ContentRoles struct {
	rules   *Rules
	orgID   string
	OrgRole store.Role // the caller's role in the organization
	levels  store.Levels
}

// ContentRoles returns the resolver for an organization the caller is a member of (ENOTFOUND
// otherwise).
func (r *Rules) ContentRoles(ctx context.Context, orgID string) (*ContentRoles, error) {
	role, err := r.MemberRole(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &ContentRoles{rules: r, orgID: orgID, OrgRole: role}, nil
}

// Of returns the caller's role on content with a default level under a parent collection.
func (c *ContentRoles) Of(ctx context.Context, level store.Role, parent *string) (store.Role, error) {
	if c.OrgRole == store.RoleGuest {
		return store.RoleGuest, nil
	}
	if level == store.LevelInherit && parent != nil && c.levels == nil {
		levels, err := c.rules.Store.CollectionLevels(ctx, c.orgID)
		if err != nil {
			return "", err
		}
		c.levels = levels
	}
	return c.OrgRole.Max(c.levels.Resolve(level, parent)), nil
}

// Require returns the caller's role on content when it is at least min (403 otherwise); what
// names the content in the refusal.
func (c *ContentRoles) Require(ctx context.Context, level store.Role, parent *string, min store.Role, what string) (store.Role, error) {
	role, err := c.Of(ctx, level, parent)
	if err != nil {
		return "", err
	}
	if !role.AtLeast(min) {
		return role, forbidden("This needs the " + string(min) + " role on this " + what + ".")
	}
	return role, nil
}

// SiteRole is a member's role on a site: their organization role, raised to the site's default
// level (inherit and none raise nothing); a guest of the organization has none.
func SiteRole(orgRole store.Role, site *store.Site) store.Role {
	if orgRole == store.RoleGuest {
		return store.RoleGuest
	}
	return orgRole.Max(store.Levels(nil).Resolve(site.DefaultLevel, nil))
}

// ContentRolesAs returns the resolver for someone whose role in the organization is already known
// (a member whose permissions are listed; a space read with its caller's membership).
func (r *Rules) ContentRolesAs(orgID string, orgRole store.Role) *ContentRoles {
	return &ContentRoles{rules: r, orgID: orgID, OrgRole: orgRole}
}

// siteKey caches the key site tokens are signed with, read from the settings table once.
type siteKey struct {
	mu  sync.Mutex
	key []byte
}
