package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/openapispec"
	"github.com/quire-docs/quire/store"
)

// OpenAPI specifications on the web: a version's document address answers a browser (one that
// asks for text/html) with a reference page rendered from the document, and a page of a
// published site shows the operations its {% openapi-operation spec="slug" … %} blocks name.
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

// openAPIBlock is an operation block of a page: {% openapi-operation spec="…" path="…"
// method="…" %} … {% endopenapi-operation %} (the closing tag optional), or the older
// {% openapi … %} form with a spec attribute.
var openAPIBlock = regexp.MustCompile(`(?s)\{%\s*openapi(?:-operation)?\s([^%]*?)%\}(?:.*?\{%\s*endopenapi(?:-operation)?\s*%\})?`)

var blockAttr = regexp.MustCompile(`([a-zA-Z]+)\s*=\s*"([^"]*)"`)

// openAPIBlocks replaces a page's operation blocks by placeholders that render as paragraphs of
// their own, and answers a function putting each operation's HTML in place of its placeholder.
func (s *Server) openAPIBlocks(ctx context.Context, orgID, markdownText string) (string, func([]byte) []byte) {
	if !strings.Contains(markdownText, "{%") {
		return markdownText, nil
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	mark := "quireopenapi" + hex.EncodeToString(nonce[:]) + "x"
	var blocks [][]byte
	out := openAPIBlock.ReplaceAllStringFunc(markdownText, func(m string) string {
		attrs := map[string]string{}
		for _, a := range blockAttr.FindAllStringSubmatch(openAPIBlock.FindStringSubmatch(m)[1], -1) {
			attrs[strings.ToLower(a[1])] = a[2]
		}
		if attrs["spec"] == "" {
			return m
		}
		blocks = append(blocks, s.openAPIOperationHTML(ctx, orgID, attrs["spec"], attrs["path"], attrs["method"]))
		return "\n\n" + mark + strconv.Itoa(len(blocks)-1) + "\n\n"
	})
	if len(blocks) == 0 {
		return markdownText, nil
	}
	return out, func(html []byte) []byte {
		for i, b := range blocks {
			html = bytes.Replace(html, []byte("<p>"+mark+strconv.Itoa(i)+"</p>"), b, 1)
		}
		return html
	}
}

// openAPIOperationHTML renders one operation of an organization's specification, or a notice
// marked broken when the specification, its version or the operation is not there.
func (s *Server) openAPIOperationHTML(ctx context.Context, orgID, slug, path, method string) []byte {
	broken := func(why string) []byte {
		var b bytes.Buffer
		_ = template.Must(template.New("").Parse(`<p class="broken" data-broken>{{.}}</p>`)).Execute(&b, why)
		return b.Bytes()
	}
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
