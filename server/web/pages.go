package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
)

// The published web: sites read at {base}/s/{siteId}/… or at their own hostname, rendered on
// the server with html/template, with no script at all (the CSP says so), every asset embedded.

const (
	webSiteRoute     = "/s/:siteId"
	webSitePathRoute = "/s/:siteId/*"
)

//go:embed webassets
var webFiles embed.FS

var webTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"add":  func(a, b int) int { return a + b },
	"head": newWebHead,
}).ParseFS(webFiles, "webassets/*.html"))

// webHead is what the shared "page-head" partial (webassets/layout.html) needs of a page.
type webHead struct {
	Lang, Title, Description, StyleURL string
	NoIndex                            bool
	ThemeURL, FaviconURL, Theme        string // a site's customization (customization.go); "" where it has none
}

func newWebHead(lang, title, description string, noIndex bool, styleURL string) webHead {
	return webHead{Lang: lang, Title: title, Description: description, StyleURL: styleURL, NoIndex: noIndex}
}

// webAsset is an embedded file served under a URL naming its content hash, cached for a year.
type webAsset struct {
	name, contentType string
	body              []byte
}

// webStyle is the sites' stylesheet: the layout and the code highlighting colours.
var webStyle = func() webAsset {
	css, err := webFiles.ReadFile("webassets/site.css")
	if err != nil {
		panic(err)
	}
	css = append(css, markdown.CodeCSS()...)
	sum := sha256.Sum256(css)
	return webAsset{name: "site." + hex.EncodeToString(sum[:6]) + ".css", contentType: "text/css; charset=utf-8", body: css}
}()

// webCSP allows the page its own stylesheet and images (and images from https: and data:
// addresses, as docs embed them), forms to the site itself, and no script at all.
const webCSP = "default-src 'none'; style-src 'self'; font-src 'self'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

type webMountKey struct{}

// webReply is a rendered answer: its status, body and cache policy.
type webReply struct {
	status      int
	contentType string
	body        []byte
	public      bool // cacheable by shared caches (public sites); else private
	noindex     bool
}

// send answers a reply with an ETag (a 304 when the client has it), Cache-Control, the CSP and
// gzip when the client takes it.
func (s *Server) send(c echo.Context, r webReply) error {
	w, req := c.Response(), c.Request()
	h := w.Header()
	sum := sha256.Sum256(r.body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h.Set("Content-Security-Policy", webCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Vary", "Accept-Encoding, Cookie")
	if r.public {
		h.Set("Cache-Control", "public, max-age=60")
	} else {
		h.Set("Cache-Control", "private, no-cache")
	}
	if r.noindex {
		h.Set("X-Robots-Tag", "noindex")
	}
	if r.status == http.StatusOK {
		h.Set("ETag", etag)
		if inm := req.Header.Get("If-None-Match"); inm != "" && etagMatches(inm, etag) {
			w.WriteHeader(http.StatusNotModified)
			return nil
		}
	}
	h.Set("Content-Type", r.contentType)
	body := r.body
	if len(body) > 512 && strings.Contains(req.Header.Get("Accept-Encoding"), "gzip") {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
		_, _ = zw.Write(body)
		_ = zw.Close()
		body = gz.Bytes()
		h.Set("Content-Encoding", "gzip")
	}
	w.WriteHeader(r.status)
	if req.Method == http.MethodHead {
		return nil
	}
	_, err := w.Write(body)
	return err
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// serveAsset answers an embedded asset by its hashed name.
func serveAsset(c echo.Context, name string) error {
	if name != webStyle.name {
		return c.NoContent(http.StatusNotFound)
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, webStyle.contentType, webStyle.body)
}

// renderHTML runs a template into bytes.
func renderHTML(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := webTemplates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// webFail answers an unexpected error as a bare page, logging what went wrong.
func (s *Server) webFail(c echo.Context, err error) error {
	s.Log.ErrorContext(c.Request().Context(), "web page failed", "err", err, "path", c.Request().URL.Path)
	body, rerr := renderHTML("message.html", webMessage{Lang: "en", Title: "Something went wrong",
		Text: "This page could not be shown. Try again in a moment.", StyleURL: assetBase(c) + "/~assets/" + webStyle.name})
	if rerr != nil {
		body = []byte("Internal error.")
	}
	return s.send(c, webReply{status: http.StatusInternalServerError, contentType: "text/html; charset=utf-8", body: body})
}

// assetBase is the path the stylesheet is served under for a request that knows no site: any
// site's prefix serves it, and a site at its own hostname serves it at its root.
func assetBase(c echo.Context) string {
	if _, mounted := c.Request().Context().Value(webMountKey{}).(string); mounted {
		return ""
	}
	return "/s/-"
}

// webMessage is a page that only says something: a site that is not there, a site that needs a
// visitor token.
type webMessage struct {
	Lang, Title, Text, StyleURL string
	SiteTitle, HomeURL          string
}

// message answers a message page with a status.
func (s *Server) message(c echo.Context, status int, m webMessage) error {
	if m.Lang == "" {
		m.Lang = "en"
	}
	body, err := renderHTML("message.html", m)
	if err != nil {
		return s.webFail(c, err)
	}
	return s.send(c, webReply{status: status, contentType: "text/html; charset=utf-8", body: body, noindex: true})
}
