package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// spacePerms finds a space for a permission operation, with at least min on it.
func (s *Server) spacePerms(ctx context.Context, id string, min store.Role) (permTarget, error) {
	sp, _, err := s.Access.FindSpace(ctx, id, min)
	if err != nil {
		return permTarget{}, err
	}
	return permTarget{GrantTarget: store.GrantTarget{Kind: store.GrantSpace, ID: sp.ID, OrganizationID: sp.OrganizationID},
		level: sp.DefaultLevel, parent: sp.ParentID}, nil
}

func (s *Server) InviteToSpace(ctx context.Context, req gen.InviteToSpaceRequestObject) (gen.InviteToSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.grantTo(ctx, t, req.Body); err != nil {
		return nil, err
	}
	return gen.InviteToSpace204Response{}, nil
}

func (s *Server) ListPermissionsAggregateInSpace(ctx context.Context, req gen.ListPermissionsAggregateInSpaceRequestObject) (gen.ListPermissionsAggregateInSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.readers(ctx, t, req.Params.Role, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListPermissionsAggregateInSpace200JSONResponse(out), nil
}

func (s *Server) ListUserPermissionsInSpace(ctx context.Context, req gen.ListUserPermissionsInSpaceRequestObject) (gen.ListUserPermissionsInSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.userGrants(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListUserPermissionsInSpace200JSONResponse(out), nil
}

func (s *Server) UpdateUserPermissionInSpace(ctx context.Context, req gen.UpdateUserPermissionInSpaceRequestObject) (gen.UpdateUserPermissionInSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.setGrant(ctx, t, req.UserId, "", req.Body.Role); err != nil {
		return nil, err
	}
	return gen.UpdateUserPermissionInSpace204Response{}, nil
}

func (s *Server) RemoveUserFromSpace(ctx context.Context, req gen.RemoveUserFromSpaceRequestObject) (gen.RemoveUserFromSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if removed, err := s.revoke(ctx, t, req.UserId, ""); err != nil || !removed {
		return gen.RemoveUserFromSpace204Response{}, err
	}
	return gen.RemoveUserFromSpace205Response{}, nil
}

func (s *Server) ListTeamPermissionsInSpace(ctx context.Context, req gen.ListTeamPermissionsInSpaceRequestObject) (gen.ListTeamPermissionsInSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.teamGrants(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListTeamPermissionsInSpace200JSONResponse(out), nil
}

func (s *Server) UpdateTeamPermissionInSpace(ctx context.Context, req gen.UpdateTeamPermissionInSpaceRequestObject) (gen.UpdateTeamPermissionInSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.setGrant(ctx, t, "", req.TeamId, req.Body.Role); err != nil {
		return nil, err
	}
	return gen.UpdateTeamPermissionInSpace204Response{}, nil
}

func (s *Server) RemoveTeamFromSpace(ctx context.Context, req gen.RemoveTeamFromSpaceRequestObject) (gen.RemoveTeamFromSpaceResponseObject, error) {
	t, err := s.spacePerms(ctx, req.SpaceId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if removed, err := s.revoke(ctx, t, "", req.TeamId); err != nil || !removed {
		return gen.RemoveTeamFromSpace204Response{}, err
	}
	return gen.RemoveTeamFromSpace205Response{}, nil
}
