package web

import (
	"bytes"
	"context"

	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// The blocks of a page that the web renders itself, handed over by the markdown renderer: an
// OpenAPI operation (openapi.go), and a reusable content, rendered inline as the page's revision
// holds it, with the page's links and images, sanitized as any page is. A reusable content the
// revision does not hold shows a note, never an error; one included inside another is not
// rendered again (GitBook does not nest them).

// pageBlocks is the Block hook of a page of a revision of a space of an organization; opts are the
// page's own rendering options, which a reusable content is rendered with.
func (s *Server) pageBlocks(ctx context.Context, orgID, revisionID string, opts markdown.HTMLOptions) func(markdown.Block) ([]byte, bool) {
	openAPI := func(b markdown.Block) ([]byte, bool) { return s.openAPIBlockHTML(ctx, orgID, b) }
	var all []*store.ReusableContent // read once, for includes by path
	return func(b markdown.Block) ([]byte, bool) {
		if b.Type != "reusable-content" {
			return openAPI(b)
		}
		var r *store.ReusableContent
		var err error
		if _, byPath := store.IncludeSlug(b.Include); byPath {
			if all == nil {
				all, err = s.Store.FindReusableContents(ctx, revisionID)
			}
			if err == nil {
				r, err = store.ResolveInclude(b.Include, all)
			}
		} else if r, err = s.Store.FindReusableContent(ctx, revisionID, b.Include); store.ErrorCode(err) == store.ENOTFOUND {
			r, err = nil, nil
		}
		if err != nil && store.ErrorCode(err) != store.EINVALID {
			s.Log.ErrorContext(ctx, "reusable content not read", "err", err, "include", b.Include)
		}
		if r == nil {
			return brokenNote("This reusable content is not available."), true
		}
		inner := opts
		inner.Block = openAPI // no reusable content inside another
		body, _ := inner.ToHTML(r.Markdown)
		var out bytes.Buffer
		out.WriteString(`<div class="reusable-content">`)
		out.Write(body) // sanitized by ToHTML's policy
		out.WriteString("</div>\n")
		return out.Bytes(), true
	}
}
