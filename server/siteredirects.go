package server

import (
	"context"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// A site's redirects, looked up by a path of the site (getSiteRedirectBySource): the renderer asks
// before it answers a page that is not there. Writing them comes with the sites' own issue.

func (s *Server) GetSiteRedirectBySource(ctx context.Context, req gen.GetSiteRedirectBySourceRequestObject) (gen.GetSiteRedirectBySourceResponseObject, error) {
	site, _, err := s.Access.FindSite(ctx, req.OrganizationId, req.SiteId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	if k := req.Params.ShareKey; k != nil && site.Visibility == "share-link" && !shareKeyMatches(*k, site) {
		return nil, store.NotFound("Site")
	}
	source := string(req.Params.Source)
	r, err := s.Store.FindSiteRedirectBySource(ctx, site.ID, source)
	if err != nil {
		return nil, err
	}
	target, err := s.redirectTarget(ctx, site, r)
	if err != nil {
		return nil, err
	}
	if r.CaptureWildcard && r.Source != source {
		// The part of the path past the wildcard's prefix follows to the destination.
		prefix := strings.TrimSuffix(strings.TrimSuffix(r.Source, "*"), "/")
		if tail := strings.TrimPrefix(strings.TrimPrefix(source, prefix), "/"); tail != "" {
			target = strings.TrimSuffix(target, "/") + "/" + tail
		}
	}
	out := gen.GetSiteRedirectBySource200JSONResponse{Target: target, Redirect: gen.SiteRedirect{
		Object: gen.SiteRedirectObjectSiteRedirect, Id: r.ID, Source: gen.SiteRedirectSourcePath(r.Source), Draft: r.Draft,
		CaptureWildcard: r.CaptureWildcard, Permanent: r.Permanent, CreatedAt: r.CreatedAt, UpdatedAt: &r.UpdatedAt,
		Destination: gen.SiteRedirectDestination{Kind: gen.SiteRedirectDestinationKind(r.DestinationKind),
			SiteSectionId: r.SiteSectionID, SiteSpaceId: r.SiteSpaceID, PageId: r.PageID, Url: r.URL}}}
	return out, nil
}

// redirectTarget is the absolute URL a redirect leads to: its external URL, or the published URL
// of its section, site space, or page of a site space (ENOTFOUND when that is gone).
func (s *Server) redirectTarget(ctx context.Context, site *store.Site, r *store.SiteRedirect) (string, error) {
	gone := store.Errorf(store.ENOTFOUND, "The redirect from %s leads to content the site no longer has.", r.Source)
	switch r.DestinationKind {
	case "external":
		if r.URL == nil {
			return "", gone
		}
		return *r.URL, nil
	case "site-section":
		if r.SiteSectionID == nil {
			return "", gone
		}
		sec, err := s.Store.FindSiteSection(ctx, site.ID, *r.SiteSectionID)
		if err != nil {
			return "", access.NotFoundAs(err, "Site section")
		}
		return *s.structureURL(site, sec, nil), nil
	}
	if r.SiteSpaceID == nil {
		return "", gone
	}
	ss, err := s.Store.FindSiteSpace(ctx, site.ID, *r.SiteSpaceID)
	if err != nil {
		return "", access.NotFoundAs(err, "Site space")
	}
	var sec *store.SiteSection
	if ss.SectionID != nil {
		if sec, err = s.Store.FindSiteSection(ctx, site.ID, *ss.SectionID); err != nil {
			return "", err
		}
	}
	u := *s.structureURL(site, sec, ss)
	if r.DestinationKind != "site-page" {
		return u, nil
	}
	if r.PageID == nil || ss.Space == nil {
		return "", gone
	}
	p, err := s.Store.FindPage(ctx, ss.Space.RevisionID, *r.PageID)
	if err != nil {
		return "", access.NotFoundAs(err, "Page")
	}
	return withPath(u, p.Path), nil
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
