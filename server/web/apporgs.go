package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// appHome lists the member's organizations.
func (s *Server) appHome(c echo.Context, v *appView) error {
	list, err := s.Store.FindOrganizationsForUser(c.Request().Context(), v.User.ID, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	v.Kind, v.Title = "list", "Your organizations"
	for _, o := range list.Items {
		v.Items = append(v.Items, webLink{Title: o.Title, URL: "/app/o/" + o.ID})
	}
	return s.sendApp(c, http.StatusOK, v)
}

// appOrg lists an organization's collections and the spaces the member can read.
func (s *Server) appOrg(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	orgID := c.Param("orgId")
	roles, err := s.Access.ContentRoles(ctx, orgID)
	if err != nil {
		return err
	}
	vis, err := roles.Visible(ctx)
	if err != nil {
		return err
	}
	org, err := s.Store.FindOrganizationForMember(ctx, orgID, v.User.ID)
	if err != nil {
		return err
	}
	v.Kind, v.Title = "list", org.Title
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}}
	cols, err := s.Store.FindCollections(ctx, orgID, true, vis, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	for _, col := range cols.Items {
		if col.ParentID == nil {
			v.Items = append(v.Items, webLink{Title: col.Title, URL: "/app/o/" + orgID + "/c/" + col.ID, Context: "collection"})
		}
	}
	spaces, err := s.Store.FindSpaces(ctx, orgID, false, vis, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	for _, sp := range spaces.Items {
		v.Items = append(v.Items, webLink{Title: sp.Title, URL: "/app/s/" + sp.ID, Context: "space"})
	}
	if role, err := s.Access.MemberRole(ctx, orgID); err == nil && role.AtLeast(store.RoleAdmin) {
		v.Items = append(v.Items, webLink{Title: "Audit log", URL: "/app/o/" + orgID + "/audit", Context: "admins"})
	}
	return s.sendApp(c, http.StatusOK, v)
}

// appCollection lists a collection's collections and the spaces the member sees in it.
func (s *Server) appCollection(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	col, _, err := s.Access.FindCollection(ctx, c.Param("collectionId"), store.RoleRead)
	if err != nil {
		return err
	}
	if col.OrganizationID != c.Param("orgId") {
		return store.Errorf(store.ENOTFOUND, "Collection not found.")
	}
	v.Kind, v.Title = "list", col.Title
	if col.Description != nil {
		v.Lead = *col.Description
	}
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + col.OrganizationID}}
	roles, err := s.Access.ContentRoles(ctx, col.OrganizationID)
	if err != nil {
		return err
	}
	vis, err := roles.Visible(ctx)
	if err != nil {
		return err
	}
	cols, err := s.Store.FindCollections(ctx, col.OrganizationID, true, vis, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	for _, x := range cols.Items {
		if x.ParentID != nil && *x.ParentID == col.ID {
			v.Items = append(v.Items, webLink{Title: x.Title, URL: "/app/o/" + x.OrganizationID + "/c/" + x.ID, Context: "collection"})
		}
	}
	spaces, err := s.Store.FindSpacesInCollection(ctx, col.ID, vis, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	for _, sp := range spaces.Items {
		v.Items = append(v.Items, webLink{Title: sp.Title, URL: "/app/s/" + sp.ID, Context: "space"})
	}
	return s.sendApp(c, http.StatusOK, v)
}

// appSite shows a site: its audience, whether and where it is published, and its sections and
// site spaces.
func (s *Server) appSite(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	site, _, err := s.Access.FindSite(ctx, c.Param("orgId"), c.Param("siteId"), store.RoleRead)
	if err != nil {
		return err
	}
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return err
	}
	v.Kind, v.Title = "list", site.Title
	v.Lead = "Site · " + site.Visibility + " · unpublished"
	if site.Published {
		v.Lead = "Site · " + site.Visibility + " · published"
		if u := site.PublishedURL(s.BaseURL); u != nil && site.Visibility != "share-link" {
			v.Items = append(v.Items, webLink{Title: "Read the published site", URL: *u, Context: "published"})
		}
	}
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + site.OrganizationID}}
	roles, err := s.Access.ContentRoles(ctx, site.OrganizationID)
	if err != nil {
		return err
	}
	add := func(where string, list []*store.SiteSpace) {
		for _, ss := range list {
			if ss.Space == nil {
				continue
			}
			// Only the spaces the member reads are named.
			if r, err := roles.Of(ctx, ss.Space.ID, ss.Space.DefaultLevel, ss.Space.ParentID); err != nil || r == store.RoleGuest {
				continue
			}
			ctxText := "site space"
			if where != "" {
				ctxText = "in " + where
			}
			v.Items = append(v.Items, webLink{Title: ss.Space.Title, URL: "/app/s/" + ss.Space.ID, Context: ctxText})
		}
	}
	add("", st.RootSiteSpaces)
	for _, sec := range st.Sections {
		add(sec.Title, sec.SiteSpaces)
	}
	if v.Charts, err = s.siteCharts(ctx, site, st); err != nil {
		return err
	}
	return s.sendApp(c, http.StatusOK, v)
}
