package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// webLinks resolves the links and images of a page to the site's own URLs: a page of the same
// space to its URL in the same variant, a page of another space to its URL where the site
// publishes that space, a file to the site's copy of it. What resolves nowhere is broken. It keeps
// the request's context: it lives only while one page renders, called back by the markdown
// renderer, whose resolver interface takes no context.
type webLinks struct {
	s     *Server
	ctx   context.Context
	w     *webSite
	ws    *webSection
	ss    *store.SiteSpace
	tree  *webTree
	files map[string]bool // the revision's files, read on the first file link
}

func (l *webLinks) resolvePage(idOrPath string) (string, bool) {
	if idOrPath == "." && l.tree.landing != nil { // ../README.md up to the space's root: its first page
		return l.tree.landing.ID, true
	}
	if p := l.tree.all[idOrPath]; p != nil {
		return p.ID, true
	}
	if p := l.tree.all["path:"+idOrPath]; p != nil {
		return p.ID, true
	}
	return "", false
}

func (l *webLinks) link(r markdown.Ref) (string, bool) {
	switch r.Kind {
	case "url":
		return r.URL, r.URL != ""
	case "file":
		return l.file(r.File)
	case "page", "anchor":
		if r.Page == "" {
			return "#" + r.Anchor, true
		}
		u, ok := l.page(r.Space, r.Page)
		if ok && r.Anchor != "" {
			u += "#" + r.Anchor
		}
		return u, ok
	}
	return "", false
}

func (l *webLinks) image(r markdown.Ref) (string, bool) {
	switch r.Kind {
	case "file":
		return l.file(r.File)
	case "url":
		return r.URL, r.URL != ""
	}
	return "", false
}

// cover is how the page shows its cover: the images' addresses (files of the revision as the
// site serves them); nil when it has none or its image is not there.
func (l *webLinks) cover(c *store.PageCover) *webCover {
	if c == nil {
		return nil
	}
	src := func(file, address string) string {
		if file != "" {
			u, _ := l.file(file)
			return u
		}
		return address
	}
	out := &webCover{URL: src(c.File, c.URL), DarkURL: src(c.DarkFile, c.DarkURL), Height: int(c.Height)}
	if out.URL == "" {
		return nil
	}
	if out.Height == 0 {
		out.Height = 240
	}
	return out
}

// page is the URL of a page of this space (space "") or of another space the site publishes.
func (l *webLinks) page(space, id string) (string, bool) {
	if space == "" || space == l.ss.Space.ID {
		p := l.tree.all[id]
		if p == nil || !l.tree.seen[id] {
			return "", false
		}
		return l.tree.pageURL(p), true
	}
	// The same section's variants first, then every section.
	var where *webSection
	var target *store.SiteSpace
	for _, ws := range append([]*webSection{l.ws}, l.w.sections...) {
		for _, ss := range ws.spaces {
			if ss.Space.ID == space {
				where, target = ws, ss
				break
			}
		}
		if target != nil {
			break
		}
	}
	if target == nil {
		return "", false
	}
	p, err := l.s.Store.FindPage(l.ctx, target.Space.RevisionID, id)
	if err != nil {
		return "", false
	}
	return where.variantURL(target) + "/" + p.Path, true
}

func (l *webLinks) file(id string) (string, bool) {
	if l.files == nil {
		l.files = map[string]bool{}
		all, err := l.s.Store.FindAllFiles(l.ctx, l.ss.Space.RevisionID)
		if err == nil {
			for _, f := range all {
				l.files[f.ID] = true
			}
		}
	}
	if !l.files[id] {
		return "", false
	}
	return l.w.base + "/~files/" + l.ss.ID + "/" + id, true
}

// serveSiteFile answers a file of a site space the visitor sees: ~files/{siteSpaceId}/{fileId}.
func (s *Server) serveSiteFile(c echo.Context, w *webSite, rest string) error {
	ssID, fileID, _ := strings.Cut(rest, "/")
	var ss *store.SiteSpace
	for _, ws := range w.sections {
		for _, x := range ws.spaces {
			if x.ID == ssID {
				ss = x
			}
		}
	}
	ctx := c.Request().Context()
	if ss == nil || fileID == "" {
		return c.NoContent(http.StatusNotFound)
	}
	f, err := s.Store.FindFile(ctx, ss.Space.RevisionID, fileID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return c.NoContent(http.StatusNotFound)
	}
	if err != nil {
		return s.webFail(c, err)
	}
	data, contentType, err := s.Store.FindBlob(ctx, f.SHA256, f.Name)
	if err != nil {
		return s.webFail(c, err)
	}
	h := c.Response().Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("ETag", `"`+f.SHA256[:24]+`"`)
	if w.site.Visibility == "public" {
		h.Set("Cache-Control", "public, max-age=3600")
	} else {
		h.Set("Cache-Control", "private, max-age=3600")
	}
	if etagMatches(c.Request().Header.Get("If-None-Match"), `"`+f.SHA256[:24]+`"`) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, contentType, data)
}
