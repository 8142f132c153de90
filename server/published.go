package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

func (s *Server) GetPublishedContentSite(ctx context.Context, req gen.GetPublishedContentSiteRequestObject) (gen.GetPublishedContentSiteResponseObject, error) {
	site, role, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if !site.Published {
		return nil, store.Errorf(store.ENOTFOUND, "The site is not published.")
	}
	p := req.Params
	// A site token (sitetokens.go) was issued for a visitor who gave the share key and visitor
	// token the site needs: it carries their claims.
	t := access.SiteTokenOf(ctx)
	if site.Visibility == "share-link" && t == nil {
		// Without a share key that opens it the site is as good as not there.
		if p.ShareKey == nil {
			return nil, store.Errorf(store.ENOTFOUND, "Site not found.")
		}
		if ok, err := s.Access.ShareKeyOpens(ctx, site, *p.ShareKey); err != nil || !ok {
			return nil, notFoundUnless(err, "Site")
		}
	}
	var claims map[string]any
	if p.VisitorToken != nil {
		if claims, err = s.Access.SiteVisitorClaims(ctx, site, *p.VisitorToken); err != nil {
			return nil, &httpError{http.StatusForbidden, fmt.Sprintf("The visitor token is not valid: %v.", errors.Unwrap(err))}
		}
	} else if t != nil {
		claims = t.Claims
	} else if site.Visibility == "visitor-auth" {
		return nil, &httpError{http.StatusForbidden, "This site needs a visitor token (visitorToken)."}
	}
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	seen := access.ForVisitor(st, claims)
	roles, err := s.Access.ContentRoles(ctx, site.OrganizationID)
	if err != nil {
		return nil, err
	}
	out := gen.GetPublishedContentSite200JSONResponse{Object: gen.PublishedContentSiteObjectPublishedContentSite, Site: s.toAPISite(site, role),
		Scripts: []gen.SiteIntegrationScript{}}
	all, err := s.structureAnswer(ctx, site, st, seen, roles, &out.Structure.Type, &out.Structure.Structure)
	if err != nil {
		return nil, err
	}
	out.Customizations.Site, out.Customizations.SiteSpaces, err = s.publishedCustomizations(ctx, site, all)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// structureAnswer puts a site's structure as shown (all of it, or what a visitor sees) in the
// API's shape: its type by the whole structure (sections, or site spaces at the root) and its
// entries in order. It answers the site spaces shown.
func (s *Server) structureAnswer(ctx context.Context, site *store.Site, whole, shown *store.SiteStructure, roles *access.ContentRoles,
	typ *gen.SiteStructureType, entries *[]gen.SiteStructureEntry) ([]*store.SiteSpace, error) {
	var all []*store.SiteSpace
	all = append(all, shown.RootSiteSpaces...)
	for _, sec := range shown.Sections {
		all = append(all, sec.SiteSpaces...)
	}
	roleOf, err := spaceRoles(ctx, roles, all)
	if err != nil {
		return nil, err
	}
	*entries = []gen.SiteStructureEntry{}
	if len(whole.Sections) == 0 {
		*typ = gen.SiteSpaces
		for _, ss := range shown.RootSiteSpaces {
			var e gen.SiteStructureEntry
			if err := e.FromSiteSpace(s.siteSpaceAPI(site, nil, ss, roleOf)); err != nil {
				return nil, err
			}
			*entries = append(*entries, e)
		}
		return all, nil
	}
	*typ = gen.Sections
	// The root holds sections without a group and top-level groups, in position order.
	for _, c := range structureChildren(shown, nil) {
		entry, _ := s.structureEntry(site, c, shown, roleOf)
		*entries = append(*entries, entry)
	}
	return all, nil
}

func (s *Server) GetSiteStructure(ctx context.Context, req gen.GetSiteStructureRequestObject) (gen.GetSiteStructureResponseObject, error) {
	site, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	var out gen.GetSiteStructure200JSONResponse
	if _, err := s.structureAnswer(ctx, site, st, st, roles, &out.Type, &out.Structure); err != nil {
		return nil, err
	}
	return out, nil
}
