package server

import (
	"context"
	"net/url"

	"github.com/oapi-codegen/nullable"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// External links in a site's navigation (issue 30 item 4): added, changed and deleted with the
// create role on the site, as the rest of its structure; getSiteStructure lists them among the
// sections and groups, and the published pages show them in the tab bar.

// webAddress checks that a link's destination is an absolute http or https address.
func webAddress(field, u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return store.FieldErrorf(field, "must be an absolute http:// or https:// address")
	}
	return nil
}

// nullableLocalized reads a nullable localized text: whether it is given, and its value (empty
// removes it).
func nullableLocalized[T ~map[string]string](field string, v nullable.Nullable[T]) (bool, store.Localized, error) {
	if !v.IsSpecified() {
		return false, nil, nil
	}
	m, err := v.Get()
	if err != nil {
		return true, nil, nil
	}
	l, err := localizedField(field, &m)
	return true, l, err
}

func (s *Server) AddExternalLinkToSite(ctx context.Context, req gen.AddExternalLinkToSiteRequestObject) (gen.AddExternalLinkToSiteResponseObject, error) {
	site, _, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	if err := webAddress("url", b.Url); err != nil {
		return nil, err
	}
	c := store.SiteExternalLinkCreate{Title: b.Title, URL: b.Url, GroupID: b.Parent, Draft: b.Draft != nil && *b.Draft}
	if c.LocalizedTitle, err = localizedField("localizedTitle", b.LocalizedTitle); err != nil {
		return nil, err
	}
	if _, c.LocalizedDescription, err = nullableLocalized("localizedDescription", b.LocalizedDescription); err != nil {
		return nil, err
	}
	_, c.Description = nullableField(b.Description)
	_, c.Icon = nullableField(b.Icon)
	if _, c.Condition, err = conditionField(b.Condition); err != nil {
		return nil, err
	}
	l, err := s.Store.AddSiteExternalLink(ctx, site.ID, c)
	if err != nil {
		return nil, err
	}
	loc := s.apiURL("/orgs/" + site.OrganizationID + "/sites/" + site.ID + "/external-links/" + l.ID)
	return gen.AddExternalLinkToSite201JSONResponse{Body: toAPISiteExternalLink(l),
		Headers: gen.AddExternalLinkToSite201ResponseHeaders{Location: &loc}}, nil
}

func (s *Server) UpdateSiteExternalLinkById(ctx context.Context, req gen.UpdateSiteExternalLinkByIdRequestObject) (gen.UpdateSiteExternalLinkByIdResponseObject, error) {
	site, _, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.SiteExternalLinkUpdate{Title: b.Title, URL: b.Url, Draft: b.Draft}
	if b.Url != nil {
		if err := webAddress("url", *b.Url); err != nil {
			return nil, err
		}
	}
	if upd.SetLocalizedTitle, upd.LocalizedTitle, err = nullableLocalized("localizedTitle", b.LocalizedTitle); err != nil {
		return nil, err
	}
	if upd.SetLocalizedDescription, upd.LocalizedDescription, err = nullableLocalized("localizedDescription", b.LocalizedDescription); err != nil {
		return nil, err
	}
	upd.SetDescription, upd.Description = nullableField(b.Description)
	upd.SetIcon, upd.Icon = nullableField(b.Icon)
	upd.SetGroup, upd.GroupID = nullableField(b.Parent)
	if upd.SetCondition, upd.Condition, err = conditionField(b.Condition); err != nil {
		return nil, err
	}
	l, err := s.Store.UpdateSiteExternalLink(ctx, site.ID, req.SiteExternalLinkId, upd)
	if err != nil {
		return nil, err
	}
	if p := req.Params.Prefer; p != nil && *p == gen.UpdateSiteExternalLinkByIdParamsPreferReturnMinimal {
		applied := string(*p)
		return gen.UpdateSiteExternalLinkById204Response{Headers: gen.UpdateSiteExternalLinkById204ResponseHeaders{PreferenceApplied: &applied}}, nil
	}
	return gen.UpdateSiteExternalLinkById200JSONResponse(toAPISiteExternalLink(l)), nil
}

func (s *Server) DeleteSiteExternalLinkById(ctx context.Context, req gen.DeleteSiteExternalLinkByIdRequestObject) (gen.DeleteSiteExternalLinkByIdResponseObject, error) {
	site, _, err := s.Access.FindSiteRoles(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	gone, err := s.Store.DeleteSiteExternalLink(ctx, site.ID, req.SiteExternalLinkId)
	if err != nil {
		return nil, err
	}
	if !gone {
		return gen.DeleteSiteExternalLinkById204Response{}, nil
	}
	return gen.DeleteSiteExternalLinkById205Response{}, nil
}
