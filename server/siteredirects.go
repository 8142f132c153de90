package server

import (
	"context"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// A site's redirects, looked up by a path of the site (getSiteRedirectBySource): the renderer asks
// before it answers a page that is not there. Where a destination leads and the conversions are
// here, beneath the writes (siteredirectwrites.go).

func (s *Server) GetSiteRedirectBySource(ctx context.Context, req gen.GetSiteRedirectBySourceRequestObject) (gen.GetSiteRedirectBySourceResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if k := req.Params.ShareKey; k != nil && site.Visibility == "share-link" {
		if ok, err := s.Access.ShareKeyOpens(ctx, site, *k); err != nil || !ok {
			return nil, notFoundUnless(err, "Site")
		}
	}
	source := string(req.Params.Source)
	r, err := s.Store.FindSiteRedirectBySource(ctx, site.ID, source)
	if err != nil {
		return nil, err
	}
	target, err := s.redirectTarget(ctx, site, r.RedirectDestination)
	if err != nil {
		return nil, err
	}
	if r.CaptureWildcard && r.Source != source {
		// The part of the path past the wildcard's prefix follows to the destination.
		prefix := strings.TrimSuffix(strings.TrimSuffix(r.Source, "*"), "/")
		if tail := strings.TrimPrefix(strings.TrimPrefix(source, prefix), "/"); tail != "" {
			target = withPath(target, tail)
		}
	}
	return gen.GetSiteRedirectBySource200JSONResponse{Target: target, Redirect: toAPISiteRedirect(r)}, nil
}

func toAPISiteRedirect(r *store.SiteRedirect) gen.SiteRedirect {
	return gen.SiteRedirect{
		Object: gen.SiteRedirectObjectSiteRedirect, Id: r.ID, Source: gen.SiteRedirectSourcePath(r.Source), Draft: r.Draft,
		CaptureWildcard: r.CaptureWildcard, Permanent: r.Permanent, CreatedAt: r.CreatedAt, UpdatedAt: &r.UpdatedAt,
		Destination: gen.SiteRedirectDestination{Kind: gen.SiteRedirectDestinationKind(r.DestinationKind),
			SiteSectionId: r.SiteSectionID, SiteSpaceId: r.SiteSpaceID, PageId: r.PageID, Url: r.URL}}
}

// redirectTarget is the absolute URL a destination leads to: its external URL, or the address
// on the site (redirectPath) under the site's root, with a share-link site's key.
func (s *Server) redirectTarget(ctx context.Context, site *store.Site, d store.RedirectDestination) (string, error) {
	if d.DestinationKind == "external" {
		if d.URL == nil {
			return "", redirectGone()
		}
		return *d.URL, nil
	}
	path, err := s.redirectPath(ctx, site, d)
	if err != nil {
		return "", err
	}
	root := site.WithShareKey(site.RootURL(s.BaseURL))
	if path == "/" {
		return root, nil
	}
	return withPath(root, strings.TrimPrefix(path, "/")), nil
}

func redirectGone() error {
	return store.Errorf(store.ENOTFOUND, "The redirect leads to content the site no longer has.")
}

// redirectPath is the path from the site's root that a section, site space, or page of a site
// space is read at ("/" for the site's default): ENOTFOUND when it is gone.
func (s *Server) redirectPath(ctx context.Context, site *store.Site, d store.RedirectDestination) (string, error) {
	var parts []string
	if d.DestinationKind == "site-section" {
		if d.SiteSectionID == nil {
			return "", redirectGone()
		}
		sec, err := s.Store.FindSiteSection(ctx, site.ID, *d.SiteSectionID)
		if err != nil {
			return "", access.NotFoundAs(err, "Site section")
		}
		if !sec.Default {
			parts = append(parts, sec.Path)
		}
		return "/" + strings.Join(parts, "/"), nil
	}
	if d.SiteSpaceID == nil {
		return "", redirectGone()
	}
	ss, err := s.Store.FindSiteSpace(ctx, site.ID, *d.SiteSpaceID)
	if err != nil {
		return "", access.NotFoundAs(err, "Site space")
	}
	if ss.SectionID != nil {
		sec, err := s.Store.FindSiteSection(ctx, site.ID, *ss.SectionID)
		if err != nil {
			return "", err
		}
		if !sec.Default {
			parts = append(parts, sec.Path)
		}
	}
	if !ss.Default {
		parts = append(parts, ss.Path)
	}
	if d.DestinationKind == "site-page" {
		if d.PageID == nil || ss.Space == nil {
			return "", redirectGone()
		}
		p, err := s.Store.FindPage(ctx, ss.Space.RevisionID, *d.PageID)
		if err != nil {
			return "", access.NotFoundAs(err, "Page")
		}
		parts = append(parts, p.Path)
	}
	return "/" + strings.Join(parts, "/"), nil
}

// withPath puts a page path after a published URL, before its query (a share key).
func withPath(u, path string) string {
	base, query, _ := strings.Cut(u, "?")
	u = strings.TrimSuffix(base, "/") + "/" + path
	if query != "" {
		u += "?" + query
	}
	return u
}
