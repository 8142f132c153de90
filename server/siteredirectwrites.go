package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Writing a site's redirects: create, list, update, delete, and the bulk change. A destination is
// checked to be the site's (a section, a site space, a page of one, or the page at a path of a
// space the site publishes), and a redirect that would lead back to its own source, or to another
// of the site's redirected paths (a chain), is refused.

func (s *Server) ListSiteRedirects(ctx context.Context, req gen.ListSiteRedirectsRequestObject) (gen.ListSiteRedirectsResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	p := req.Params
	f := store.SiteRedirectFilter{Draft: p.Draft != nil && *p.Draft, Search: p.Search}
	if p.OrderBy != nil {
		f.OrderBy = string(*p.OrderBy)
	}
	list, err := s.Store.FindSiteRedirects(ctx, site.ID, f, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.SiteRedirect, 0, len(list.Items))
	for _, r := range list.Items {
		items = append(items, toAPISiteRedirect(r))
	}
	return gen.ListSiteRedirects200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateSiteRedirect(ctx context.Context, req gen.CreateSiteRedirectRequestObject) (gen.CreateSiteRedirectResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	b := req.Body
	r := &store.SiteRedirect{SiteID: site.ID, Source: string(b.Source), Draft: isTrue(b.Draft),
		CaptureWildcard: isTrue(b.CaptureWildcard), Permanent: isTrue(b.Permanent)}
	if r.RedirectDestination, err = s.redirectDestination(ctx, site, "destination", &b.Destination); err != nil {
		return nil, err
	}
	if err := s.checkRedirectLoop(ctx, site, "", r.Source, "destination", r.RedirectDestination); err != nil {
		return nil, err
	}
	if err := s.Store.CreateSiteRedirect(ctx, r); err != nil {
		return nil, err
	}
	return gen.CreateSiteRedirect201JSONResponse(toAPISiteRedirect(r)), nil
}

func (s *Server) UpdateSiteRedirectById(ctx context.Context, req gen.UpdateSiteRedirectByIdRequestObject) (gen.UpdateSiteRedirectByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	r, err := s.Store.FindSiteRedirect(ctx, site.ID, req.SiteRedirectId)
	if err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.SiteRedirectUpdate{Source: (*string)(b.Source), Draft: b.Draft, CaptureWildcard: b.CaptureWildcard, Permanent: b.Permanent}
	source, dest := r.Source, r.RedirectDestination
	if upd.Source != nil {
		source = *upd.Source
	}
	if b.Destination != nil {
		if dest, err = s.redirectDestination(ctx, site, "destination", b.Destination); err != nil {
			return nil, err
		}
		upd.Destination = &dest
	}
	if err := s.checkRedirectLoop(ctx, site, r.ID, source, "destination", dest); err != nil {
		return nil, err
	}
	if r, err = s.Store.UpdateSiteRedirect(ctx, site.ID, r.ID, upd); err != nil {
		return nil, err
	}
	return gen.UpdateSiteRedirectById200JSONResponse(toAPISiteRedirect(r)), nil
}

func (s *Server) DeleteSiteRedirectById(ctx context.Context, req gen.DeleteSiteRedirectByIdRequestObject) (gen.DeleteSiteRedirectByIdResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	deleted, err := s.Store.DeleteSiteRedirect(ctx, site.ID, req.SiteRedirectId)
	if err != nil {
		return nil, err
	}
	if deleted {
		return gen.DeleteSiteRedirectById205Response{}, nil
	}
	return gen.DeleteSiteRedirectById204Response{}, nil
}

func (s *Server) BulkUpsertSiteRedirects(ctx context.Context, req gen.BulkUpsertSiteRedirectsRequestObject) (gen.BulkUpsertSiteRedirectsResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleCreate)
	if err != nil {
		return nil, err
	}
	entries := make([]store.SiteRedirectUpsert, 0, len(req.Body.Redirects))
	seen := map[string]int{}
	for i, in := range req.Body.Redirects {
		field := fmt.Sprintf("redirects.%d", i)
		e := store.SiteRedirectUpsert{Source: string(in.Source), Intent: "live", CaptureWildcard: isTrue(in.CaptureWildcard), Permanent: in.Permanent}
		if in.Intent != nil {
			e.Intent = string(*in.Intent)
		}
		key := e.Intent + " " + e.Source
		if e.Intent == "publish" {
			key = "live " + e.Source
		}
		if j, dup := seen[key]; dup {
			return nil, store.FieldErrorf(field+".source", "redirects.%d already changes the %s redirect from %s", j, e.Intent, e.Source)
		}
		seen[key] = i
		d, err := in.Destination.Get()
		switch {
		case e.Intent == "publish":
			if in.Destination.IsSpecified() || isTrue(in.CaptureWildcard) || in.Permanent != nil {
				return nil, store.FieldErrorf(field, "publishing a draft takes only source and intent")
			}
		case !in.Destination.IsSpecified():
			return nil, store.FieldErrorf(field+".destination", "is required (null deletes the redirect)")
		case err == nil:
			dest, err := s.redirectDestination(ctx, site, field+".destination", &d)
			if err != nil {
				return nil, err
			}
			if err := s.checkRedirectLoop(ctx, site, "", e.Source, field+".destination", dest); err != nil {
				return nil, err
			}
			e.Destination = &dest
		}
		entries = append(entries, e)
	}
	results, err := s.Store.UpsertSiteRedirects(ctx, site.ID, entries)
	if err != nil {
		return nil, err
	}
	out := gen.BulkUpsertSiteRedirects200JSONResponse{Results: make([]gen.SiteRedirectBulkResult, 0, len(results))}
	for _, r := range results {
		item := gen.SiteRedirectBulkResult{Status: gen.SiteRedirectBulkStatus(r.Status), Source: gen.SiteRedirectSourcePath(r.Source), Draft: r.Draft}
		if r.ID != "" {
			item.Id = &r.ID
		}
		if r.Error != "" {
			item.Error = &r.Error
		}
		out.Results = append(out.Results, item)
	}
	return out, nil
}

