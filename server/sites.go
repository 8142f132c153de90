package server

import (
	"context"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// defaultSiteTitle names a site created without a title.
const defaultSiteTitle = "Untitled site"

// toAPISite converts a site for a caller with the given role in its organization.
func (s *Server) toAPISite(site *store.Site, role store.Role) gen.Site {
	out := gen.Site{
		Object:          gen.SiteObjectSite,
		Id:              site.ID,
		Type:            gen.SiteType(site.Type),
		AppliedType:     gen.SiteType(site.Type),
		DefaultLevel:    apiLevel(site.DefaultLevel),
		Title:           site.Title,
		Hostname:        site.Hostname,
		Basename:        site.Basename,
		Visibility:      gen.SiteVisibility(site.Visibility),
		Published:       site.Published,
		SiteSpaces:      site.SiteSpaces,
		CreatedAt:       site.CreatedAt,
		AdaptiveContent: gen.SiteAdaptiveContent{Enabled: site.AdaptiveEnabled},
		AgentsContext:   gen.SiteAgentsContext(site.AgentsContext),
		Features:        []gen.SiteFeature{},
	}
	out.Urls.Location = s.apiURL("/orgs/" + site.OrganizationID + "/sites/" + site.ID)
	out.Urls.App = s.appURL("/o/" + site.OrganizationID + "/sites/" + site.ID)
	out.Urls.Preview = out.Urls.App + "/preview"
	out.Permissions = gen.SitePermissions{
		View:               role.AtLeast(store.RoleRead),
		Access:             role.AtLeast(store.RoleRead),
		Edit:               role.AtLeast(store.RoleCreate),
		Create:             role.AtLeast(store.RoleCreate),
		Admin:              role == store.RoleAdmin,
		InstallIntegration: role == store.RoleAdmin,
		ViewAdaptiveSchema: role.AtLeast(store.RoleRead),
		EditAdaptiveSchema: role.AtLeast(store.RoleCreate),
	}
	if u := site.PublishedURL(s.BaseURL); u != nil {
		published := site.WithShareKey(*u)
		out.Urls.Published = &published
	}
	if site.Proxy != nil {
		// The proxy forwards its origin to where the site is read: live, or its app view until then.
		target := out.Urls.App
		if out.Urls.Published != nil {
			target = *out.Urls.Published
		}
		out.Proxy = &struct {
			Origin string `json:"origin"`
			Target string `json:"target"`
		}{Origin: *site.Proxy, Target: target}
	}
	return out
}

func (s *Server) ListSites(ctx context.Context, req gen.ListSitesRequestObject) (gen.ListSitesResponseObject, error) {
	roles, err := s.Access.ContentRoles(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	f := store.SiteFilter{Space: req.Params.Space, Title: req.Params.Title, Published: req.Params.Published}
	if f.Visible, err = roles.Visible(ctx); err != nil {
		return nil, err
	}
	list, err := s.Store.FindSites(ctx, req.OrganizationId, f, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.Site, 0, len(list.Items))
	for _, site := range list.Items {
		role, err := roles.Site(ctx, site)
		if err != nil {
			return nil, err
		}
		items = append(items, s.toAPISite(site, role))
	}
	return gen.ListSites200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateSite(ctx context.Context, req gen.CreateSiteRequestObject) (gen.CreateSiteResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	c := store.SiteCreate{Type: "basic", Title: defaultSiteTitle, Visibility: "public"}
	if b := req.Body; b != nil {
		if b.Type != nil {
			c.Type = string(*b.Type)
		}
		if b.Title != nil {
			c.Title = *b.Title
		}
		if b.Visibility != nil {
			c.Visibility = string(*b.Visibility)
		}
		if b.Spaces != nil {
			c.Spaces = *b.Spaces
		}
	}
	site, err := s.Store.CreateSite(ctx, req.OrganizationId, c)
	if err != nil {
		return nil, err
	}
	return gen.CreateSite201JSONResponse(s.toAPISite(site, role)), nil
}

func (s *Server) GetSiteById(ctx context.Context, req gen.GetSiteByIdRequestObject) (gen.GetSiteByIdResponseObject, error) {
	site, role, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return gen.GetSiteById200JSONResponse(s.toAPISite(site, role)), nil
}

func (s *Server) UpdateSiteById(ctx context.Context, req gen.UpdateSiteByIdRequestObject) (gen.UpdateSiteByIdResponseObject, error) {
	cur, roles, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	curRole, err := roles.Site(ctx, cur)
	if err != nil {
		return nil, err
	}
	if b.DefaultLevel.IsSpecified() && curRole != store.RoleAdmin {
		// The level raises every member's role on the site: only an admin may give it.
		return nil, forbidden("Setting defaultLevel needs the admin role on the site.")
	}
	if err := s.checkStyleguide(ctx, req.OrganizationId, b.Styleguide); err != nil {
		return nil, err
	}
	upd := store.SiteUpdate{
		Title:              b.Title,
		Basename:           b.Basename,
		DefaultSiteSpace:   b.DefaultSiteSpace,
		DefaultSiteSection: b.DefaultSiteSection,
	}
	if b.Visibility != nil {
		v := string(*b.Visibility)
		upd.Visibility = &v
	}
	if b.AgentsContext != nil {
		v := string(*b.AgentsContext)
		upd.AgentsContext = &v
	}
	if b.AdaptiveContent != nil {
		upd.AdaptiveEnabled = &b.AdaptiveContent.Enabled
	}
	if b.DefaultLevel.IsSpecified() {
		upd.SetDefaultLevel, upd.DefaultLevel = true, storeRole(b.DefaultLevel)
	}
	if b.Hostname.IsSpecified() {
		upd.SetHostname = true
		if h, err := b.Hostname.Get(); err == nil {
			upd.Hostname = &h
		}
	}
	if b.Proxy.IsSpecified() {
		upd.SetProxy = true
		if p, err := b.Proxy.Get(); err == nil {
			upd.Proxy = &p
		}
	}
	// One transaction writes the fields and checks that the defaults are the site's, so a bad id
	// changes nothing; the site structure then sets them, as it owns the rules of defaults.
	site, err := s.Store.UpdateSite(ctx, req.SiteId, upd)
	if err != nil {
		return nil, err
	}
	if b.DefaultSiteSpace != nil {
		err := s.Store.SetDefaultSiteSpace(ctx, req.SiteId, *b.DefaultSiteSpace)
		if err := invalidField(err, "defaultSiteSpace"); err != nil {
			return nil, err
		}
	}
	if b.DefaultSiteSection != nil {
		err := s.Store.SetDefaultSiteSection(ctx, req.SiteId, *b.DefaultSiteSection)
		if err := invalidField(err, "defaultSiteSection"); err != nil {
			return nil, err
		}
	}
	role, err := roles.Site(ctx, site)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSiteById200JSONResponse(s.toAPISite(site, role)), nil
}

// checkStyleguide checks the style guide a site update attaches: a space of the organization that
// is a style guide. quire's spaces are all regular (Space.type is never styleguide: no operation
// makes a style guide), so null, detaching, is the one value taken; an id is refused, naming why.
func (s *Server) checkStyleguide(ctx context.Context, orgID string, v nullable.Nullable[string]) error {
	if !v.IsSpecified() || v.IsNull() {
		return nil
	}
	id, _ := v.Get()
	sp, _, err := s.Access.FindSpace(ctx, id, store.RoleRead)
	if err == nil && sp.OrganizationID != orgID {
		err = store.Errorf(store.ENOTFOUND, "Space not found.")
	}
	if err := invalidField(err, "styleguide"); err != nil {
		return err
	}
	return store.FieldErrorf("styleguide", "space %s is not a style guide (quire has no style guide spaces)", id)
}

// invalidField turns a miss of an id a body field names into a 400 naming the field.
func invalidField(err error, field string) error {
	if store.ErrorCode(err) == store.ENOTFOUND {
		return store.FieldErrorf(field, "%s", err.Error())
	}
	return err
}

func (s *Server) DeleteSiteById(ctx context.Context, req gen.DeleteSiteByIdRequestObject) (gen.DeleteSiteByIdResponseObject, error) {
	// Outside the organization: 404, as every other delete under /orgs/{id} answers; a site
	// that does not exist inside it: 204 (seed 7.1).
	if _, err := s.Access.MemberRole(ctx, req.OrganizationId); err != nil {
		return nil, err
	}
	_, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return gen.DeleteSiteById204Response{}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteSite(ctx, req.SiteId); err != nil {
		return nil, err
	}
	return gen.DeleteSiteById204Response{}, nil
}

func (s *Server) PublishSite(ctx context.Context, req gen.PublishSiteRequestObject) (gen.PublishSiteResponseObject, error) {
	site, role, err := s.setPublished(ctx, req.OrganizationId, req.SiteId, true)
	if err != nil {
		return nil, err
	}
	return gen.PublishSite200JSONResponse(s.toAPISite(site, role)), nil
}

func (s *Server) UnpublishSite(ctx context.Context, req gen.UnpublishSiteRequestObject) (gen.UnpublishSiteResponseObject, error) {
	site, role, err := s.setPublished(ctx, req.OrganizationId, req.SiteId, false)
	if err != nil {
		return nil, err
	}
	return gen.UnpublishSite200JSONResponse(s.toAPISite(site, role)), nil
}

func (s *Server) setPublished(ctx context.Context, orgID, siteID string, published bool) (*store.Site, store.Role, error) {
	_, role, err := s.Access.FindSite(ctx, orgID, siteID, store.RoleCreate)
	if err != nil {
		return nil, "", err
	}
	site, err := s.Store.SetSitePublished(ctx, siteID, published)
	return site, role, err
}
