package server

import (
	"context"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Growing a site from what quire has: duplicateSiteSpace publishes a copy of a site space's space
// next to it; applyTemplateToSite adds quire's documentation layout, a section per built-in space
// template. Both take the create role on the site and in the organization (they create spaces).

// siteTemplateSections are the sections applyTemplateToSite adds: a title and the built-in space
// template its new space is filled from.
var siteTemplateSections = []struct {
	title    string
	template gen.SpaceTemplateId
}{
	{"Product guide", "product-guide"},
	{"API reference", "api-reference"},
}

func (s *Server) DuplicateSiteSpace(ctx context.Context, req gen.DuplicateSiteSpaceRequestObject) (gen.DuplicateSiteSpaceResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	ss, err := s.Store.FindSiteSpace(ctx, site.ID, req.SiteSpaceId)
	if err != nil {
		return nil, err
	}
	if !roles.OrgRole.AtLeast(store.RoleCreate) {
		return nil, forbidden("Duplicating a site space creates a space: it needs the create role in the organization.")
	}
	if r, err := roles.Of(ctx, ss.Space.ID, ss.Space.DefaultLevel, ss.Space.ParentID); err != nil {
		return nil, err
	} else if !r.AtLeast(store.RoleRead) {
		return nil, forbidden("Duplicating a site space copies its space, which you cannot read.")
	}
	// The copy and its site space are one write: a refused addition leaves no copy behind.
	draft := req.Body != nil && req.Body.Draft != nil && *req.Body.Draft
	added, err := s.Store.AddSiteSpace(ctx, site.ID, store.SiteSpaceCreate{CopyOf: &store.SpaceCopy{SpaceID: ss.Space.ID,
		CreatorID: access.Caller(ctx).ID}, SectionID: ss.SectionID, Draft: draft})
	if err != nil {
		return nil, err
	}
	out, err := s.siteSpaceResponse(ctx, site, roles, added)
	if err != nil {
		return nil, err
	}
	loc := s.apiURL("/orgs/" + site.OrganizationID + "/sites/" + site.ID + "/site-spaces/" + added.ID)
	return gen.DuplicateSiteSpace201JSONResponse{Body: out, Headers: gen.DuplicateSiteSpace201ResponseHeaders{Location: &loc}}, nil
}

func (s *Server) ApplyTemplateToSite(ctx context.Context, req gen.ApplyTemplateToSiteRequestObject) (gen.ApplyTemplateToSiteResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	for _, sec := range siteTemplateSections {
		title := sec.title
		c := store.SiteSectionCreate{Title: &title}
		if _, c.NewSpace, err = s.siteSpaceSource(ctx, roles, nullable.NewNullNullable[string](), &gen.ApplySpaceTemplateRequest{Id: sec.template}, &title, false); err != nil {
			return nil, err
		}
		c.NewSpace.Title = title
		if _, err := s.Store.AddSiteSection(ctx, site.ID, c); err != nil {
			return nil, err
		}
	}
	return gen.ApplyTemplateToSite200Response{}, nil
}
