package server

import (
	"context"
	"encoding/json"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/sitecustom"
	"github.com/quire-docs/quire/store"
)

// Customization is read with the read role on the site and changed with the create role (as
// its share links are).

func (s *Server) GetSiteCustomizationById(ctx context.Context, req gen.GetSiteCustomizationByIdRequestObject) (gen.GetSiteCustomizationByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return s.customizationOf(ctx, site, "")
}

func (s *Server) UpdateSiteCustomizationById(ctx context.Context, req gen.UpdateSiteCustomizationByIdRequestObject) (gen.UpdateSiteCustomizationByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	doc, err := json.Marshal(req.Body)
	if err != nil {
		return nil, err
	}
	if err := s.Store.PutSiteCustomization(ctx, &store.SiteCustomization{SiteID: site.ID, Settings: doc}); err != nil {
		return nil, err
	}
	return s.customizationOf(ctx, site, "")
}

func (s *Server) GetSiteSpaceCustomizationById(ctx context.Context, req gen.GetSiteSpaceCustomizationByIdRequestObject) (gen.GetSiteSpaceCustomizationByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.FindSiteSpace(ctx, site.ID, req.SiteSpaceId); err != nil {
		return nil, err
	}
	return s.customizationOf(ctx, site, req.SiteSpaceId)
}

func (s *Server) OverrideSiteSpaceCustomizationById(ctx context.Context, req gen.OverrideSiteSpaceCustomizationByIdRequestObject) (gen.OverrideSiteSpaceCustomizationByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.FindSiteSpace(ctx, site.ID, req.SiteSpaceId); err != nil {
		return nil, err
	}
	patch, err := json.Marshal(req.Body)
	if err != nil {
		return nil, err
	}
	over, err := sitecustom.Decode(patch)
	if err != nil {
		return nil, err
	}
	overrides := map[string]any{}
	if c, err := s.Store.FindSiteCustomization(ctx, site.ID, req.SiteSpaceId); err == nil {
		if overrides, err = sitecustom.Decode(c.Settings); err != nil {
			return nil, err
		}
	} else if store.ErrorCode(err) != store.ENOTFOUND {
		return nil, err
	}
	sitecustom.Merge(overrides, over)
	doc, err := json.Marshal(overrides)
	if err != nil {
		return nil, err
	}
	if err := s.Store.PutSiteCustomization(ctx, &store.SiteCustomization{SiteID: site.ID, SiteSpaceID: req.SiteSpaceId, Settings: doc}); err != nil {
		return nil, err
	}
	return s.customizationOf(ctx, site, req.SiteSpaceId)
}

func (s *Server) DeleteSiteSpaceCustomizationById(ctx context.Context, req gen.DeleteSiteSpaceCustomizationByIdRequestObject) (gen.DeleteSiteSpaceCustomizationByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.FindSiteSpace(ctx, site.ID, req.SiteSpaceId); err != nil {
		return nil, err
	}
	deleted, err := s.Store.DeleteSiteCustomization(ctx, site.ID, req.SiteSpaceId)
	if err != nil {
		return nil, err
	}
	if deleted {
		return gen.DeleteSiteSpaceCustomizationById205Response{}, nil
	}
	return gen.DeleteSiteSpaceCustomizationById204Response{}, nil
}
