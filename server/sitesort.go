package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Sorting a site's structure: sortSiteStructure moves any item next to another (or to the end of
// its parent), moveSiteSectionGroup (deprecated) a group next to a section or group. Both take the
// create role on the site; getSiteStructure and the published navigation read the new order.

func itemRef(p *gen.SiteStructureItemPointer) *store.SiteItemRef {
	if p == nil {
		return nil
	}
	return &store.SiteItemRef{Kind: store.SiteItemKind(p.Type), ID: p.Id}
}

func (s *Server) SortSiteStructure(ctx context.Context, req gen.SortSiteStructureRequestObject) (gen.SortSiteStructureResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	item := *itemRef(&b.Item)
	m := store.SiteItemMove{Before: itemRef(b.Position.Before), After: itemRef(b.Position.After)}
	if err := s.Store.SortSiteStructure(ctx, site.ID, item, m); err != nil {
		return nil, err
	}
	if p := req.Params.Prefer; p != nil && *p == gen.SortSiteStructureParamsPreferReturnMinimal {
		applied := string(*p)
		return gen.SortSiteStructure204Response{Headers: gen.SortSiteStructure204ResponseHeaders{PreferenceApplied: &applied}}, nil
	}
	out, err := s.structureItem(ctx, site, roles, item)
	if err != nil {
		return nil, err
	}
	return gen.SortSiteStructure200JSONResponse(out), nil
}

// structureItem converts an item as the site's structure now has it.
func (s *Server) structureItem(ctx context.Context, site *store.Site, roles *access.ContentRoles, item store.SiteItemRef) (gen.SiteStructureItem, error) {
	var out gen.SiteStructureItem
	switch item.Kind {
	case store.SiteItemGroup:
		g, err := s.groupResponse(ctx, site, roles, item.ID)
		if err != nil {
			return out, err
		}
		return out, out.FromSiteSectionGroup(g)
	case store.SiteItemSpace:
		ss, err := s.Store.FindSiteSpace(ctx, site.ID, item.ID)
		if err != nil {
			return out, err
		}
		sp, err := s.siteSpaceResponse(ctx, site, roles, ss)
		if err != nil {
			return out, err
		}
		return out, out.FromSiteSpace(sp)
	case store.SiteItemSection:
		sec, err := s.Store.FindSiteSection(ctx, site.ID, item.ID)
		if err != nil {
			return out, err
		}
		api, err := s.siteSectionResponse(ctx, site, roles, sec)
		if err != nil {
			return out, err
		}
		return out, out.FromSiteSection(api)
	}
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return out, err
	}
	for _, l := range st.ExternalLinks {
		if l.ID == item.ID {
			return out, out.FromSiteExternalLink(toAPISiteExternalLink(l))
		}
	}
	return out, store.NotFound("External link")
}

func (s *Server) MoveSiteSectionGroup(ctx context.Context, req gen.MoveSiteSectionGroupRequestObject) (gen.MoveSiteSectionGroupResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	ref := func(p *gen.SiteSectionGroupPointer) *store.SiteItemRef {
		if p == nil {
			return nil
		}
		return &store.SiteItemRef{Kind: store.SiteItemKind(p.Type), ID: p.Id}
	}
	var m store.SiteItemMove
	if req.Body != nil && req.Body.Position != nil {
		m = store.SiteItemMove{Before: ref(req.Body.Position.Before), After: ref(req.Body.Position.After)}
	}
	if err := s.Store.SortSiteStructure(ctx, site.ID, store.SiteItemRef{Kind: store.SiteItemGroup, ID: req.SiteSectionGroupId}, m); err != nil {
		return nil, err
	}
	g, err := s.groupResponse(ctx, site, roles, req.SiteSectionGroupId)
	if err != nil {
		return nil, err
	}
	return gen.MoveSiteSectionGroup200JSONResponse(g), nil
}