func isTrue(b *bool) bool { return b != nil && *b }

// redirectDestination checks a destination given at field to be the site's and returns it as
// stored: a path destination becomes the page at that path of the site space publishing the space.
func (s *Server) redirectDestination(ctx context.Context, site *store.Site, field string, in *gen.SiteRedirectInputDestination) (store.RedirectDestination, error) {
	d := store.RedirectDestination{DestinationKind: string(in.Kind), SiteSectionID: in.SiteSectionId, SiteSpaceID: in.SiteSpaceId,
		PageID: in.PageId, URL: (*string)(in.Url)}
	allowed := map[string][]string{
		"site-section": {"siteSectionId"}, "site-space": {"siteSpaceId"}, "site-page": {"siteSpaceId", "pageId"},
		"external": {"url"}, "path": {"spaceId", "path"}}[d.DestinationKind]
	given := map[string]bool{"siteSectionId": in.SiteSectionId != nil, "siteSpaceId": in.SiteSpaceId != nil, "pageId": in.PageId != nil,
		"url": in.Url != nil, "spaceId": in.SpaceId != nil, "path": in.Path != nil}
	for _, name := range allowed {
		if !given[name] {
			return d, store.FieldErrorf(field+"."+name, "is required for a %s destination", in.Kind)
		}
		delete(given, name)
	}
	for name, set := range given {
		if set {
			return d, store.FieldErrorf(field+"."+name, "is not part of a %s destination", in.Kind)
		}
	}
	switch d.DestinationKind {
	case "external":
		if !isWebURL(*d.URL) {
			return d, store.FieldErrorf(field+".url", "must be an absolute http or https URL")
		}
		return d, nil
	case "path":
		return s.pathDestination(ctx, site, field, *in.SpaceId, strings.Trim(*in.Path, "/"))
	}
	if _, err := s.redirectPath(ctx, site, d); err != nil {
		if store.ErrorCode(err) == store.ENOTFOUND {
			return d, store.FieldErrorf(field, "is not content of this site (%s)", strings.TrimSuffix(err.Error(), "."))
		}
		return d, err
	}
	return d, nil
}

// pathDestination is the page at a path of a space the site publishes, in the first site space
// publishing it.
func (s *Server) pathDestination(ctx context.Context, site *store.Site, field, spaceID, path string) (store.RedirectDestination, error) {
	st, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return store.RedirectDestination{}, err
	}
	ss := siteSpaceOf(st, spaceID)
	if ss == nil {
		return store.RedirectDestination{}, store.FieldErrorf(field+".spaceId", "is not a space this site publishes")
	}
	p, err := s.Store.FindPageByPath(ctx, ss.Space.RevisionID, path)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return store.RedirectDestination{}, store.FieldErrorf(field+".path", "the space has no page at %q", path)
	}
	if err != nil {
		return store.RedirectDestination{}, err
	}
	return store.RedirectDestination{DestinationKind: "site-page", SiteSpaceID: &ss.ID, PageID: &p.ID}, nil
}

// checkRedirectLoop refuses a redirect from source whose destination leads back to a path the
// source matches (a loop), or, for an external URL into the site itself, to a path another live
// redirect takes (a chain); self is the redirect being changed ("" for a new one), field where
// the destination was given.
func (s *Server) checkRedirectLoop(ctx context.Context, site *store.Site, self, source, field string, d store.RedirectDestination) error {
	var path string
	if d.DestinationKind == "external" {
		rel, ok := sitePathOf(site.RootURL(s.BaseURL), *d.URL)
		if !ok {
			return nil
		}
		path = rel
	} else {
		p, err := s.redirectPath(ctx, site, d)
		if err != nil {
			return err
		}
		path = p
	}
	if sourceMatches(source, path) {
		return store.FieldErrorf(field, "leads back to %s, the redirect's own source (a loop)", source)
	}
	if d.DestinationKind != "external" {
		return nil // the site's content: pages are answered before redirects
	}
	other, err := s.Store.FindSiteRedirectBySource(ctx, site.ID, path)
	if err == nil && other.ID != self {
		return store.FieldErrorf(field, "leads to %s, which the redirect from %s sends on (a chain)", path, other.Source)
	}
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return err
	}
	return nil
}

// sitePathOf is the path of an absolute URL under a site's root ("/" for the root itself), and
// whether the URL is under it at all.
func sitePathOf(root, u string) (string, bool) {
	u, _, _ = strings.Cut(u, "#")
	u, _, _ = strings.Cut(u, "?")
	if u == root {
		return "/", true
	}
	rest, ok := strings.CutPrefix(u, root+"/")
	if !ok {
		return "", false
	}
	return "/" + strings.TrimSuffix(rest, "/"), true
}

// sourceMatches tells whether a redirect source (exact, or a "*" / "/*" wildcard) takes a path.
func sourceMatches(source, path string) bool {
	if prefix, ok := strings.CutSuffix(source, "/*"); ok {
		return path == prefix || strings.HasPrefix(path, prefix+"/")
	}
	if prefix, ok := strings.CutSuffix(source, "*"); ok {
		return strings.HasPrefix(path, prefix)
	}
	return path == source
}
