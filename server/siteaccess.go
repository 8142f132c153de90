package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Who gets into a site: its share links (a key each, opening a share-link site while active) and
// its visitor authentication settings (the key its visitor tokens are signed with). The checks
// themselves are the access rules' (access/siteaccess.go), used by the API and the web alike.

func (s *Server) toAPIShareLink(site *store.Site, l *store.SiteShareLink) gen.ShareLink {
	out := gen.ShareLink{Object: gen.ShareLinkObjectShareLink, Id: l.ID, CreatedAt: l.CreatedAt, Name: l.Name, Active: l.Active}
	out.Urls.Published = site.RootURL(s.BaseURL) + "?share=" + l.Key
	return out
}

func (s *Server) ListSiteShareLinks(ctx context.Context, req gen.ListSiteShareLinksRequestObject) (gen.ListSiteShareLinksResponseObject, error) {
	// The links carry keys: reading them takes what making them takes.
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindSiteShareLinks(ctx, site.ID, req.Params.Search, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.ShareLink, 0, len(list.Items))
	for _, l := range list.Items {
		items = append(items, s.toAPIShareLink(site, l))
	}
	return gen.ListSiteShareLinks200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateSiteShareLink(ctx context.Context, req gen.CreateSiteShareLinkRequestObject) (gen.CreateSiteShareLinkResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	l, err := s.Store.CreateSiteShareLink(ctx, site.ID, req.Body.Name)
	if err != nil {
		return nil, err
	}
	loc := s.apiURL("/orgs/" + site.OrganizationID + "/sites/" + site.ID + "/share-links/" + l.ID)
	return gen.CreateSiteShareLink201JSONResponse{Body: s.toAPIShareLink(site, l), Headers: gen.CreateSiteShareLink201ResponseHeaders{Location: &loc}}, nil
}

func (s *Server) UpdateSiteShareLinkById(ctx context.Context, req gen.UpdateSiteShareLinkByIdRequestObject) (gen.UpdateSiteShareLinkByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	l, err := s.Store.UpdateSiteShareLink(ctx, site.ID, req.ShareLinkId, store.SiteShareLinkUpdate{Name: req.Body.Name, Active: req.Body.Active})
	if err != nil {
		return nil, err
	}
	return gen.UpdateSiteShareLinkById200JSONResponse(s.toAPIShareLink(site, l)), nil
}

func (s *Server) DeleteSiteShareLinkById(ctx context.Context, req gen.DeleteSiteShareLinkByIdRequestObject) (gen.DeleteSiteShareLinkByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	deleted, err := s.Store.DeleteSiteShareLink(ctx, site.ID, req.ShareLinkId)
	if err != nil {
		return nil, err
	}
	if deleted {
		return gen.DeleteSiteShareLinkById205Response{}, nil
	}
	return gen.DeleteSiteShareLinkById204Response{}, nil
}

func toAPIPublishingAuth(a *store.SitePublishingAuth) gen.SitePublishingAuth {
	return gen.SitePublishingAuth{Object: gen.PublishingAuth, Backend: gen.VisitorAuthBackend(a.Backend), PrivateKey: a.PrivateKey,
		FallbackURL: a.FallbackURL, LogoutURL: a.LogoutURL}
}

// The settings carry the signing key: reading them takes the admin role on the site.

func (s *Server) GetSitePublishingAuthById(ctx context.Context, req gen.GetSitePublishingAuthByIdRequestObject) (gen.GetSitePublishingAuthByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	a, err := s.Store.SitePublishingAuth(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	return gen.GetSitePublishingAuthById200JSONResponse(toAPIPublishingAuth(a)), nil
}

func (s *Server) UpdateSitePublishingAuthById(ctx context.Context, req gen.UpdateSitePublishingAuthByIdRequestObject) (gen.UpdateSitePublishingAuthByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	b := req.Body
	backend := string(b.Backend)
	upd := store.SitePublishingAuthUpdate{Backend: &backend}
	upd.SetFallbackURL, upd.FallbackURL = nullableField(b.FallbackURL)
	upd.SetLogoutURL, upd.LogoutURL = nullableField(b.LogoutURL)
	for field, u := range map[string]*string{"fallbackURL": upd.FallbackURL, "logoutURL": upd.LogoutURL} {
		if u != nil && !isWebURL(*u) {
			return nil, store.FieldErrorf(field, "must be an absolute http or https URL")
		}
	}
	a, err := s.Store.UpdateSitePublishingAuth(ctx, site.ID, upd)
	if err != nil {
		return nil, err
	}
	return gen.UpdateSitePublishingAuthById200JSONResponse(toAPIPublishingAuth(a)), nil
}

func (s *Server) RegenerateSitePublishingAuthById(ctx context.Context, req gen.RegenerateSitePublishingAuthByIdRequestObject) (gen.RegenerateSitePublishingAuthByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleAdmin)
	if err != nil {
		return nil, err
	}
	a, err := s.Store.RegenerateSitePublishingAuth(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	return gen.RegenerateSitePublishingAuthById200JSONResponse(toAPIPublishingAuth(a)), nil
}
