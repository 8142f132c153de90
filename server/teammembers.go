package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Team membership: members of the organization read a team's members; organization admins and
// the team's owners add, remove and set roles (requireTeamAdmin). Only members of the
// organization join its teams.

func (s *Server) ListTeamMembersInOrganizationById(ctx context.Context, req gen.ListTeamMembersInOrganizationByIdRequestObject) (gen.ListTeamMembersInOrganizationByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	list, err := s.Store.FindTeamMembers(ctx, req.OrganizationId, req.TeamId, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListTeamMembersInOrganizationById200JSONResponse{Items: make([]gen.OrganizationTeamMember, 0, len(list.Items)),
		Count: list.Count, Next: listNext(list.Next)}
	for _, tm := range list.Items {
		item := gen.OrganizationTeamMember{Organization: s.toAPIMember(tm.Member), Team: gen.TeamMembership{Role: gen.TeamMemberRole(tm.Role)}}
		item.Permissions.View = true
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func (s *Server) AddMemberToOrganizationTeamById(ctx context.Context, req gen.AddMemberToOrganizationTeamByIdRequestObject) (gen.AddMemberToOrganizationTeamByIdResponseObject, error) {
	if _, _, err := s.requireTeamAdmin(ctx, req.OrganizationId, req.TeamId); err != nil {
		return nil, err
	}
	role := "member"
	if req.Body != nil && req.Body.Role != nil {
		role = string(*req.Body.Role)
	}
	if err := s.Store.SetTeamMember(ctx, req.OrganizationId, req.TeamId, req.UserId, role); err != nil {
		return nil, err
	}
	return gen.AddMemberToOrganizationTeamById204Response{}, nil
}

func (s *Server) DeleteMemberFromOrganizationTeamById(ctx context.Context, req gen.DeleteMemberFromOrganizationTeamByIdRequestObject) (gen.DeleteMemberFromOrganizationTeamByIdResponseObject, error) {
	if req.UserId != access.Caller(ctx).ID {
		if _, _, err := s.requireTeamAdmin(ctx, req.OrganizationId, req.TeamId); err != nil {
			return nil, err
		}
	} else if _, err := s.Access.MemberRole(ctx, req.OrganizationId); err != nil {
		return nil, err // anyone may leave a team, but only a member of its organization learns of it
	}
	removed, err := s.Store.RemoveTeamMember(ctx, req.OrganizationId, req.TeamId, req.UserId)
	if err != nil {
		return nil, err
	}
	if !removed {
		return gen.DeleteMemberFromOrganizationTeamById204Response{}, nil
	}
	return gen.DeleteMemberFromOrganizationTeamById205Response{}, nil
}

func (s *Server) UpdateMembersInOrganizationTeam(ctx context.Context, req gen.UpdateMembersInOrganizationTeamRequestObject) (gen.UpdateMembersInOrganizationTeamResponseObject, error) {
	if _, _, err := s.requireTeamAdmin(ctx, req.OrganizationId, req.TeamId); err != nil {
		return nil, err
	}
	upd := store.TeamMembersUpdate{Roles: map[string]string{}}
	if req.Body.Add != nil {
		upd.Add = *req.Body.Add
	}
	if req.Body.Remove != nil {
		upd.Remove = *req.Body.Remove
	}
	if req.Body.Memberships != nil {
		for u, m := range *req.Body.Memberships {
			upd.Roles[u] = string(m.Role)
		}
	}
	if err := s.Store.UpdateTeamMembers(ctx, req.OrganizationId, req.TeamId, upd); err != nil {
		return nil, err
	}
	return gen.UpdateMembersInOrganizationTeam204Response{}, nil
}
