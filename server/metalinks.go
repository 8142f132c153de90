package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Meta-links: a page's alternates are the same page in other languages, as quire's translations
// record them (store.FindPageAlternates), in the spaces the caller can read. quire sets no
// canonical link: a page's own address is its canonical one. One wrapper per operation; the
// three differ only in the revision they read.

func (s *Server) metaLinksResponse(ctx context.Context, sp *store.Space, revisionID, pageID string) (gen.RevisionPageMetaLinks, error) {
	out := gen.RevisionPageMetaLinks{Alternates: []gen.RevisionPageMetaLinkTarget{}}
	if _, err := s.Store.FindPage(ctx, revisionID, pageID); err != nil {
		return out, err
	}
	alts, err := s.Store.FindPageAlternates(ctx, sp.OrganizationID, sp.ID, pageID)
	if err != nil {
		return out, err
	}
	// One access check per space: a page has one alternate per language at most, so as many as
	// the translations of its space.
	readable := map[string]bool{}
	for _, a := range alts {
		ok, seen := readable[a.SpaceID]
		if !seen {
			_, _, err := s.Access.FindSpace(ctx, a.SpaceID, store.RoleRead)
			if err != nil && !isHidden(err) {
				return out, err
			}
			ok = err == nil
			readable[a.SpaceID] = ok
		}
		if ok {
			a := a
			out.Alternates = append(out.Alternates, gen.RevisionPageMetaLinkTarget{Kind: gen.RevisionPageMetaLinkKindPage, Page: &a.PageID, Space: &a.SpaceID})
		}
	}
	return out, nil
}

// isHidden reports whether an access error means the caller may not see the resource.
func isHidden(err error) bool {
	c := store.ErrorCode(err)
	return c == store.ENOTFOUND || c == store.EFORBIDDEN
}

func (s *Server) ListSpacePageMetaLinks(ctx context.Context, req gen.ListSpacePageMetaLinksRequestObject) (gen.ListSpacePageMetaLinksResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	out, err := s.metaLinksResponse(ctx, sp, rev, req.PageId)
	if err != nil {
		return nil, err
	}
	return gen.ListSpacePageMetaLinks200JSONResponse(out), nil
}

func (s *Server) ListRevisionPageMetaLinks(ctx context.Context, req gen.ListRevisionPageMetaLinksRequestObject) (gen.ListRevisionPageMetaLinksResponseObject, error) {
	sp, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	out, err := s.metaLinksResponse(ctx, sp, rev, req.PageId)
	if err != nil {
		return nil, err
	}
	return gen.ListRevisionPageMetaLinks200JSONResponse(out), nil
}

func (s *Server) ListChangeRequestPageMetaLinks(ctx context.Context, req gen.ListChangeRequestPageMetaLinksRequestObject) (gen.ListChangeRequestPageMetaLinksResponseObject, error) {
	sp, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.metaLinksResponse(ctx, sp, rev, req.PageId)
	if err != nil {
		return nil, err
	}
	return gen.ListChangeRequestPageMetaLinks200JSONResponse(out), nil
}
