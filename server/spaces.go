package server

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): GetSpaceById, DeleteSpaceById,
// RestoreSpace, MoveSpace and TransferSpace find the space and make at most one store call, as
// their collection twins in collections.go and the site operations in sites.go do.

func (s *Server) toAPISpace(sp *store.Space, role store.Role) gen.Space {
	out := gen.Space{
		Object:              gen.SpaceObjectSpace,
		Id:                  sp.ID,
		Title:               sp.Title,
		Emoji:               sp.Emoji,
		Visibility:          gen.SpaceVisibility(sp.Visibility),
		CreatedAt:           sp.CreatedAt,
		UpdatedAt:           sp.UpdatedAt,
		DeletedAt:           sp.DeletedAt,
		MergeRules:          apiMergeRules(sp.MergeRules),
		Organization:        sp.OrganizationID,
		Parent:              sp.ParentID,
		Revision:            sp.RevisionID,
		DefaultLevel:        apiLevel(sp.DefaultLevel),
		Comments:            sp.Comments,
		ChangeRequests:      sp.ChangeRequests,
		ChangeRequestsOpen:  sp.ChangeRequestsOpen,
		ChangeRequestsDraft: sp.ChangeRequestsDraft,
	}
	mode := gen.SpaceEditMode(sp.EditMode)
	out.EditMode = &mode
	if sp.Language != nil {
		lang := gen.Language(*sp.Language)
		out.Language = &lang
	}
	out.Urls.Icon = sp.Icon
	out.Urls.Location = s.apiURL("/spaces/" + sp.ID)
	out.Urls.App = s.appURL("/s/" + sp.ID)
	if sp.Visibility != "private" {
		published := s.BaseURL + "/s/" + sp.ID
		out.Urls.Published = &published
		if sp.Visibility == "public" {
			out.Urls.Public = &published
		}
	}
	out.Permissions = gen.SpacePermissions{
		View:               role.AtLeast(store.RoleRead),
		Access:             role.AtLeast(store.RoleRead),
		Admin:              role == store.RoleAdmin,
		ViewInviteLinks:    role == store.RoleAdmin,
		Edit:               role.AtLeast(store.RoleEdit),
		TriggerGitSync:     role.AtLeast(store.RoleEdit),
		Comment:            role.AtLeast(store.RoleComment),
		Merge:              role.AtLeast(store.RoleEdit),
		Review:             role.AtLeast(store.RoleReview),
		InstallIntegration: role == store.RoleAdmin,
	}
	return out
}

// toAPISpaces converts a page of one organization's spaces with the caller's role on each.
func (s *Server) toAPISpaces(ctx context.Context, roles *access.ContentRoles, spaces []*store.Space) ([]gen.Space, error) {
	out := make([]gen.Space, 0, len(spaces))
	for _, sp := range spaces {
		role, err := roles.Of(ctx, sp.ID, sp.DefaultLevel, sp.ParentID)
		if err != nil {
			return nil, err
		}
		out = append(out, s.toAPISpace(sp, role))
	}
	return out, nil
}

// spaceResponse re-reads a space after a write, with the caller's role on it now.
func (s *Server) spaceResponse(ctx context.Context, sp *store.Space) (gen.Space, error) {
	roles, err := s.Access.ContentRoles(ctx, sp.OrganizationID)
	if err != nil {
		return gen.Space{}, err
	}
	role, err := roles.Of(ctx, sp.ID, sp.DefaultLevel, sp.ParentID)
	if err != nil {
		return gen.Space{}, err
	}
	return s.toAPISpace(sp, role), nil
}

