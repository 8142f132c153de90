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
	var all []*store.SiteSpace
	all = append(all, seen.RootSiteSpaces...)
	for _, sec := range seen.Sections {
		all = append(all, sec.SiteSpaces...)
	}
	roleOf, err := spaceRoles(ctx, roles, all)
	if err != nil {
		return nil, err
	}
	out := gen.GetPublishedContentSite200JSONResponse{Object: gen.PublishedContentSiteObjectPublishedContentSite, Site: s.toAPISite(site, role),
		Scripts: []gen.SiteIntegrationScript{}}
	out.Customizations.Site, out.Customizations.SiteSpaces = publishedCustomizations(site, all)
	out.Structure.Structure = []gen.SiteStructureEntry{}
	if len(st.Sections) == 0 {
		out.Structure.Type = gen.SiteSpaces
		for _, ss := range seen.RootSiteSpaces {
			var e gen.SiteStructureEntry
			if err := e.FromSiteSpace(s.siteSpaceAPI(site, nil, ss, roleOf)); err != nil {
				return nil, err
			}
			out.Structure.Structure = append(out.Structure.Structure, e)
		}
		return out, nil
	}
	out.Structure.Type = gen.Sections
	// The root holds sections without a group and top-level groups, in position order.
	for _, c := range structureChildren(seen, nil) {
		entry, _ := s.structureEntry(site, c, seen, roleOf)
		out.Structure.Structure = append(out.Structure.Structure, entry)
	}
	return out, nil
}
