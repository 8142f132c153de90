package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// The sections and section groups of a site; its site spaces, the access rule and the conversions
// are in sitestructure.go. They are per-operation wrappers (the generated strict interface gives
// every operation its own method, request and response types, so these stay one thin wrapper each):
// each section and group operation resolves the site (structureSite), makes one store call and
// converts; UpdateSiteSectionById and MoveSiteSection read like their site-space twins there
// (UpdateSiteSpaceById, MoveSiteSpace), whose request, position and response types differ.

func (s *Server) ListSiteSections(ctx context.Context, req gen.ListSiteSectionsRequestObject) (gen.ListSiteSectionsResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindSiteSections(ctx, site.ID, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	var spaces []*store.SiteSpace
	for _, sec := range list.Items {
		spaces = append(spaces, sec.SiteSpaces...)
	}
	roleOf, err := spaceRoles(ctx, roles, spaces)
	if err != nil {
		return nil, err
	}
	items := make([]gen.SiteSection, 0, len(list.Items))
	for _, sec := range list.Items {
		items = append(items, s.siteSectionAPI(site, sec, roleOf))
	}
	return gen.ListSiteSections200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) AddSectionToSite(ctx context.Context, req gen.AddSectionToSiteRequestObject) (gen.AddSectionToSiteResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	c := store.SiteSectionCreate{PageID: b.PageId, GroupID: b.SiteSectionGroupId, Draft: b.Draft != nil && *b.Draft}
	_, c.Title = nullableField(req.Body.Title)
	if c.SpaceID, c.NewSpace, err = s.siteSpaceSource(ctx, roles, b.SpaceId, b.Template, c.Title, c.PageID != nil); err != nil {
		return nil, err
	}
	_, c.Icon = nullableField(req.Body.Icon)
	sec, err := s.Store.AddSiteSection(ctx, site.ID, c)
	if err != nil {
		return nil, err
	}
	out, err := s.siteSectionResponse(ctx, site, roles, sec)
	if err != nil {
		return nil, err
	}
	return gen.AddSectionToSite201JSONResponse(out), nil
}

func (s *Server) DeleteSiteSectionById(ctx context.Context, req gen.DeleteSiteSectionByIdRequestObject) (gen.DeleteSiteSectionByIdResponseObject, error) {
	site, _, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteSiteSection(ctx, site.ID, req.SiteSectionId); err != nil {
		return nil, err
	}
	return gen.DeleteSiteSectionById204Response{}, nil
}

func (s *Server) UpdateSiteSectionById(ctx context.Context, req gen.UpdateSiteSectionByIdRequestObject) (gen.UpdateSiteSectionByIdResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.SiteSectionUpdate{Title: b.Title, Path: b.Path, DefaultSiteSpace: b.DefaultSiteSpace, Draft: b.Draft}
	if upd.SetCondition, upd.Condition, err = conditionField(b.Condition); err != nil {
		return nil, err
	}
	if upd.LocalizedTitle, err = localizedField("localizedTitle", b.LocalizedTitle); err != nil {
		return nil, err
	}
	if upd.LocalizedDescription, err = localizedField("localizedDescription", b.LocalizedDescription); err != nil {
		return nil, err
	}
	upd.SetGroup, upd.GroupID = nullableField(b.SiteSectionGroupId)
	upd.SetIcon, upd.Icon = nullableField(b.Icon)
	upd.SetDescription, upd.Description = nullableField(b.Description)
	sec, err := s.Store.UpdateSiteSection(ctx, site.ID, req.SiteSectionId, upd)
	if err != nil {
		return nil, err
	}
	out, err := s.siteSectionResponse(ctx, site, roles, sec)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSiteSectionById200JSONResponse(out), nil
}

func (s *Server) MoveSiteSection(ctx context.Context, req gen.MoveSiteSectionRequestObject) (gen.MoveSiteSectionResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	var m store.SiteMove
	if p := req.Body.Position; p != nil {
		if p.Before != nil {
			m.Before = &p.Before.SiteSection
		}
		if p.After != nil {
			m.After = &p.After.SiteSection
		}
	}
	sec, err := s.Store.MoveSiteSection(ctx, site.ID, req.SiteSectionId, m)
	if err != nil {
		return nil, err
	}
	out, err := s.siteSectionResponse(ctx, site, roles, sec)
	if err != nil {
		return nil, err
	}
	return gen.MoveSiteSection200JSONResponse(out), nil
}

func (s *Server) ListSiteSectionGroups(ctx context.Context, req gen.ListSiteSectionGroupsRequestObject) (gen.ListSiteSectionGroupsResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindSiteSectionGroups(ctx, site.ID, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.SiteSectionGroup, 0, len(list.Items))
	if len(list.Items) > 0 {
		st, err := s.Store.FindSiteStructure(ctx, site.ID)
		if err != nil {
			return nil, err
		}
		roleOf, err := spaceRoles(ctx, roles, structureSpaces(st))
		if err != nil {
			return nil, err
		}
		for _, g := range list.Items {
			items = append(items, s.siteSectionGroupAPI(site, g, st, roleOf))
		}
	}
	return gen.ListSiteSectionGroups200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) AddSectionGroupToSite(ctx context.Context, req gen.AddSectionGroupToSiteRequestObject) (gen.AddSectionGroupToSiteResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	c := store.SiteSectionGroupCreate{Title: req.Body.Title, Parent: req.Body.Parent, Draft: req.Body.Draft != nil && *req.Body.Draft}
	_, c.Icon = nullableField(req.Body.Icon)
	if req.Body.Sections != nil {
		c.Sections = *req.Body.Sections
	}
	g, err := s.Store.AddSiteSectionGroup(ctx, site.ID, c)
	if err != nil {
		return nil, err
	}
	out, err := s.groupResponse(ctx, site, roles, g.ID)
	if err != nil {
		return nil, err
	}
	return gen.AddSectionGroupToSite201JSONResponse(out), nil
}

func (s *Server) DeleteSiteSectionGroupById(ctx context.Context, req gen.DeleteSiteSectionGroupByIdRequestObject) (gen.DeleteSiteSectionGroupByIdResponseObject, error) {
	site, _, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteSiteSectionGroup(ctx, site.ID, req.SiteSectionGroupId); err != nil {
		return nil, err
	}
	return gen.DeleteSiteSectionGroupById204Response{}, nil
}

func (s *Server) UpdateSiteSectionGroupById(ctx context.Context, req gen.UpdateSiteSectionGroupByIdRequestObject) (gen.UpdateSiteSectionGroupByIdResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.SiteSectionGroupUpdate{Title: b.Title, Draft: b.Draft}
	upd.SetIcon, upd.Icon = nullableField(b.Icon)
	upd.SetParent, upd.Parent = nullableField(b.ParentSectionGroupId)
	if upd.LocalizedTitle, err = localizedField("localizedTitle", b.LocalizedTitle); err != nil {
		return nil, err
	}
	g, err := s.Store.UpdateSiteSectionGroup(ctx, site.ID, req.SiteSectionGroupId, upd)
	if err != nil {
		return nil, err
	}
	out, err := s.groupResponse(ctx, site, roles, g.ID)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSiteSectionGroupById200JSONResponse(out), nil
}

func (s *Server) AddSectionToGroup(ctx context.Context, req gen.AddSectionToGroupRequestObject) (gen.AddSectionToGroupResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	g, err := s.Store.AddSectionToGroup(ctx, site.ID, req.SiteSectionGroupId, req.Body.SectionId)
	if err != nil {
		return nil, err
	}
	out, err := s.groupResponse(ctx, site, roles, g.ID)
	if err != nil {
		return nil, err
	}
	return gen.AddSectionToGroup201JSONResponse(out), nil
}

func (s *Server) RemoveSectionFromGroup(ctx context.Context, req gen.RemoveSectionFromGroupRequestObject) (gen.RemoveSectionFromGroupResponseObject, error) {
	site, _, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	if err := s.Store.RemoveSectionFromGroup(ctx, site.ID, req.SiteSectionGroupId, req.SiteSectionId); err != nil {
		return nil, err
	}
	return gen.RemoveSectionFromGroup204Response{}, nil
}