func (s *Server) ListSpacesInOrganizationById(ctx context.Context, req gen.ListSpacesInOrganizationByIdRequestObject) (gen.ListSpacesInOrganizationByIdResponseObject, error) {
	roles, err := s.Access.ContentRoles(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	vis, err := roles.Visible(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListSpacesInOrganizationById200JSONResponse{Items: []gen.Space{}}
	list, err := s.Store.FindSpaces(ctx, req.OrganizationId, false, vis, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	if out.Items, err = s.toAPISpaces(ctx, roles, list.Items); err != nil {
		return nil, err
	}
	out.Count, out.Next = list.Count, listNext(list.Next)
	return out, nil
}

func (s *Server) CreateSpace(ctx context.Context, req gen.CreateSpaceRequestObject) (gen.CreateSpaceResponseObject, error) {
	c := store.SpaceCreate{}
	if b := req.Body; b != nil {
		if b.Title != nil {
			c.Title = *b.Title
		}
		if b.Emoji != nil {
			c.Emoji = *b.Emoji
		}
		if b.EditMode != nil {
			c.EditMode = string(*b.EditMode)
		}
		if b.Language != nil {
			lang := string(*b.Language)
			c.Language = &lang
		}
		c.ParentID = b.Parent
		if b.Template != nil {
			if b.Empty != nil {
				return nil, store.FieldErrorf("empty", "a space starts either empty or from a template, not both")
			}
			pages, files, err := templatePages("template", b.Template.Id, b.Template.Params)
			if err != nil {
				return nil, err
			}
			if len(files) > 0 {
				return nil, store.FieldErrorf("template.params.contentRefs", "a new space has no files for its template to use")
			}
			c.Pages = pages
		}
		// empty: true asks for what a space without a template is: one with no page.
	}
	if err := s.requireCreateIn(ctx, req.OrganizationId, c.ParentID); err != nil {
		return nil, err
	}
	if b := req.Body; b != nil && b.ComputedSource != nil {
		if b.Template != nil || b.Empty != nil {
			return nil, store.FieldErrorf("computedSource", "a space starts from a template, from a computed source or empty: one of them")
		}
		src, err := s.computedRevisionSource(ctx, req.OrganizationId, "computedSource", *b.ComputedSource)
		if err != nil {
			return nil, err
		}
		c.Pages = computedPageChanges(src.compute.Pages(src.ref))
	}
	sp, err := s.Store.CreateSpace(ctx, req.OrganizationId, access.Caller(ctx).ID, c)
	if err != nil {
		return nil, err
	}
	out, err := s.spaceResponse(ctx, sp)
	if err != nil {
		return nil, err
	}
	return gen.CreateSpace201JSONResponse(out), nil
}

func (s *Server) GetSpaceById(ctx context.Context, req gen.GetSpaceByIdRequestObject) (gen.GetSpaceByIdResponseObject, error) {
	sp, role, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	body, err := s.spaceBodies.get(sp, role, s.BaseURL, func() ([]byte, error) {
		var buf bytes.Buffer // as gen.GetSpaceById200JSONResponse encodes itself
		err := json.NewEncoder(&buf).Encode(gen.GetSpaceById200JSONResponse(s.toAPISpace(sp, role)))
		return buf.Bytes(), err
	})
	if err != nil {
		return nil, err
	}
	return encodedSpace(body), nil
}

func (s *Server) UpdateSpaceById(ctx context.Context, req gen.UpdateSpaceByIdRequestObject) (gen.UpdateSpaceByIdResponseObject, error) {
	if _, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleAdmin); err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.SpaceUpdate{Title: b.Title}
	// A space shows an emoji or an icon: setting one drops the other, null drops it.
	if b.Emoji.IsSpecified() && b.Icon.IsSpecified() && !b.Emoji.IsNull() && !b.Icon.IsNull() {
		return nil, store.FieldErrorf("icon", "a space shows an emoji or an icon, not both")
	}
	if b.Emoji.IsSpecified() {
		emoji := ""
		if !b.Emoji.IsNull() {
			emoji = b.Emoji.MustGet()
			upd.SetIcon = true
		}
		upd.Emoji = &emoji
	}
	if b.Icon.IsSpecified() {
		upd.SetIcon = true
		if !b.Icon.IsNull() {
			icon := b.Icon.MustGet()
			if err := checkWebURL("icon", icon); err != nil {
				return nil, err
			}
			upd.Icon = &icon
			empty := ""
			upd.Emoji = &empty
		}
	}
	if b.EditMode != nil {
		m := string(*b.EditMode)
		upd.EditMode = &m
	}
	if b.Language != nil {
		l := string(*b.Language)
		upd.Language = &l
	}
	if b.DefaultLevel.IsSpecified() {
		upd.SetDefaultLevel, upd.DefaultLevel = true, storeRole(b.DefaultLevel)
	}
	rules, err := storeMergeRules(b.MergeRules, true)
	if err != nil {
		return nil, err
	}
	upd.MergeRules = rules
	sp, err := s.Store.UpdateSpace(ctx, req.SpaceId, upd)
	if err != nil {
		return nil, err
	}
	out, err := s.spaceResponse(ctx, sp)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSpaceById200JSONResponse(out), nil
}

func (s *Server) DeleteSpaceById(ctx context.Context, req gen.DeleteSpaceByIdRequestObject) (gen.DeleteSpaceByIdResponseObject, error) {
	_, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleAdmin)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return gen.DeleteSpaceById204Response{}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteSpace(ctx, req.SpaceId); err != nil {
		return nil, err
	}
	return gen.DeleteSpaceById204Response{}, nil
}

func (s *Server) DuplicateSpace(ctx context.Context, req gen.DuplicateSpaceRequestObject) (gen.DuplicateSpaceResponseObject, error) {
	src, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if _, err := s.Access.RequireOrgRole(ctx, src.OrganizationID, store.RoleCreate); err != nil {
		return nil, err
	}
	sp, err := s.Store.DuplicateSpace(ctx, req.SpaceId, access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	out, err := s.spaceResponse(ctx, sp)
	if err != nil {
		return nil, err
	}
	return gen.DuplicateSpace200JSONResponse(out), nil
}

func (s *Server) RestoreSpace(ctx context.Context, req gen.RestoreSpaceRequestObject) (gen.RestoreSpaceResponseObject, error) {
	if _, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleAdmin); err != nil {
		return nil, err
	}
	sp, err := s.Store.RestoreSpace(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	out, err := s.spaceResponse(ctx, sp)
	if err != nil {
		return nil, err
	}
	return gen.RestoreSpace200JSONResponse(out), nil
}

func (s *Server) MoveSpace(ctx context.Context, req gen.MoveSpaceRequestObject) (gen.MoveSpaceResponseObject, error) {
	if _, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleAdmin); err != nil {
		return nil, err
	}
	m, err := storeMove(req.Body)
	if err != nil {
		return nil, err
	}
	sp, err := s.Store.MoveSpace(ctx, req.SpaceId, m)
	if err != nil {
		return nil, err
	}
	out, err := s.spaceResponse(ctx, sp)
	if err != nil {
		return nil, err
	}
	return gen.MoveSpace200JSONResponse(out), nil
}

func (s *Server) TransferSpace(ctx context.Context, req gen.TransferSpaceRequestObject) (gen.TransferSpaceResponseObject, error) {
	if _, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleAdmin); err != nil {
		return nil, err
	}
	if err := s.requireTransferTarget(ctx, req.Body.Organization); err != nil {
		return nil, err
	}
	sp, err := s.Store.TransferSpace(ctx, req.SpaceId, req.Body.Organization)
	if err != nil {
		return nil, err
	}
	out, err := s.spaceResponse(ctx, sp)
	if err != nil {
		return nil, err
	}
	return gen.TransferSpace200JSONResponse(out), nil
}
