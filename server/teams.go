package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// toAPITeam shows a team to a caller with an organization role; team owners and admins manage it.
func toAPITeam(t *store.Team, callerRole store.Role) gen.Team {
	out := gen.Team{
		Object:    gen.TeamObjectTeam,
		Id:        t.ID,
		Title:     t.Title,
		Members:   t.Members,
		Spaces:    t.Spaces,
		CreatedAt: t.CreatedAt,
	}
	out.Permissions.Admin = callerRole == store.RoleAdmin || t.CallerTeamRole == "owner"
	out.Permissions.View = callerRole.AtLeast(store.RoleRead) || t.CallerTeamRole != ""
	return out
}

func (s *Server) ListTeamsInOrganizationById(ctx context.Context, req gen.ListTeamsInOrganizationByIdRequestObject) (gen.ListTeamsInOrganizationByIdResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	f := store.TeamFilter{Manager: req.Params.Owner}
	if req.Params.Title != nil {
		f.Title = *req.Params.Title
	}
	list, err := s.Store.FindTeams(ctx, req.OrganizationId, access.Caller(ctx).ID, f, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.Team, len(list.Items))
	for i, t := range list.Items {
		items[i] = toAPITeam(t, role)
	}
	return gen.ListTeamsInOrganizationById200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateOrganizationTeam(ctx context.Context, req gen.CreateOrganizationTeamRequestObject) (gen.CreateOrganizationTeamResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	var members []string
	if req.Body.Members != nil {
		members = *req.Body.Members
	}
	t, err := s.Store.CreateTeam(ctx, req.OrganizationId, access.Caller(ctx).ID, req.Body.Title, members)
	if err != nil {
		return nil, err
	}
	return gen.CreateOrganizationTeam201JSONResponse(toAPITeam(t, role)), nil
}

func (s *Server) GetTeamInOrganizationById(ctx context.Context, req gen.GetTeamInOrganizationByIdRequestObject) (gen.GetTeamInOrganizationByIdResponseObject, error) {
	role, err := s.Access.MemberRole(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	t, err := s.Store.FindTeam(ctx, req.OrganizationId, req.TeamId, access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	if !role.AtLeast(store.RoleRead) && t.CallerTeamRole == "" {
		return nil, forbidden("This needs the read role in the organization.")
	}
	return gen.GetTeamInOrganizationById200JSONResponse(toAPITeam(t, role)), nil
}

// requireTeamAdmin lets organization admins and the team's owners manage a team.
func (s *Server) requireTeamAdmin(ctx context.Context, orgID, teamID string) (store.Role, *store.Team, error) {
	role, err := s.Access.MemberRole(ctx, orgID)
	if err != nil {
		return "", nil, err
	}
	t, err := s.Store.FindTeam(ctx, orgID, teamID, access.Caller(ctx).ID)
	if err != nil {
		return "", nil, err
	}
	if role != store.RoleAdmin && t.CallerTeamRole != "owner" {
		return "", nil, forbidden("Only organization admins and the team's owners manage a team.")
	}
	return role, t, nil
}

func (s *Server) UpdateTeamInOrganizationById(ctx context.Context, req gen.UpdateTeamInOrganizationByIdRequestObject) (gen.UpdateTeamInOrganizationByIdResponseObject, error) {
	role, _, err := s.requireTeamAdmin(ctx, req.OrganizationId, req.TeamId)
	if err != nil {
		return nil, err
	}
	t, err := s.Store.UpdateTeam(ctx, req.OrganizationId, req.TeamId, access.Caller(ctx).ID, req.Body.Title)
	if err != nil {
		return nil, err
	}
	return gen.UpdateTeamInOrganizationById200JSONResponse(toAPITeam(t, role)), nil
}

func (s *Server) RemoveTeamFromOrganizationById(ctx context.Context, req gen.RemoveTeamFromOrganizationByIdRequestObject) (gen.RemoveTeamFromOrganizationByIdResponseObject, error) {
	_, _, err := s.requireTeamAdmin(ctx, req.OrganizationId, req.TeamId)
	if store.ErrorCode(err) == store.ENOTFOUND {
		// A missing team is already deleted, but only members of the organization learn so.
		if _, merr := s.Access.MemberRole(ctx, req.OrganizationId); merr != nil {
			return nil, merr
		}
		return gen.RemoveTeamFromOrganizationById204Response{}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteTeam(ctx, req.OrganizationId, req.TeamId); err != nil {
		return nil, err
	}
	return gen.RemoveTeamFromOrganizationById204Response{}, nil
}
