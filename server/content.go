package server

import (
	"bytes"
	"context"
	"net/url"
	"strconv"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// The content operations come in two families with the same shapes: the space's current revision
// (/spaces/{id}/content…) and a change request's (/spaces/{id}/change-requests/{cr}/content…). They
// are per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): GetCurrentRevision and
// GetRevisionOfChangeRequestById, ListPages and ListPagesInChangeRequest, GetPageById and
// GetPageInChangeRequestById, GetPageByPath and GetPageInChangeRequestByPath differ only in the
// revision they read (spaceRevision or changeRequestRevision).

var defaultLayout = gen.PageLayout{Width: gen.PageLayoutWidthDefault, Cover: false, CoverSize: gen.Hero, CoverMask: gen.PageCoverMaskNone,
	Title: true, Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true,
	Tags: true, Actions: true, Anchors: true}

// toAPIPage converts a page; with a body it carries markdown or the derived document per format.
func (s *Server) toAPIPage(sp *store.Space, p *store.RevisionPage, format *gen.PageFormat, withBody bool) (gen.RevisionPage, error) {
	return s.toAPIPageIn(sp, p, format, withBody, nil)
}

// pageResolver finds pages of a revision by id or path, for the document's page links written as
// /pages/<path> or relative .md paths (indexed lookups, one per such link).
func (s *Server) pageResolver(ctx context.Context, revisionID string) func(string) (string, bool) {
	return func(idOrPath string) (string, bool) {
		if p, err := s.Store.FindPage(ctx, revisionID, idOrPath); err == nil {
			return p.ID, true
		}
		if p, err := s.Store.FindPageByPath(ctx, revisionID, idOrPath); err == nil {
			return p.ID, true
		}
		return "", false
	}
}

// toAPIPageIn is toAPIPage with a page resolver for the document's links (nil: none).
func (s *Server) toAPIPageIn(sp *store.Space, p *store.RevisionPage, format *gen.PageFormat, withBody bool,
	resolve func(string) (string, bool)) (gen.RevisionPage, error) {
	created, updated := p.CreatedAt, p.UpdatedAt
	out := gen.RevisionPage{
		Id: p.ID, Title: p.Title, Kind: gen.PageKindSheet, Type: gen.PageTypeDocument,
		Slug: p.Slug, Path: p.Path, Emoji: p.Emoji, CreatedAt: &created, UpdatedAt: &updated,
		Pages: []gen.RevisionPage{},
	}
	if p.Hidden {
		h := true
		out.Hidden = &h
	}
	out.Icon, out.Condition, out.LinkTitle = p.Icon, p.Condition, p.LinkTitle
	switch p.Kind() {
	case store.PageGroup:
		out.Kind, out.Type = gen.PageKindGroup, gen.PageTypeGroup
		s.setIndexing(&out, p)
		return out, nil
	case store.PageLink:
		out.Kind, out.Type = gen.PageKindLink, gen.PageTypeLink
		target, err := toAPILinkTarget(p.Target)
		if err != nil {
			return out, err
		}
		out.Target, out.Href = &target, s.linkHref(sp, p.Target, "")
		return out, nil
	}
	layout, tags := defaultLayout, []gen.PageTag{}
	out.Layout, out.Tags, out.Cover = &layout, &tags, toAPICover(p.Cover)
	layout.Cover = p.Cover != nil
	if p.Description != "" {
		d := p.Description
		out.Description = &d
	}
	s.setIndexing(&out, p)
	out.Urls = &struct {
		App string `json:"app"`
	}{App: s.appURL("/s/" + sp.ID + "/" + p.Path)}
	if withBody {
		if format != nil && *format == gen.PageFormatMarkdown {
			md := p.Markdown
			out.Markdown = &md
		} else {
			out.Document = pageDocument(sp, p, resolve)
		}
	}
	if p.BodyID != 0 {
		id := strconv.FormatInt(p.BodyID, 10)
		out.DocumentId = &id
	}
	return out, nil
}

// pageDocument is the rich-text document of a document page, derived from its markdown; resolve
// finds the pages its links name (nil: none).
func pageDocument(sp *store.Space, p *store.RevisionPage, resolve func(string) (string, bool)) *markdown.Document {
	return markdown.Options{SpaceID: sp.ID, PagePath: p.Path, ResolvePage: resolve}.FromMarkdown(p.Markdown)
}

func (s *Server) setIndexing(out *gen.RevisionPage, p *store.RevisionPage) {
	if p.NoIndex {
		out.NoIndex = &p.NoIndex
	}
	if p.NoRobotsIndex {
		out.NoRobotsIndex = &p.NoRobotsIndex
	}
}

// pageTree nests a revision's pages (in tree order) under their parents. A link to a page of the
// same revision gets that page's address as its href.
func (s *Server) pageTree(sp *store.Space, pages []*store.RevisionPage) ([]gen.RevisionPage, error) {
	children := map[string][]*store.RevisionPage{}
	paths := map[string]string{}
	for _, p := range pages {
		key := ""
		if p.ParentID != nil {
			key = *p.ParentID
		}
		children[key] = append(children[key], p)
		paths[p.ID] = p.Path
	}
	var build func(parent string) ([]gen.RevisionPage, error)
	build = func(parent string) ([]gen.RevisionPage, error) {
		out := []gen.RevisionPage{}
		for _, p := range children[parent] {
			ap, err := s.toAPIPage(sp, p, nil, false)
			if err != nil {
				return nil, err
			}
			if t := p.Target; t != nil && t.Kind == store.TargetPage && t.Space == "" {
				if path, ok := paths[t.Page]; ok {
					ap.Href = s.linkHref(sp, t, path)
				}
			}
			if ap.Pages, err = build(p.ID); err != nil {
				return nil, err
			}
			out = append(out, ap)
		}
		return out, nil
	}
	return build("")
}

func (s *Server) revisionResponse(ctx context.Context, sp *store.Space, revisionID string) (gen.Revision, error) {
	rev, err := s.Store.FindRevision(ctx, sp.ID, revisionID)
	if err != nil {
		return gen.Revision{}, err
	}
	return s.toAPIRevision(ctx, sp, rev)
}

// toAPIRevision converts a loaded revision (its files and the change request it merged are read).
func (s *Server) toAPIRevision(ctx context.Context, sp *store.Space, rev *store.Revision) (gen.Revision, error) {
	var err error
	out := gen.Revision{
		Object: gen.RevisionObjectRevision, Id: rev.ID, Type: gen.RevisionType(rev.Type), Parents: rev.Parents,
		Files: []gen.RevisionFile{}, ReusableContents: []gen.ReusableContent{}, Tags: []gen.RevisionTag{}, Variables: map[string]string{},
		CreatedAt: rev.CreatedAt,
	}
	if out.Parents == nil {
		out.Parents = []string{}
	}
	if out.Pages, err = s.pageTree(sp, rev.Pages); err != nil {
		return out, err
	}
	files, err := s.Store.FindAllFiles(ctx, rev.ID)
	if err != nil {
		return out, err
	}
	for _, f := range files {
		out.Files = append(out.Files, s.toAPIFile(f))
	}
	reusable, err := s.Store.FindReusableContents(ctx, rev.ID)
	if err != nil {
		return out, err
	}
	for _, r := range reusable {
		out.ReusableContents = append(out.ReusableContents, gen.ReusableContent{Id: r.ID, Title: r.Title})
	}
	out.Urls.App = s.appURL("/s/" + sp.ID + "/revisions/" + rev.ID)
	if err := s.revisionGit(ctx, rev.ID, &out); err != nil {
		return out, err
	}
	out.MergedFrom, err = s.mergedFrom(ctx, sp, rev)
	return out, err
}

// mergedFrom is the change request a merge revision merged (nil for other revisions).
func (s *Server) mergedFrom(ctx context.Context, sp *store.Space, rev *store.Revision) (*gen.ChangeRequest, error) {
	if rev.ChangeRequestID == nil {
		return nil, nil
	}
	cr, err := s.Store.FindChangeRequest(ctx, sp.ID, *rev.ChangeRequestID)
	if err != nil {
		return nil, err
	}
	from, err := s.toAPIChangeRequest(cr)
	if err != nil {
		return nil, err
	}
	return &from, nil
}

func (s *Server) pagesResponse(ctx context.Context, sp *store.Space, revisionID string) (gen.PageTree, error) {
	rev, err := s.Store.FindRevision(ctx, sp.ID, revisionID)
	if err != nil {
		return gen.PageTree{}, err
	}
	pages, err := s.pageTree(sp, rev.Pages)
	if err != nil {
		return gen.PageTree{}, err
	}
	return gen.PageTree{Pages: pages}, s.pagesGit(ctx, revisionID, pages)
}

// pageResponse answers one page with its body and its subpages.
func (s *Server) pageResponse(ctx context.Context, sp *store.Space, revisionID string, p *store.RevisionPage, format *gen.PageFormat) (gen.RevisionPage, error) {
	out, err := s.toAPIPageIn(sp, p, format, true, s.pageResolver(ctx, revisionID))
	if err != nil {
		return out, err
	}
	if t := p.Target; t != nil && t.Kind == store.TargetPage && t.Space == "" {
		if target, err := s.Store.FindPage(ctx, revisionID, t.Page); err == nil {
			out.Href = s.linkHref(sp, t, target.Path)
		}
	}
	sub, err := s.Store.FindSubpages(ctx, revisionID, p)
	if err != nil {
		return out, err
	}
	// Re-root the subtree at the page so pageTree nests it.
	children := make([]*store.RevisionPage, 0, len(sub))
	for _, q := range sub {
		c := *q
		if *c.ParentID == p.ID {
			c.ParentID = nil
		}
		children = append(children, &c)
	}
	if out.Pages, err = s.pageTree(sp, children); err != nil {
		return out, err
	}
	one := []gen.RevisionPage{out}
	err = s.pagesGit(ctx, revisionID, one)
	return one[0], err
}

// pagePath unescapes a path parameter that may carry its slashes as %2F.
func pagePath(raw string) string {
	if p, err := url.PathUnescape(raw); err == nil {
		return p
	}
	return raw
}

func (s *Server) GetCurrentRevision(ctx context.Context, req gen.GetCurrentRevisionRequestObject) (gen.GetCurrentRevisionResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	out, err := s.revisionResponse(ctx, sp, rev)
	if err != nil {
		return nil, err
	}
	return gen.GetCurrentRevision200JSONResponse(out), nil
}

func (s *Server) GetRevisionOfChangeRequestById(ctx context.Context, req gen.GetRevisionOfChangeRequestByIdRequestObject) (gen.GetRevisionOfChangeRequestByIdResponseObject, error) {
	sp, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.revisionResponse(ctx, sp, rev)
	if err != nil {
		return nil, err
	}
	return gen.GetRevisionOfChangeRequestById200JSONResponse(out), nil
}

func (s *Server) ListPages(ctx context.Context, req gen.ListPagesRequestObject) (gen.ListPagesResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	return s.cachedPageList(ctx, sp, rev)
}

func (s *Server) ListPagesInChangeRequest(ctx context.Context, req gen.ListPagesInChangeRequestRequestObject) (gen.ListPagesInChangeRequestResponseObject, error) {
	sp, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	return s.cachedPageList(ctx, sp, rev)
}

func (s *Server) GetPageById(ctx context.Context, req gen.GetPageByIdRequestObject) (gen.GetPageByIdResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	p, err := s.Store.FindPage(ctx, rev, req.PageId)
	if err != nil {
		return nil, err
	}
	out, err := s.pageResponse(ctx, sp, rev, p, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetPageById200JSONResponse(out), nil
}

func (s *Server) GetPageInChangeRequestById(ctx context.Context, req gen.GetPageInChangeRequestByIdRequestObject) (gen.GetPageInChangeRequestByIdResponseObject, error) {
	sp, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	p, err := s.Store.FindPage(ctx, rev, req.PageId)
	if err != nil {
		return nil, err
	}
	out, err := s.pageResponse(ctx, sp, rev, p, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetPageInChangeRequestById200JSONResponse(out), nil
}

func (s *Server) GetPageByPath(ctx context.Context, req gen.GetPageByPathRequestObject) (gen.GetPageByPathResponseObject, error) {
	sp, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	p, err := s.findPageByPath(ctx, rev, pagePath(req.PagePath))
	if err != nil {
		return nil, err
	}
	out, err := s.pageResponse(ctx, sp, rev, p, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetPageByPath200JSONResponse(out), nil
}

func (s *Server) GetPageInChangeRequestByPath(ctx context.Context, req gen.GetPageInChangeRequestByPathRequestObject) (gen.GetPageInChangeRequestByPathResponseObject, error) {
	sp, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	p, err := s.findPageByPath(ctx, rev, pagePath(req.PagePath))
	if err != nil {
		return nil, err
	}
	out, err := s.pageResponse(ctx, sp, rev, p, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetPageInChangeRequestByPath200JSONResponse(out), nil
}

// findPageByPath finds the page at a path. A link page is at no path: it has no page of its own.
func (s *Server) findPageByPath(ctx context.Context, revisionID, path string) (*store.RevisionPage, error) {
	p, err := s.Store.FindPageByPath(ctx, revisionID, path)
	if err == nil && !p.HasPage() {
		return nil, store.NotFound("Page")
	}
	return p, err
}

// cachedPageList answers the page list of a space's revision from the cache, or builds, keeps
// and answers it.
func (s *Server) cachedPageList(ctx context.Context, sp *store.Space, revisionID string) (encodedPages, error) {
	commit, err := s.Store.FindRevisionCommit(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	key := pageListKey{space: sp.ID, revision: revisionID}
	if commit != nil {
		key.commit = commit.OID
	}
	if body, ok := s.pageLists.get(key); ok {
		return body, nil
	}
	tree, err := s.pagesResponse(ctx, sp, revisionID)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := encodeJSON(&buf, tree); err != nil {
		return nil, err
	}
	s.pageLists.put(key, buf.Bytes())
	return buf.Bytes(), nil
}
