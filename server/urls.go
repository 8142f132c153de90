package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Published addresses, resolved as GitBook's renderer asks (resolvePublishedContentByUrl): the
// site by its hostname or by {base}/s/{siteId}, then its share key (share-link sites), section,
// variant (site space) and the page path left over. What the visitor sees decides: drafts and
// sections or site spaces whose condition fails for the visitor's claims are not there.

// siteAddress is an address split into the site it names and the path segments after the
// site's root.
type siteAddress struct {
	site     *store.Site
	basePath string   // the site's root path on this address, with leading and trailing slashes
	segments []string // the path after it
	query    url.Values
	// viaBase: the address is {base}/s/{id}/… of a site that also has a hostname.
	viaBase bool
}

// findSiteByAddress reads which site an absolute URL is an address of (ENOTFOUND for none).
func (s *Server) findSiteByAddress(ctx context.Context, raw string) (*siteAddress, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, store.FieldErrorf("url", "is not an absolute http(s) URL")
	}
	notFound := store.Errorf(store.ENOTFOUND, "No published content at %s.", raw)
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	addr := &siteAddress{query: u.Query()}
	base, err := url.Parse(s.BaseURL)
	if err != nil {
		return nil, err
	}
	basePrefix := strings.Trim(base.Path, "/")
	if strings.EqualFold(u.Host, base.Host) {
		// {base}/s/{siteId}/…
		if basePrefix != "" {
			n := len(strings.Split(basePrefix, "/"))
			if len(segs) < n || strings.Join(segs[:n], "/") != basePrefix {
				return nil, notFound
			}
			segs = segs[n:]
		}
		if len(segs) < 2 || segs[0] != "s" {
			return nil, notFound
		}
		site, err := s.Store.FindSite(ctx, segs[1])
		if err != nil {
			return nil, access.NotFoundAs(err, "Site")
		}
		addr.site, addr.segments, addr.viaBase = site, segs[2:], site.Hostname != nil && *site.Hostname != ""
		addr.basePath = "/s/" + site.ID + "/"
		if basePrefix != "" {
			addr.basePath = "/" + basePrefix + addr.basePath
		}
	} else {
		site, err := s.Store.FindSiteByHostname(ctx, strings.ToLower(u.Hostname()))
		if err != nil {
			return nil, access.NotFoundAs(err, "Site")
		}
		addr.site, addr.segments, addr.basePath = site, segs, "/"
	}
	if !addr.site.Published {
		return nil, notFound
	}
	return addr, nil
}

// siteVisitor is who reads a site: their claims (from a visitor token, with the unsigned ones
// under "unsigned") and their type.
type siteVisitor struct {
	token    *string
	unsigned map[string]any
	kind     string
	// redirectOnError: a visitor-auth site the visitor cannot open answers its sign-in (the
	// fallback URL of its visitor-auth settings) as a redirect instead of a 403.
	redirectOnError bool
}

// claims checks the visitor's token and returns the claims conditions read (nil: no claims).
func (s *Server) visitorClaimsFor(ctx context.Context, site *store.Site, v siteVisitor) (map[string]any, error) {
	var claims map[string]any
	if v.token != nil && *v.token != "" {
		var err error
		if claims, err = s.Access.SiteVisitorClaims(ctx, site, *v.token); err != nil {
			return nil, &httpError{http.StatusForbidden, fmt.Sprintf("The visitor token is not valid: %v.", errors.Unwrap(err))}
		}
	} else if site.Visibility == "visitor-auth" {
		return nil, &httpError{http.StatusForbidden, "This site needs a visitor token (visitor.jwtToken)."}
	}
	if len(v.unsigned) > 0 {
		if claims == nil {
			claims = map[string]any{}
		}
		claims["unsigned"] = v.unsigned
	}
	return claims, nil
}

// publishedPlace is what an address of a published site shows a visitor.
type publishedPlace struct {
	site      *store.Site
	redirect  string // set: the address lives elsewhere (every other field is empty)
	signIn    bool   // the redirect is the site's sign-in, not content
	section   *store.SiteSection
	siteSpace *store.SiteSpace
	spaces    []string // the spaces of the site the visitor sees
	claims    map[string]any
	shareKey  *string
	// The answer's pathname, basePath, siteBasePath, complete and canonicalUrl.
	pathname, basePath, siteBasePath, canonical string
	complete                                    bool
}

