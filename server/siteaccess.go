package server

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/internal/rison"

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

// previewFor is how long a preview's address opens the site.
const previewFor = time.Hour

func (s *Server) GetSitePublishingPreviewById(ctx context.Context, req gen.GetSitePublishingPreviewByIdRequestObject) (gen.GetSitePublishingPreviewByIdResponseObject, error) {
	// The address carries a token signed with the site's key: making one takes what changing the
	// site takes.
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	p := req.Params
	u := site.WithShareKey(site.RootURL(s.BaseURL))
	if p.SiteSpace != nil {
		if u, err = s.redirectTarget(ctx, site, store.RedirectDestination{DestinationKind: "site-space", SiteSpaceID: p.SiteSpace}); err != nil {
			if store.ErrorCode(err) == store.ENOTFOUND {
				return nil, store.FieldErrorf("siteSpace", "is not a site space of the site")
			}
			return nil, err
		}
	}
	if p.Target != nil && *p.Target != "" {
		path, ok := sitePathOf(site.RootURL(s.BaseURL), *p.Target)
		if !ok && strings.HasPrefix(*p.Target, "/") && !strings.HasPrefix(*p.Target, "//") {
			path, ok = *p.Target, true
		}
		if !ok {
			return nil, store.FieldErrorf("target", "must be a path of the site or a URL under its address")
		}
		u = withPath(site.WithShareKey(site.RootURL(s.BaseURL)), strings.TrimPrefix(path, "/"))
	}
	claims := jwt.MapClaims{}
	if p.Claims != nil && *p.Claims != "" {
		v, err := rison.Parse(*p.Claims)
		obj, isObject := v.(map[string]any)
		if err != nil || !isObject {
			return nil, store.FieldErrorf("claims", "must be a Rison object, as (plan:pro,admin:!t)")
		}
		for k, x := range obj {
			claims[k] = x
		}
	}
	claims["exp"] = s.Store.Now().Add(previewFor).Unix()
	auth, err := s.Store.SitePublishingAuth(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(auth.PrivateKey))
	if err != nil {
		return nil, err
	}
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return gen.GetSitePublishingPreviewById200JSONResponse{Url: u + sep + "jwt_token=" + url.QueryEscape(token)}, nil
}
