package server

import (
	"context"
	"strconv"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/store"
)

// Revision-pinned reads: the content operations of content.go and files.go for any revision of a
// space, named by id. Revisions are immutable, so these answers never change. Per-operation
// wrappers as there; what is new here is finding the revision (revisionOfSpace), the markdown with
// stable references, a page's document alone, documents by id and semantic changes.

// revisionOfSpace returns the space, for a caller with read, and the id of one of its revisions.
func (s *Server) revisionOfSpace(ctx context.Context, spaceID, revisionID string) (*store.Space, string, error) {
	sp, _, err := s.Access.FindSpace(ctx, spaceID, store.RoleRead)
	if err != nil {
		return nil, "", err
	}
	if _, err := s.Store.FindRevisionHeader(ctx, sp.ID, revisionID); err != nil {
		return nil, "", err
	}
	return sp, revisionID, nil
}

func (s *Server) GetRevisionById(ctx context.Context, req gen.GetRevisionByIdRequestObject) (gen.GetRevisionByIdResponseObject, error) {
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.revisionResponse(ctx, sp, req.RevisionId)
	if err != nil {
		return nil, err
	}
	return gen.GetRevisionById200JSONResponse(out), nil
}

func (s *Server) ListPagesInRevisionById(ctx context.Context, req gen.ListPagesInRevisionByIdRequestObject) (gen.ListPagesInRevisionByIdResponseObject, error) {
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.pagesResponse(ctx, sp, req.RevisionId)
	if err != nil {
		return nil, err
	}
	return streamedPages(out), nil
}

func (s *Server) GetPageInRevisionById(ctx context.Context, req gen.GetPageInRevisionByIdRequestObject) (gen.GetPageInRevisionByIdResponseObject, error) {
	sp, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	p, err := s.Store.FindPage(ctx, rev, req.PageId)
	if err != nil {
		return nil, err
	}
	out, err := s.pinnedPageResponse(ctx, sp, rev, p, req.Params.Format, req.Params.FormatMarkdownRefs)
	if err != nil {
		return nil, err
	}
	return gen.GetPageInRevisionById200JSONResponse(out), nil
}

func (s *Server) GetPageInRevisionByPath(ctx context.Context, req gen.GetPageInRevisionByPathRequestObject) (gen.GetPageInRevisionByPathResponseObject, error) {
	sp, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	p, err := s.findPageByPath(ctx, rev, pagePath(req.PagePath))
	if err != nil {
		return nil, err
	}
	out, err := s.pinnedPageResponse(ctx, sp, rev, p, req.Params.Format, req.Params.FormatMarkdownRefs)
	if err != nil {
		return nil, err
	}
	return gen.GetPageInRevisionByPath200JSONResponse(out), nil
}

// pinnedPageResponse is pageResponse, with the markdown's references made stable when asked.
func (s *Server) pinnedPageResponse(ctx context.Context, sp *store.Space, rev string, p *store.RevisionPage,
	format *gen.PageFormat, refs *gen.PageMarkdownRefs) (gen.RevisionPage, error) {
	out, err := s.pageResponse(ctx, sp, rev, p, format)
	if err != nil || out.Markdown == nil || refs == nil || *refs != gen.Stable {
		return out, err
	}
	md, err := s.stableRefs(ctx, sp, rev, p.Path, *out.Markdown)
	out.Markdown = &md
	return out, err
}

// revisionTargets resolves links against a revision's pages and files, read once.
type revisionTargets struct {
	pages map[string]bool
	paths map[string]string
	files map[string]bool
}

func (r *revisionTargets) HasPage(id string) bool { return r.pages[id] }

func (r *revisionTargets) PathID(path string) (string, bool) {
	id, ok := r.paths[path]
	return id, ok
}

// stableRefs rewrites the links of a page's markdown that name a page or a file of the revision
// (by id, by path, or as a relative .md path) as /pages/<id> or /files/<id>, keeping an anchor.
// Other links (URLs, anchors, what the revision lacks) are left as they are.
func (s *Server) stableRefs(ctx context.Context, sp *store.Space, revisionID, pagePath, md string) (string, error) {
	rev, err := s.Store.FindRevision(ctx, sp.ID, revisionID)
	if err != nil {
		return "", err
	}
	files, err := s.Store.FindAllFiles(ctx, revisionID)
	if err != nil {
		return "", err
	}
	t := &revisionTargets{pages: map[string]bool{}, paths: map[string]string{}, files: map[string]bool{}}
	for _, p := range rev.Pages {
		t.pages[p.ID] = true
		if p.HasPage() {
			t.paths[p.Path] = p.ID
		}
	}
	for _, f := range files {
		t.files[f.ID] = true
	}
	return gitsync.RewriteLinks(md, 1, func(dest string, _ int, _ bool) (string, bool, error) {
		frag := ""
		if i := strings.IndexByte(dest, '#'); i >= 0 {
			frag = dest[i:]
		}
		kind, id, ok := store.ResolveLink(dest, pagePath, t)
		switch {
		case ok && kind == "page" && t.pages[id]:
			return "/pages/" + id + frag, false, nil
		case ok && kind == "file" && t.files[id]:
			return "/files/" + id + frag, false, nil
		}
		return "", true, nil
	})
}

func (s *Server) GetPageDocumentInRevisionById(ctx context.Context, req gen.GetPageDocumentInRevisionByIdRequestObject) (gen.GetPageDocumentInRevisionByIdResponseObject, error) {
	sp, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	p, err := s.Store.FindPage(ctx, rev, req.PageId)
	if err != nil {
		return nil, err
	}
	if p.Kind() != store.PageDocument {
		return nil, store.Errorf(store.ENOTFOUND, "Page %s is a %s page: it has no document.", p.ID, p.Kind())
	}
	return gen.GetPageDocumentInRevisionById200JSONResponse(*pageDocument(sp, p, s.pageResolver(ctx, rev))), nil
}

func (s *Server) GetDocumentById(ctx context.Context, req gen.GetDocumentByIdRequestObject) (gen.GetDocumentByIdResponseObject, error) {
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	id, err := strconv.ParseInt(req.DocumentId, 10, 64)
	if err != nil || id <= 0 {
		return nil, store.NotFound("Document")
	}
	d, err := s.Store.FindDocument(ctx, sp.ID, id)
	if err != nil {
		return nil, err
	}
	// A document is not tied to one revision: its page links resolve in the current one.
	doc := pageDocument(sp, &store.RevisionPage{Path: d.PagePath, Markdown: d.Markdown}, s.pageResolver(ctx, sp.RevisionID))
	return gen.GetDocumentById200JSONResponse(*doc), nil
}

func (s *Server) ListFilesInRevisionById(ctx context.Context, req gen.ListFilesInRevisionByIdRequestObject) (gen.ListFilesInRevisionByIdResponseObject, error) {
	_, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	out, err := s.filesResponse(ctx, rev, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListFilesInRevisionById200JSONResponse(out), nil
}

func (s *Server) GetFileInRevisionById(ctx context.Context, req gen.GetFileInRevisionByIdRequestObject) (gen.GetFileInRevisionByIdResponseObject, error) {
	_, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	f, err := s.Store.FindFile(ctx, rev, req.FileId)
	if err != nil {
		return nil, err
	}
	return gen.GetFileInRevisionById200JSONResponse(s.toAPIFile(f)), nil
}
