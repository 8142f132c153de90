package access

import (
	"context"

	"github.com/quire-docs/quire/store"
)

// The finders read one resource and resolve the caller's role on it in one step: 404 outside the
// caller's organizations (worded as a missing resource), 403 below min.

// FindSpace returns a space the caller can see with at least min, and the caller's role on it.
func (r *Rules) FindSpace(ctx context.Context, id string, min store.Role) (*store.Space, store.Role, error) {
	sp, orgRole, member, err := r.Store.FindSpaceForUser(ctx, id, Caller(ctx).ID)
	if err != nil {
		return nil, "", err
	}
	if g := Grant(ctx); g != nil {
		orgRole, member = g.OrgRole(sp.OrganizationID)
	}
	if !member {
		return nil, "", store.NotFound("Space")
	}
	roles := r.contentRolesOf(ctx, sp.OrganizationID, orgRole)
	role, err := roles.Require(ctx, sp.ID, sp.DefaultLevel, sp.ParentID, min, "space")
	return sp, role, err
}

// FindCollection returns a collection the caller can see with at least min, and the caller's
// role on it.
func (r *Rules) FindCollection(ctx context.Context, id string, min store.Role) (*store.Collection, store.Role, error) {
	c, err := r.Store.FindCollection(ctx, id)
	if err != nil {
		return nil, "", err
	}
	roles, err := r.ContentRoles(ctx, c.OrganizationID)
	if err != nil {
		return nil, "", NotFoundAs(err, "Collection")
	}
	role, err := roles.Require(ctx, c.ID, c.DefaultLevel, c.ParentID, min, "collection")
	return c, role, err
}

// FindSite returns a site of an organization the caller is a member of, with at least min on it
// (404 when the site is not the organization's), and the caller's role on the site.
func (r *Rules) FindSite(ctx context.Context, orgID, siteID string, min store.Role) (*store.Site, store.Role, error) {
	site, roles, err := r.FindSiteRoles(ctx, orgID, siteID, min)
	if err != nil {
		return nil, "", err
	}
	role, err := roles.Site(ctx, site)
	return site, role, err
}

// FindSiteRoles is FindSite answering the caller's content resolver in the site's organization,
// for answers that carry the site's spaces with the caller's role on each.
func (r *Rules) FindSiteRoles(ctx context.Context, orgID, siteID string, min store.Role) (*store.Site, *ContentRoles, error) {
	roles, err := r.ContentRoles(ctx, orgID)
	if err != nil {
		return nil, nil, NotFoundAs(err, "Site")
	}
	site, err := r.Store.FindSite(ctx, siteID)
	if err != nil {
		return nil, nil, err
	}
	if site.OrganizationID != orgID {
		return nil, nil, store.NotFound("Site")
	}
	role, err := roles.Site(ctx, site)
	if err != nil {
		return nil, nil, err
	}
	if role == store.RoleGuest {
		return nil, nil, store.NotFound("Site")
	}
	if !role.AtLeast(min) {
		return nil, nil, forbidden("This needs the " + string(min) + " role on this site.")
	}
	return site, roles, nil
}