// locatePublished resolves an address of a published site for a visitor.
func (s *Server) locatePublished(ctx context.Context, raw string, v siteVisitor) (*publishedPlace, error) {
	addr, err := s.findSiteByAddress(ctx, raw)
	if err != nil {
		return nil, err
	}
	site := addr.site
	segs := addr.segments
	root := site.RootURL(s.BaseURL) + "/"
	at := &publishedPlace{site: site, basePath: addr.basePath, complete: true}
	if addr.viaBase {
		// The site lives at its hostname: send the visitor there.
		at.redirect = root + strings.Join(segs, "/")
		if q := addr.query.Encode(); q != "" {
			at.redirect += "?" + q
		}
		return at, nil
	}
	if site.Visibility == "share-link" {
		// The key is the first segment (as the renderer sends it), or ?share= (as quire's pages).
		given := addr.query.Get("share")
		if len(segs) > 0 {
			ok, err := s.Access.ShareKeyOpens(ctx, site, segs[0])
			if err != nil {
				return nil, err
			}
			if ok {
				given, segs = segs[0], segs[1:]
				at.basePath += given + "/"
				root += given + "/"
			}
		}
		if ok, err := s.Access.ShareKeyOpens(ctx, site, given); err != nil {
			return nil, err
		} else if !ok {
			return nil, store.Errorf(store.ENOTFOUND, "No published content at %s.", raw)
		}
		at.shareKey = &given
	}
	if at.claims, err = s.visitorClaimsFor(ctx, site, v); err != nil {
		if v.redirectOnError && site.Visibility == "visitor-auth" {
			auth, aerr := s.Store.SitePublishingAuth(ctx, site.ID)
			if aerr != nil {
				return nil, aerr
			}
			if auth.FallbackURL != nil {
				at.redirect, at.signIn = signInURL(*auth.FallbackURL, raw), true
				return at, nil
			}
		}
		return nil, err
	}
	all, err := s.Store.FindSiteStructure(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	seen := access.ForVisitor(all, at.claims)
	at.siteBasePath = at.basePath
	spaces := seen.RootSiteSpaces
	if len(all.Sections) > 0 {
		if len(seen.Sections) == 0 {
			return nil, store.Errorf(store.ENOTFOUND, "The site shows no content to this visitor.")
		}
		at.section, segs = pickByPath(seen.Sections, segs, func(x *store.SiteSection) string { return x.Path })
		if at.section == nil {
			at.section, at.complete = defaultOf(seen.Sections, func(x *store.SiteSection) bool { return x.Default }), len(seen.Sections) == 1
		} else {
			at.basePath += at.section.Path + "/"
		}
		spaces = at.section.SiteSpaces
	}
	var live []*store.SiteSpace
	for _, ss := range spaces {
		if ss.Space != nil && ss.Space.DeletedAt == nil {
			live = append(live, ss)
		}
	}
	if len(live) == 0 {
		return nil, store.Errorf(store.ENOTFOUND, "The site shows no content to this visitor.")
	}
	at.siteSpace, segs = pickByPath(live, segs, func(x *store.SiteSpace) string { return x.Path })
	if at.siteSpace == nil {
		at.siteSpace = defaultOf(live, func(x *store.SiteSpace) bool { return x.Default })
		at.complete = at.complete && len(live) == 1
	} else {
		at.basePath += at.siteSpace.Path + "/"
	}
	at.spaces = visibleSpaceIDs(seen)
	at.pathname = strings.Join(segs, "/")
	at.canonical = root + strings.TrimPrefix(at.basePath, at.siteBasePath) + at.pathname
	return at, nil
}

// resolvePublished answers resolvePublishedContentByUrl: the place, with a site token for it.
func (s *Server) resolvePublished(ctx context.Context, raw string, v siteVisitor) (gen.PublishedSiteContentLookup, error) {
	var out gen.PublishedSiteContentLookup
	at, err := s.locatePublished(ctx, raw, v)
	if err != nil {
		return out, err
	}
	if at.redirect != "" {
		target := gen.Content
		if at.signIn {
			target = gen.Application
		}
		out.Target, out.Redirect = &target, &at.redirect
		return out, nil
	}
	site, ss := at.site, at.siteSpace
	claims := access.SiteToken{Organization: site.OrganizationID, Site: site.ID, SiteSpace: ss.ID, Space: ss.Space.ID,
		Spaces: at.spaces, VisitorType: v.kind, Claims: at.claims}
	if at.section != nil {
		claims.SiteSection = at.section.ID
		out.SiteSection = &at.section.ID
	}
	token, err := s.Access.IssueSiteToken(ctx, claims)
	if err != nil {
		return out, err
	}
	out.Site, out.SiteSpace, out.Space, out.Organization = &site.ID, &ss.ID, &ss.Space.ID, &site.OrganizationID
	out.Pathname, out.BasePath, out.SiteBasePath, out.ApiToken = &at.pathname, &at.basePath, &at.siteBasePath, &token
	out.Complete, out.CanonicalUrl, out.ShareKey = &at.complete, &at.canonical, at.shareKey
	return out, nil
}

// signInURL is a site's sign-in address with the address the visitor asked for as its location
// parameter (where the sign-in sends them back), as quire's own pages send visitors there.
func signInURL(fallback, location string) string {
	u, err := url.Parse(fallback)
	if err != nil {
		return fallback
	}
	q := u.Query()
	q.Set("location", location)
	u.RawQuery = q.Encode()
	return u.String()
}

// pickByPath picks the item the first segment names (nil when it names none) and the segments
// after it.
func pickByPath[T any](items []T, segs []string, path func(T) string) (T, []string) {
	var none T
	if len(segs) == 0 {
		return none, segs
	}
	for _, it := range items {
		if p := path(it); p != "" && p == segs[0] {
			return it, segs[1:]
		}
	}
	return none, segs
}

// defaultOf is the item marked default, else the first.
func defaultOf[T any](items []T, isDefault func(T) bool) T {
	for _, it := range items {
		if isDefault(it) {
			return it
		}
	}
	return items[0]
}

// visibleSpaceIDs are the spaces a visitor reads on a site: those of the site spaces they see.
func visibleSpaceIDs(seen *store.SiteStructure) []string {
	ids := []string{}
	add := func(list []*store.SiteSpace) {
		for _, ss := range list {
			if ss.Space != nil && ss.Space.DeletedAt == nil {
				ids = append(ids, ss.Space.ID)
			}
		}
	}
	add(seen.RootSiteSpaces)
	for _, sec := range seen.Sections {
		add(sec.SiteSpaces)
	}
	return ids
}

func (s *Server) ResolvePublishedContentByUrl(ctx context.Context, req gen.ResolvePublishedContentByUrlRequestObject) (gen.ResolvePublishedContentByUrlResponseObject, error) {
	v := siteVisitor{kind: string(gen.Human), redirectOnError: req.Body.RedirectOnError != nil && *req.Body.RedirectOnError}
	if p := req.Body.Visitor; p != nil {
		v.token = p.JwtToken
		if p.Type != nil {
			v.kind = string(*p.Type)
		}
		if p.UnsignedClaims != nil {
			v.unsigned = *p.UnsignedClaims
		}
	}
	out, err := s.resolvePublished(ctx, req.Body.Url, v)
	if err != nil {
		return nil, err
	}
	return gen.ResolvePublishedContentByUrl200JSONResponse(out), nil
}

func (s *Server) GetPublishedContentByUrl(ctx context.Context, req gen.GetPublishedContentByUrlRequestObject) (gen.GetPublishedContentByUrlResponseObject, error) {
	out, err := s.resolvePublished(ctx, req.Params.Url, siteVisitor{token: req.Params.VisitorAuthToken, kind: string(gen.Human),
		redirectOnError: req.Params.RedirectOnError != nil && *req.Params.RedirectOnError})
	if err != nil {
		return nil, err
	}
	return gen.GetPublishedContentByUrl200JSONResponse(out), nil
}
