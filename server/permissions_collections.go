package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// collectionPerms finds a collection for a permission operation, with at least min on it.
func (s *Server) collectionPerms(ctx context.Context, id string, min store.Role) (permTarget, error) {
	c, _, err := s.Access.FindCollection(ctx, id, min)
	if err != nil {
		return permTarget{}, err
	}
	return permTarget{GrantTarget: store.GrantTarget{Kind: store.GrantCollection, ID: c.ID, OrganizationID: c.OrganizationID},
		level: c.DefaultLevel, parent: c.ParentID}, nil
}

func (s *Server) InviteToCollection(ctx context.Context, req gen.InviteToCollectionRequestObject) (gen.InviteToCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.grantTo(ctx, t, req.Body); err != nil {
		return nil, err
	}
	return gen.InviteToCollection204Response{}, nil
}

func (s *Server) ListPermissionsAggregateInCollection(ctx context.Context, req gen.ListPermissionsAggregateInCollectionRequestObject) (gen.ListPermissionsAggregateInCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.readers(ctx, t, req.Params.Role, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListPermissionsAggregateInCollection200JSONResponse(out), nil
}

func (s *Server) ListUserPermissionsInCollection(ctx context.Context, req gen.ListUserPermissionsInCollectionRequestObject) (gen.ListUserPermissionsInCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.userGrants(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListUserPermissionsInCollection200JSONResponse(out), nil
}

func (s *Server) UpdateUserPermissionInCollection(ctx context.Context, req gen.UpdateUserPermissionInCollectionRequestObject) (gen.UpdateUserPermissionInCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.setGrant(ctx, t, req.UserId, "", req.Body.Role); err != nil {
		return nil, err
	}
	return gen.UpdateUserPermissionInCollection204Response{}, nil
}

func (s *Server) RemoveUserFromCollection(ctx context.Context, req gen.RemoveUserFromCollectionRequestObject) (gen.RemoveUserFromCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if removed, err := s.revoke(ctx, t, req.UserId, ""); err != nil || !removed {
		return gen.RemoveUserFromCollection204Response{}, err
	}
	return gen.RemoveUserFromCollection205Response{}, nil
}

func (s *Server) ListTeamPermissionsInCollection(ctx context.Context, req gen.ListTeamPermissionsInCollectionRequestObject) (gen.ListTeamPermissionsInCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.teamGrants(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListTeamPermissionsInCollection200JSONResponse(out), nil
}

func (s *Server) UpdateTeamPermissionInCollection(ctx context.Context, req gen.UpdateTeamPermissionInCollectionRequestObject) (gen.UpdateTeamPermissionInCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if err := s.setGrant(ctx, t, "", req.TeamId, req.Body.Role); err != nil {
		return nil, err
	}
	return gen.UpdateTeamPermissionInCollection204Response{}, nil
}

func (s *Server) RemoveTeamFromCollection(ctx context.Context, req gen.RemoveTeamFromCollectionRequestObject) (gen.RemoveTeamFromCollectionResponseObject, error) {
	t, err := s.collectionPerms(ctx, req.CollectionId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	if removed, err := s.revoke(ctx, t, "", req.TeamId); err != nil || !removed {
		return gen.RemoveTeamFromCollection204Response{}, err
	}
	return gen.RemoveTeamFromCollection205Response{}, nil
}
