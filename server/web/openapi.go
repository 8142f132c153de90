package web

import (
	"bytes"
	"context"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/internal/openapispec"
	"github.com/quire-docs/quire/store"
)

// OpenAPI specifications on the web: a version's document address answers a browser (one that
// asks for text/html) with a reference page rendered from the document, and a page of a
// published site shows the operations its {% openapi-operation spec="slug" … %} blocks name
// (pageblocks.go hands them over from the markdown renderer).
// Everything comes from the document as data and is escaped by html/template; no script.

// refCache keeps the references of versions already read: versions never change.
var refCache = struct {
	sync.Mutex
	m map[string]refEntry
}{m: map[string]refEntry{}}

type refEntry struct {
	ref *openapispec.Reference
	err error
}

// reference reads a version's document as a reference, once per version.
func reference(v *store.OpenAPISpecVersionContent) (*openapispec.Reference, error) {
	refCache.Lock()
	e, ok := refCache.m[v.ID]
	refCache.Unlock()
	if ok {
		return e.ref, e.err
	}
	e.ref, e.err = openapispec.BuildReference(v.Document)
	refCache.Lock()
	if len(refCache.m) >= 64 {
		refCache.m = map[string]refEntry{}
	}
	refCache.m[v.ID] = e
	refCache.Unlock()
	return e.ref, e.err
}

type openAPIPage struct {
	Title, StyleURL, RawURL, Error string
	NoIndex                        bool
	Ref                            *openapispec.Reference
}

// serveOpenAPIReference answers the reference page of a version.
func (s *Server) ServeOpenAPIReference(c echo.Context, sp *store.OpenAPISpec, doc *store.OpenAPISpecVersionContent) error {
	q := url.Values{"raw": {"1"}}
	if t := c.QueryParam("token"); t != "" {
		q.Set("token", t)
	}
	page := openAPIPage{Title: sp.Slug, StyleURL: "/s/-/~assets/" + webStyle.name, NoIndex: sp.Visibility != "public",
		RawURL: c.Request().URL.Path + "?" + q.Encode(), Ref: &openapispec.Reference{}}
	ref, err := reference(doc)
	if err != nil {
		page.Error = "This document cannot be shown as a reference: " + err.Error()
	} else {
		page.Ref = ref
		if ref.Title != "" {
			page.Title = ref.Title
		}
	}
	body, err := renderHTML("openapi.html", page)
	if err != nil {
		return s.webFail(c, err)
	}
	return s.send(c, webReply{status: http.StatusOK, contentType: "text/html; charset=utf-8", body: body,
		public: sp.Visibility == "public", noindex: page.NoIndex})
}

// openAPIBlockHTML renders an operation block of a page ({% openapi-operation spec="…" path="…"
// method="…" %}, as the markdown parser reads it) as the operation itself; the other OpenAPI
// blocks keep the renderer's label.
func (s *Server) openAPIBlockHTML(ctx context.Context, orgID string, b markdown.Block) ([]byte, bool) {
	if b.Type != "openapi-operation" {
		return nil, false
	}
	return s.openAPIOperationHTML(ctx, orgID, b.Attrs["spec"], b.Attrs["path"], b.Attrs["method"]), true
}

// openAPIOperationHTML renders one operation of an organization's specification, or a notice
// marked broken when the specification, its version or the operation is not there.
func (s *Server) openAPIOperationHTML(ctx context.Context, orgID, slug, path, method string) []byte {
	broken := brokenNote
	sp, err := s.Store.FindOpenAPISpec(ctx, orgID, slug)
	if err != nil || sp.LastVersionID == "" {
		return broken("The OpenAPI specification “" + slug + "” is not available.")
	}
	doc, err := s.Store.FindOpenAPISpecVersionContent(ctx, sp.ID, sp.LastVersionID)
	if err != nil {
		return broken("The OpenAPI specification “" + slug + "” is not available.")
	}
	ref, err := reference(doc)
	if err != nil {
		return broken("The OpenAPI specification “" + slug + "” cannot be read.")
	}
	op := ref.Find(path, method)
	if op == nil {
		return broken("The operation " + strings.ToUpper(method) + " " + path + " is not in the OpenAPI specification “" + slug + "”.")
	}
	var b bytes.Buffer
	b.WriteString(`<div class="openapi-block openapi">`)
	if err := webTemplates.ExecuteTemplate(&b, "openapi-op", op); err != nil {
		return broken("The operation cannot be shown.")
	}
	b.WriteString(`</div>`)
	return b.Bytes()
}

var brokenTemplate = template.Must(template.New("").Parse(`<p class="broken" data-broken>{{.}}</p>`))

// brokenNote is a notice, marked broken, where a block cannot be shown.
func brokenNote(why string) []byte {
	var b bytes.Buffer
	_ = brokenTemplate.Execute(&b, why)
	return b.Bytes()
}
