package server

import (
	"bytes"
	"context"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/pdf"
	"github.com/quire-docs/quire/store"
)

// PDF export. The API answers a signed link (signedlinks.go), {BaseURL}/pdf/{token}, valid for an
// hour. It names the revision the change request had when the link was made, so the PDF shows the
// content as it was then.

// pdfRoute serves the PDFs getChangeRequestPDF links to.
const pdfRoute = "/pdf/:token"

// pdfLinks are the signed links of PDF exports.
var pdfLinks = linkKind{
	audience: "quire/pdf-links",
	ttl:      time.Hour,
	notFound: "No such PDF link: it is not one quire made.",
	expired:  "This PDF link has expired: links last an hour; ask the API for a new one.",
}

// PDF sizes: pages are loaded pdfBatch at a time, and past pdfMaxMarkdown bytes of markdown the
// remaining pages print their titles only, so one export cannot hold the server's memory.
const (
	pdfBatch       = 50
	pdfMaxMarkdown = 32 << 20
)

// pdfClaims is what a PDF link grants.
type pdfClaims struct {
	Space         string `json:"s"`
	ChangeRequest string `json:"c"`
	Revision      string `json:"r"`
	Page          string `json:"p,omitempty"`
	Only          bool   `json:"o,omitempty"`
	jwt.RegisteredClaims
}

func (c *pdfClaims) registered() *jwt.RegisteredClaims { return &c.RegisteredClaims }

// readPDFLink verifies a token and returns its claims.
func (s *Server) readPDFLink(token string, now time.Time) (*pdfClaims, error) {
	var c pdfClaims
	if err := s.readLink(pdfLinks, token, &c, now); err != nil {
		return nil, err
	}
	if c.Space == "" || c.ChangeRequest == "" || c.Revision == "" {
		return nil, &httpError{http.StatusNotFound, pdfLinks.notFound}
	}
	return &c, nil
}

func (s *Server) GetChangeRequestPDF(ctx context.Context, req gen.GetChangeRequestPDFRequestObject) (gen.GetChangeRequestPDFResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	c := pdfClaims{Space: sp.ID, ChangeRequest: cr.ID, Revision: cr.RevisionID}
	if req.Params.Only != nil {
		c.Only = *req.Params.Only
	}
	if req.Params.Page != nil {
		c.Page = *req.Params.Page
		if _, err := s.Store.FindPage(ctx, cr.RevisionID, c.Page); store.ErrorCode(err) == store.ENOTFOUND {
			return nil, store.FieldErrorf("page", "no page %q in this change request", c.Page)
		} else if err != nil {
			return nil, err
		}
	} else if c.Only {
		return nil, store.FieldErrorf("only", `it needs "page", the page to print alone`)
	}
	token, err := s.signLink(pdfLinks, &c, s.Store.Now())
	if err != nil {
		return nil, err
	}
	return gen.GetChangeRequestPDF200JSONResponse{Url: s.BaseURL + "/pdf/" + token}, nil
}

// servePDF renders the PDF a signed link names.
func (s *Server) servePDF(c echo.Context) error {
	ctx := c.Request().Context()
	claims, err := s.readPDFLink(c.Param("token"), s.Store.Now())
	if err != nil {
		return err
	}
	sp, err := s.Store.FindSpace(ctx, claims.Space)
	if err != nil {
		return err
	}
	if sp.DeletedAt != nil {
		return store.Errorf(store.ENOTFOUND, "Space not found.")
	}
	cr, err := s.Store.FindChangeRequest(ctx, sp.ID, claims.ChangeRequest)
	if err != nil {
		return err
	}
	rev, err := s.Store.FindRevision(ctx, sp.ID, claims.Revision)
	if err != nil {
		return err
	}
	pages, depths := pdfPages(rev.Pages, claims.Page, claims.Only)
	if pages == nil {
		return store.Errorf(store.ENOTFOUND, "Page not found.")
	}

	title := strings.TrimSpace(cr.Subject)
	subtitle := sp.Title + " \u2014 change request #" + strconv.Itoa(cr.Number)
	if title == "" {
		title, subtitle = sp.Title, "Change request #"+strconv.Itoa(cr.Number)
	}
	if title == "" {
		title = "Untitled"
	}
	doc := pdf.New(pdf.Document{Title: title, Subtitle: subtitle, Created: s.Store.Now()})
	budget := pdfMaxMarkdown
	for start := 0; start < len(pages); start += pdfBatch {
		batch := pages[start:min(start+pdfBatch, len(pages))]
		var withBodies []*store.RevisionPage
		if budget > 0 {
			ids := make([]string, len(batch))
			for i, p := range batch {
				ids[i] = p.ID
			}
			if withBodies, err = s.Store.FindPagesWithBodies(ctx, rev.ID, ids); err != nil {
				return err
			}
		}
		bodies := make(map[string]string, len(withBodies))
		for _, p := range withBodies {
			bodies[p.ID] = p.Markdown
		}
		for _, p := range batch {
			md := bodies[p.ID]
			if len(md) > budget {
				md, budget = "*This page is left out: the export has reached its size limit.*", 0
			} else {
				budget -= len(md)
			}
			doc.AddPage(pdf.Page{Title: p.Title, Markdown: md, Depth: depths[p.ID]})
		}
	}
	var buf bytes.Buffer
	if err := doc.Output(&buf); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", contentDisposition(title+".pdf"))
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}

// pdfPages picks the pages to print from a revision's tree (in tree order) with their depth
// below the export's top: all pages, or one page with its subpages, or that page alone (only).
// It answers nil when the page is not in the revision.
func pdfPages(all []*store.RevisionPage, page string, only bool) ([]*store.RevisionPage, map[string]int) {
	pages, depth := pdfTree(all, page, only)
	// A link page has nothing to print (a group prints as the heading of its pages).
	kept := pages[:0]
	for _, p := range pages {
		if p.Kind() != store.PageLink {
			kept = append(kept, p)
		}
	}
	if pages == nil {
		return nil, depth
	}
	return kept, depth
}

func pdfTree(all []*store.RevisionPage, page string, only bool) ([]*store.RevisionPage, map[string]int) {
	depth := make(map[string]int, len(all))
	var out []*store.RevisionPage
	if page == "" {
		for _, p := range all {
			if p.ParentID != nil {
				depth[p.ID] = depth[*p.ParentID] + 1
			}
		}
		return append([]*store.RevisionPage{}, all...), depth
	}
	// In tree order a page's subpages follow it, each after its parent.
	for _, p := range all {
		switch {
		case p.ID == page:
			depth[p.ID] = 0
			out = append(out, p)
		case !only && out != nil && p.ParentID != nil:
			if d, ok := depth[*p.ParentID]; ok {
				depth[p.ID] = d + 1
				out = append(out, p)
			}
		}
	}
	return out, depth
}

// contentDisposition is an inline Content-Disposition with a file name: plain ASCII in
// `filename`, and the name as given in `filename*` when it has other characters.
func contentDisposition(name string) string {
	var ascii strings.Builder
	for _, r := range name {
		switch {
		case r == '"' || r == '\\' || r == '/' || r > unicode.MaxASCII || !unicode.IsPrint(r):
			ascii.WriteByte('_')
		default:
			ascii.WriteRune(r)
		}
	}
	v := `inline; filename="` + ascii.String() + `"`
	if ascii.String() != name {
		if ext := mime.FormatMediaType("inline", map[string]string{"filename": name}); ext != "" {
			v += ext[len("inline"):]
		}
	}
	return v
}
