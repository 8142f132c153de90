package access

import (
	"context"

	"github.com/quire-docs/quire/store"
)

// SiteReader is a member who can read a site, with their role on it and where it comes from.
type SiteReader struct {
	*store.MemberAccess
	Role store.Role
	// Origin: "organization" (their role there decides), or "site" with Reason "default" (the
	// site's default level), "member" (their own grant) or "team" (Team's grant).
	Origin, Reason, Team string
}

// SiteReadersOf lists every member of a site's organization (only those of the team teamID when
// set) who can read the site, by user id: the resolution of ContentRoles.Site, from one read of
// every member's grants on it.
func (r *Rules) SiteReadersOf(ctx context.Context, site *store.Site, teamID string) ([]*SiteReader, error) {
	members, err := r.Store.MembersAccess(ctx, site.OrganizationID, []string{site.ID}, teamID)
	if err != nil {
		return nil, err
	}
	var out []*SiteReader
	for _, m := range members {
		roles := &ContentRoles{rules: r, orgID: site.OrganizationID, userID: m.User.ID, OrgRole: m.OrgRole, grants: m.Grants}
		role, err := roles.Site(ctx, site)
		if err != nil {
			return nil, err
		}
		if role == store.RoleGuest {
			continue
		}
		sr := &SiteReader{MemberAccess: m, Role: role, Origin: "site"}
		switch {
		case m.OrgRole == store.RoleAdmin:
			sr.Origin = "organization"
		case role == m.Direct[site.ID]:
			sr.Reason = "member"
		case role == m.Grants[site.ID] && m.TeamGrants[site.ID] != "":
			sr.Reason, sr.Team = "team", m.TeamGrants[site.ID]
		case role == m.OrgRole:
			sr.Origin = "organization"
		default:
			sr.Reason = "default"
		}
		out = append(out, sr)
	}
	return out, nil
}
