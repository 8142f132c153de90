package server

import (
	"context"
	"net/url"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// getContentByUrl: an address quire hands out, read back as the content it shows, with the
// caller's own access. App addresses: {base}/app/s/{spaceId}/{page path}, …/change-requests/{n}/{page
// path}, {base}/app/o/{orgId}/c/{collectionId}; published addresses (a site's hostname, or
// {base}/s/{siteId}/…) as resolvePublishedContentByUrl reads them, to the site space's space and
// the page at the path left over.

func (s *Server) GetContentByUrl(ctx context.Context, req gen.GetContentByUrlRequestObject) (gen.GetContentByUrlResponseObject, error) {
	u, err := url.Parse(req.Params.Url)
	if err != nil || u.Host == "" {
		return nil, store.FieldErrorf("url", "is not an absolute URL")
	}
	var out gen.ContentByUrl
	base, err := url.Parse(s.BaseURL)
	if err != nil {
		return nil, err
	}
	rest, inApp := strings.CutPrefix(strings.Trim(u.Path, "/"), strings.Trim(strings.Trim(base.Path, "/")+"/app", "/")+"/")
	if !strings.EqualFold(u.Host, base.Host) || !inApp {
		at, err := s.locatePublished(ctx, req.Params.Url, siteVisitor{})
		if err != nil {
			return nil, err
		}
		if at.redirect != "" {
			return nil, store.Errorf(store.ENOTFOUND, "The site is read at %s.", at.redirect)
		}
		return s.contentAt(ctx, at.siteSpace.Space.ID, "", at.pathname)
	}
	segs := strings.Split(rest, "/")
	switch {
	case len(segs) == 4 && segs[0] == "o" && segs[2] == "c":
		c, role, err := s.Access.FindCollection(ctx, segs[3], store.RoleRead)
		if err != nil {
			return nil, err
		}
		if c.OrganizationID != segs[1] {
			return nil, store.NotFound("Collection")
		}
		col := s.toAPICollection(c, role)
		out.Collection = &col
		return gen.GetContentByUrl200JSONResponse(out), nil
	case len(segs) >= 4 && segs[0] == "s" && segs[2] == "change-requests":
		return s.contentAt(ctx, segs[1], segs[3], strings.Join(segs[4:], "/"))
	case len(segs) >= 2 && segs[0] == "s":
		return s.contentAt(ctx, segs[1], "", strings.Join(segs[2:], "/"))
	}
	return nil, store.Errorf(store.ENOTFOUND, "No content at %s.", req.Params.Url)
}

// contentAt answers a space the caller reads, with a change request (crID "": none) and the page
// at a path of its revision (path "": none).
func (s *Server) contentAt(ctx context.Context, spaceID, crID, path string) (gen.GetContentByUrlResponseObject, error) {
	var out gen.ContentByUrl
	sp, role, err := s.Access.FindSpace(ctx, spaceID, store.RoleRead)
	if err != nil {
		return nil, err
	}
	apiSpace := s.toAPISpace(sp, role)
	out.Space = &apiSpace
	revisionID := sp.RevisionID
	if crID != "" {
		_, cr, err := s.findChangeRequest(ctx, spaceID, crID, store.RoleRead)
		if err != nil {
			return nil, err
		}
		apiCR, err := s.toAPIChangeRequest(cr)
		if err != nil {
			return nil, err
		}
		out.ChangeRequest, revisionID = &apiCR, cr.RevisionID
	}
	if path != "" {
		p, err := s.findPageByPath(ctx, revisionID, path)
		if err != nil {
			return nil, err
		}
		page, err := s.pageResponse(ctx, sp, revisionID, p, nil)
		if err != nil {
			return nil, err
		}
		out.Page = &page
	}
	return gen.GetContentByUrl200JSONResponse(out), nil
}
