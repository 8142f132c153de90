package access

import (
	"context"
	"strings"
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
	GrantsForUser(ctx context.Context, orgID, userID string) (store.Grants, error)
	MembersAccess(ctx context.Context, orgID string, targetIDs []string, teamID string) ([]*store.MemberAccess, error)
	EnsureSetting(ctx context.Context, name, value string) (string, error)
	FindBacklinks(ctx context.Context, revisionID string, kind string, target string, p store.Page) (store.List[string], error)
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

// ContentRoles resolves one person's role on the content of one organization, reading the
// collection levels and their grants at most once each however many items are resolved (one
// query each; neither when the organization role decides alone).
//
// A role on a space or collection is: admin for the organization's admins; else the
// organization role where the content's default level (through `inherit` up the collections)
// leaves members theirs — a level raises it, null takes it away, and guests get nothing from
// levels —; raised by the grants on every collection above the content, and by the grants on
// the content itself (a team's grant is its members'). store.RoleGuest is no access at all.
type ContentRoles struct {
	rules   *Rules
	orgID   string
	userID  string
	OrgRole store.Role // the caller's role in the organization
	// scoped: an installation's or a site token's call, whose reach its scope decides (default
	// levels do not narrow it, and it holds no member's grants).
	scoped bool
	levels store.Levels
	grants store.Grants
}

// ContentRoles returns the resolver for an organization the caller is a member of (ENOTFOUND
// otherwise).
func (r *Rules) ContentRoles(ctx context.Context, orgID string) (*ContentRoles, error) {
	role, err := r.MemberRole(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &ContentRoles{rules: r, orgID: orgID, userID: callerID(ctx), OrgRole: role, scoped: Grant(ctx) != nil}, nil
}

// ContentRolesFor returns the resolver for a member whose role in the organization is already
// known (a member whose permissions are listed).
func (r *Rules) ContentRolesFor(orgID, userID string, orgRole store.Role) *ContentRoles {
	return &ContentRoles{rules: r, orgID: orgID, userID: userID, OrgRole: orgRole}
}

// contentRolesOf returns the caller's resolver when their role in the organization is already
// known (a space read with its caller's membership).
func (r *Rules) contentRolesOf(ctx context.Context, orgID string, orgRole store.Role) *ContentRoles {
	return &ContentRoles{rules: r, orgID: orgID, userID: callerID(ctx), OrgRole: orgRole, scoped: Grant(ctx) != nil}
}

func callerID(ctx context.Context) string {
	if u := Caller(ctx); u != nil {
		return u.ID
	}
	return ""
}

// Levels returns the organization's collection levels, read once.
func (c *ContentRoles) Levels(ctx context.Context) (store.Levels, error) {
	if c.levels == nil {
		levels, err := c.rules.Store.CollectionLevels(ctx, c.orgID)
		if err != nil {
			return nil, err
		}
		if levels == nil {
			levels = store.Levels{}
		}
		c.levels = levels
	}
	return c.levels, nil
}

// Grants returns what the person was granted on the organization's content, read once (none for
// a scoped call or an admin).
func (c *ContentRoles) Grants(ctx context.Context) (store.Grants, error) {
	if c.grants == nil {
		grants := store.Grants{}
		if !c.scoped && c.OrgRole != store.RoleAdmin {
			var err error
			if grants, err = c.rules.Store.GrantsForUser(ctx, c.orgID, c.userID); err != nil {
				return nil, err
			}
		}
		c.grants = grants
	}
	return c.grants, nil
}

// Of returns the role on the content id, with its default level, under a parent collection.
func (c *ContentRoles) Of(ctx context.Context, id string, level store.Role, parent *string) (store.Role, error) {
	if c.OrgRole == store.RoleAdmin {
		return store.RoleAdmin, nil
	}
	grants, err := c.Grants(ctx)
	if err != nil {
		return "", err
	}
	// The collections are read only when the content inherits its level or grants may sit above it.
	var levels store.Levels
	if parent != nil && (level == store.LevelInherit || len(grants) > 0) {
		if levels, err = c.Levels(ctx); err != nil {
			return "", err
		}
	}
	role := store.RoleGuest
	if c.OrgRole != store.RoleGuest {
		lv, open := levels.Base(level, parent)
		if open || c.scoped {
			role = c.OrgRole.Max(lv)
		}
	}
	if len(grants) == 0 {
		return role, nil
	}
	role = role.Max(grants[id])
	for _, a := range levels.Ancestors(parent) {
		role = role.Max(grants[a])
	}
	return role, nil
}

// Require returns the role on content when it is at least min: ENOTFOUND (worded after what)
// when there is none, EFORBIDDEN naming min when it is weaker.
func (c *ContentRoles) Require(ctx context.Context, id string, level store.Role, parent *string, min store.Role, what string) (store.Role, error) {
	role, err := c.Of(ctx, id, level, parent)
	if err != nil {
		return "", err
	}
	if role == store.RoleGuest {
		return role, store.NotFound(strings.ToUpper(what[:1]) + what[1:])
	}
	if !role.AtLeast(min) {
		return role, forbidden("This needs the " + string(min) + " role on this " + what + ".")
	}
	return role, nil
}

// Site returns the role on a site: admin for the organization's admins; else the organization
// role where the site's default level leaves members theirs (`inherit` keeps it, a level raises
// it, null takes it away; guests get nothing from it), raised by the grants on the site.
func (c *ContentRoles) Site(ctx context.Context, site *store.Site) (store.Role, error) {
	if c.OrgRole == store.RoleAdmin {
		return store.RoleAdmin, nil
	}
	role := store.RoleGuest
	if c.OrgRole != store.RoleGuest {
		lv, open := store.Levels(nil).Base(site.DefaultLevel, nil)
		if open || c.scoped {
			role = c.OrgRole.Max(lv)
		}
	}
	grants, err := c.Grants(ctx)
	if err != nil {
		return "", err
	}
	return role.Max(grants[site.ID]), nil
}

// siteKey caches the key site tokens are signed with, read from the settings table once.
type siteKey struct {
	mu  sync.Mutex
	key []byte
}

// Visible narrows a list of the organization's spaces or collections to what Of lets the person
// read (nil: all of it, for an admin or a scoped call), from the same levels and grants.
func (c *ContentRoles) Visible(ctx context.Context) (*store.Visible, error) {
	if c.OrgRole == store.RoleAdmin || c.scoped {
		return nil, nil
	}
	levels, err := c.Levels(ctx)
	if err != nil {
		return nil, err
	}
	grants, err := c.Grants(ctx)
	if err != nil {
		return nil, err
	}
	v := &store.Visible{Member: c.OrgRole != store.RoleGuest}
	for id := range grants {
		v.Granted = append(v.Granted, id)
	}
	for id := range levels {
		if v.Member {
			if _, open := levels.Base(store.LevelInherit, &id); open {
				v.Open = append(v.Open, id)
			}
		}
		for _, a := range levels.Ancestors(&id) {
			if grants[a] != store.RoleGuest {
				v.Under = append(v.Under, id)
				break
			}
		}
	}
	return v, nil
}
