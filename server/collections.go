package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): GetCollectionById,
// DeleteCollectionById, MoveCollection and TransferCollection find the collection and make at most
// one store call, as their space twins in spaces.go do.

func (s *Server) toAPICollection(c *store.Collection, role store.Role) gen.Collection {
	out := gen.Collection{
		Object:       gen.CollectionObjectCollection,
		Id:           c.ID,
		Title:        c.Title,
		Description:  c.Description,
		Organization: c.OrganizationID,
		Parent:       c.ParentID,
		DefaultLevel: apiLevel(c.DefaultLevel),
	}
	out.Urls.Location = s.apiURL("/collections/" + c.ID)
	out.Urls.App = s.appURL("/o/" + c.OrganizationID + "/c/" + c.ID)
	out.Permissions.View = role.AtLeast(store.RoleRead)
	out.Permissions.Admin = role == store.RoleAdmin
	out.Permissions.ViewInviteLinks = role == store.RoleAdmin
	out.Permissions.Create = role.AtLeast(store.RoleCreate)
	return out
}

func (s *Server) ListCollectionsInOrganizationById(ctx context.Context, req gen.ListCollectionsInOrganizationByIdRequestObject) (gen.ListCollectionsInOrganizationByIdResponseObject, error) {
	roles, err := s.Access.ContentRoles(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	vis, err := roles.Visible(ctx)
	if err != nil {
		return nil, err
	}
	nested := req.Params.Nested == nil || *req.Params.Nested
	list, err := s.Store.FindCollections(ctx, req.OrganizationId, nested, vis, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.Collection, 0, len(list.Items))
	for _, c := range list.Items {
		role, err := roles.Of(ctx, c.ID, c.DefaultLevel, c.ParentID)
		if err != nil {
			return nil, err
		}
		items = append(items, s.toAPICollection(c, role))
	}
	return gen.ListCollectionsInOrganizationById200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateCollection(ctx context.Context, req gen.CreateCollectionRequestObject) (gen.CreateCollectionResponseObject, error) {
	var title string
	var parent *string
	if req.Body != nil {
		if req.Body.Title != nil {
			title = *req.Body.Title
		}
		parent = req.Body.Parent
	}
	if title == "" {
		title = "Untitled"
	}
	if err := s.requireCreateIn(ctx, req.OrganizationId, parent); err != nil {
		return nil, err
	}
	c, err := s.Store.CreateCollection(ctx, req.OrganizationId, title, parent)
	if err != nil {
		return nil, err
	}
	// The caller's role on the new collection, which may inherit more than their organization role.
	_, role, err := s.Access.FindCollection(ctx, c.ID, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return gen.CreateCollection201JSONResponse(s.toAPICollection(c, role)), nil
}

func (s *Server) GetCollectionById(ctx context.Context, req gen.GetCollectionByIdRequestObject) (gen.GetCollectionByIdResponseObject, error) {
	c, role, err := s.Access.FindCollection(ctx, req.CollectionId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return gen.GetCollectionById200JSONResponse(s.toAPICollection(c, role)), nil
}

func (s *Server) UpdateCollectionById(ctx context.Context, req gen.UpdateCollectionByIdRequestObject) (gen.UpdateCollectionByIdResponseObject, error) {
	_, _, err := s.Access.FindCollection(ctx, req.CollectionId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.CollectionUpdate{Title: b.Title, Description: b.Description}
	if b.DefaultLevel.IsSpecified() {
		upd.SetDefaultLevel, upd.DefaultLevel = true, storeRole(b.DefaultLevel)
	}
	c, err := s.Store.UpdateCollection(ctx, req.CollectionId, upd)
	if err != nil {
		return nil, err
	}
	_, role, err := s.Access.FindCollection(ctx, c.ID, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return gen.UpdateCollectionById200JSONResponse(s.toAPICollection(c, role)), nil
}

func (s *Server) DeleteCollectionById(ctx context.Context, req gen.DeleteCollectionByIdRequestObject) (gen.DeleteCollectionByIdResponseObject, error) {
	_, _, err := s.Access.FindCollection(ctx, req.CollectionId, store.RoleAdmin)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return gen.DeleteCollectionById204Response{}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteCollection(ctx, req.CollectionId); err != nil {
		return nil, err
	}
	return gen.DeleteCollectionById204Response{}, nil
}

func (s *Server) ListSpacesInCollectionById(ctx context.Context, req gen.ListSpacesInCollectionByIdRequestObject) (gen.ListSpacesInCollectionByIdResponseObject, error) {
	c, _, err := s.Access.FindCollection(ctx, req.CollectionId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	roles, err := s.Access.ContentRoles(ctx, c.OrganizationID)
	if err != nil {
		return nil, err
	}
	vis, err := roles.Visible(ctx)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindSpacesInCollection(ctx, c.ID, vis, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items, err := s.toAPISpaces(ctx, roles, list.Items)
	if err != nil {
		return nil, err
	}
	return gen.ListSpacesInCollectionById200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) MoveCollection(ctx context.Context, req gen.MoveCollectionRequestObject) (gen.MoveCollectionResponseObject, error) {
	if _, _, err := s.Access.FindCollection(ctx, req.CollectionId, store.RoleAdmin); err != nil {
		return nil, err
	}
	m, err := storeMove(req.Body)
	if err != nil {
		return nil, err
	}
	c, err := s.Store.MoveCollection(ctx, req.CollectionId, m)
	if err != nil {
		return nil, err
	}
	_, role, err := s.Access.FindCollection(ctx, c.ID, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return gen.MoveCollection200JSONResponse(s.toAPICollection(c, role)), nil
}

func (s *Server) TransferCollection(ctx context.Context, req gen.TransferCollectionRequestObject) (gen.TransferCollectionResponseObject, error) {
	if _, _, err := s.Access.FindCollection(ctx, req.CollectionId, store.RoleAdmin); err != nil {
		return nil, err
	}
	if err := s.requireTransferTarget(ctx, req.Body.Organization); err != nil {
		return nil, err
	}
	c, err := s.Store.TransferCollection(ctx, req.CollectionId, req.Body.Organization)
	if err != nil {
		return nil, err
	}
	_, role, err := s.Access.FindCollection(ctx, c.ID, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return gen.TransferCollection200JSONResponse(s.toAPICollection(c, role)), nil
}
