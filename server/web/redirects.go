package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// A path of a published site that is no page: the site's own redirect for it (permanent ones
// answered 308, the others 307), else, when a page of the site space once had that path (moved or
// renamed since), a permanent redirect to where it is now.

// maxRedirectHops bounds how far a chain of redirects through the site's own URLs is followed on
// the server before it is cut (the API refuses chains; a bulk change can still make one).
const maxRedirectHops = 5

// redirectFor answers a redirect for a path of the site that is no page; ok is false when there
// is none to answer.
func (s *Server) redirectFor(c echo.Context, w *webSite, rest string, ss *store.SiteSpace, pagePath string, tree *webTree) (ok bool, err error) {
	ctx := c.Request().Context()
	path := "/" + strings.Trim(rest, "/")
	root := w.site.RootURL(s.BaseURL)
	for hop := 0; hop <= maxRedirectHops; hop++ {
		r, err := s.Store.FindSiteRedirectBySource(ctx, w.site.ID, path)
		if store.ErrorCode(err) == store.ENOTFOUND {
			break
		}
		if err != nil {
			return false, err
		}
		target, err := s.redirectTarget(ctx, w, r.RedirectDestination)
		if err != nil || target == "" {
			return false, err
		}
		if r.CaptureWildcard && r.Source != path {
			prefix := strings.TrimSuffix(strings.TrimSuffix(r.Source, "*"), "/")
			if tail := strings.Trim(strings.TrimPrefix(path, prefix), "/"); tail != "" {
				target = strings.TrimSuffix(target, "/") + "/" + tail
			}
		}
		next, inSite := strings.CutPrefix(target, root+"/")
		if !inSite {
			code := http.StatusTemporaryRedirect
			if r.Permanent {
				code = http.StatusPermanentRedirect
			}
			return true, c.Redirect(code, target)
		}
		path = "/" + strings.Trim(next, "/") // a redirect to another of the site's paths: follow it here
	}
	if tree == nil || pagePath == "" {
		return false, nil
	}
	id, err := s.Store.FindPageFormerlyAt(ctx, ss.Space.RevisionID, pagePath)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if p := tree.all[id]; p != nil && tree.seen[id] && p.Path != pagePath {
		if u, _, ok := tree.openURL(p); ok {
			return true, c.Redirect(http.StatusPermanentRedirect, u)
		}
	}
	return false, nil
}

// redirectTarget is where a destination leads a visitor: an external URL as it is, or the URL on
// this site of a section, variant or page the visitor may read ("" when they may not).
func (s *Server) redirectTarget(ctx context.Context, w *webSite, d store.RedirectDestination) (string, error) {
	if d.DestinationKind == "external" {
		if d.URL == nil {
			return "", nil
		}
		return *d.URL, nil
	}
	for _, ws := range w.sections {
		if d.DestinationKind == "site-section" {
			if ws.sec != nil && d.SiteSectionID != nil && ws.sec.ID == *d.SiteSectionID {
				return ws.url + "/", nil
			}
			continue
		}
		for _, ss := range ws.spaces {
			if d.SiteSpaceID == nil || ss.ID != *d.SiteSpaceID {
				continue
			}
			if d.DestinationKind == "site-space" {
				return ws.variantURL(ss) + "/", nil
			}
			tree, err := s.loadTree(ctx, ss, w.claims, ws.variantURL(ss), false)
			if err != nil || d.PageID == nil {
				return "", err
			}
			if p := tree.all[*d.PageID]; p != nil && tree.seen[p.ID] {
				u, _, _ := tree.openURL(p)
				return u, nil
			}
			return "", nil
		}
	}
	return "", nil
}
