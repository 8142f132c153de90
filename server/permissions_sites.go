package server

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// sitePerms finds a site for a permission operation, with at least min on it.
func (s *Server) sitePerms(ctx context.Context, orgID, siteID string, min store.Role) (permTarget, *store.Site, error) {
	site, _, err := s.Access.FindSite(ctx, orgID, siteID, min)
	if err != nil {
		return permTarget{}, nil, err
	}
	return permTarget{GrantTarget: store.GrantTarget{Kind: store.GrantSite, ID: site.ID, OrganizationID: site.OrganizationID},
		level: site.DefaultLevel}, site, nil
}

func (s *Server) InviteToSite(ctx context.Context, req gen.InviteToSiteRequestObject) (gen.InviteToSiteResponseObject, error) {
	t, _, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.grantTo(ctx, t, req.Body); err != nil {
		return nil, err
	}
	return gen.InviteToSite204Response{}, nil
}

func (s *Server) ListPermissionsAggregateInSite(ctx context.Context, req gen.ListPermissionsAggregateInSiteRequestObject) (gen.ListPermissionsAggregateInSiteResponseObject, error) {
	_, site, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	p := req.Params
	team := ""
	if p.Team != nil {
		team = *p.Team
	}
	all, err := s.Access.SiteReadersOf(ctx, site, team)
	if err != nil {
		return nil, err
	}
	var kept []*access.SiteReader
	for _, r := range all {
		if p.Role != nil && !(string(*p.Role) == string(r.Role) || (*p.Role == gen.MemberRoleFilterGuest && r.OrgRole == store.RoleGuest)) {
			continue
		}
		if p.Search != nil && !strings.Contains(strings.ToLower(r.User.DisplayName+"\x00"+r.User.Email), strings.ToLower(*p.Search)) {
			continue
		}
		kept = append(kept, r)
	}
	sortSiteReaders(kept, p.Sort, p.Order == nil || *p.Order == gen.Desc)
	// A computed order pages by offset: the cursor is the number of members already answered.
	pg := page(p.Page, p.Limit)
	cur, err := store.DecodeCursor(pg.Cursor, 1)
	if err != nil {
		return nil, err
	}
	start := 0
	if cur != nil {
		if start, err = strconv.Atoi(cur[0]); err != nil || start < 0 {
			return nil, store.FieldErrorf("page", "not a page cursor this list answered")
		}
	}
	window := kept[min(start, len(kept)):min(len(kept), start+pg.Size())]
	out := gen.ListPermissionsAggregateInSite200JSONResponse{Count: len(kept), Items: make([]gen.UserSitePermission, 0, len(window))}
	if start+len(window) < len(kept) {
		out.Next = &gen.ListNext{Page: store.EncodeCursor(strconv.Itoa(start + len(window)))}
	}
	for _, r := range window {
		it := gen.UserSitePermission{Permission: apiRole(r.Role), User: s.toAPIUser(&r.User), Disabled: r.Disabled, LastSeenAt: r.LastSeenAt}
		it.Origin.Type = gen.SitePermissionOriginType(r.Origin)
		if r.Origin == "organization" {
			it.Origin.Organization = &site.OrganizationID
		} else {
			reason := gen.SitePermissionReason(r.Reason)
			it.Origin.Site, it.Origin.Reason = &site.ID, &reason
			if r.Team != "" {
				it.Origin.Team = &r.Team
			}
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}

// sortSiteReaders orders a site's readers by joinedAt (the default), lastSeenAt (never seen
// last) or name, newest or last first when desc, then by user id.
func sortSiteReaders(rs []*access.SiteReader, by *gen.SiteMemberSort, desc bool) {
	key := func(r *access.SiteReader) string { return r.JoinedAt.Format("2006-01-02T15:04:05.000000Z") }
	if by != nil && *by == gen.SiteMemberSortLastSeenAt {
		key = func(r *access.SiteReader) string {
			if r.LastSeenAt == nil {
				return ""
			}
			return r.LastSeenAt.Format("2006-01-02T15:04:05.000000Z")
		}
	} else if by != nil && *by == gen.SiteMemberSortName {
		key = func(r *access.SiteReader) string { return strings.ToLower(r.User.DisplayName) }
	}
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := key(rs[i]), key(rs[j])
		if a == b {
			return rs[i].User.ID < rs[j].User.ID
		}
		return (a < b) != desc
	})
}

func (s *Server) ListUserPermissionsInSite(ctx context.Context, req gen.ListUserPermissionsInSiteRequestObject) (gen.ListUserPermissionsInSiteResponseObject, error) {
	t, _, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	l, err := s.userGrants(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	out := gen.ListUserPermissionsInSite200JSONResponse{Count: l.Count, Next: l.Next, Items: make([]gen.UserSitePermissionOverride, 0, len(l.Items))}
	for _, it := range l.Items {
		out.Items = append(out.Items, gen.UserSitePermissionOverride{Permission: apiRole(store.Role(it.Permission)), User: it.User})
	}
	return out, nil
}

func (s *Server) UpdateUserPermissionInSite(ctx context.Context, req gen.UpdateUserPermissionInSiteRequestObject) (gen.UpdateUserPermissionInSiteResponseObject, error) {
	t, _, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.setGrant(ctx, t, req.UserId, "", nullable.NewNullableWithValue(gen.MemberRoleOrGuest(req.Body.Role))); err != nil {
		return nil, err
	}
	return gen.UpdateUserPermissionInSite204Response{}, nil
}

func (s *Server) RemoveUserFromSite(ctx context.Context, req gen.RemoveUserFromSiteRequestObject) (gen.RemoveUserFromSiteResponseObject, error) {
	t, _, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if removed, err := s.revoke(ctx, t, req.UserId, ""); err != nil || !removed {
		return gen.RemoveUserFromSite204Response{}, err
	}
	return gen.RemoveUserFromSite205Response{}, nil
}

func (s *Server) ListTeamPermissionsInSite(ctx context.Context, req gen.ListTeamPermissionsInSiteRequestObject) (gen.ListTeamPermissionsInSiteResponseObject, error) {
	t, _, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	l, err := s.teamGrants(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	out := gen.ListTeamPermissionsInSite200JSONResponse{Count: l.Count, Next: l.Next, Items: make([]gen.TeamSitePermissionOverride, 0, len(l.Items))}
	for _, it := range l.Items {
		out.Items = append(out.Items, gen.TeamSitePermissionOverride{Permission: apiRole(store.Role(it.Permission)), Team: it.Team})
	}
	return out, nil
}

func (s *Server) UpdateTeamPermissionInSite(ctx context.Context, req gen.UpdateTeamPermissionInSiteRequestObject) (gen.UpdateTeamPermissionInSiteResponseObject, error) {
	t, _, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.setGrant(ctx, t, "", req.TeamId, nullable.NewNullableWithValue(gen.MemberRoleOrGuest(req.Body.Role))); err != nil {
		return nil, err
	}
	return gen.UpdateTeamPermissionInSite204Response{}, nil
}

func (s *Server) RemoveTeamFromSite(ctx context.Context, req gen.RemoveTeamFromSiteRequestObject) (gen.RemoveTeamFromSiteResponseObject, error) {
	t, _, err := s.sitePerms(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if removed, err := s.revoke(ctx, t, "", req.TeamId); err != nil || !removed {
		return gen.RemoveTeamFromSite204Response{}, err
	}
	return gen.RemoveTeamFromSite205Response{}, nil
}
