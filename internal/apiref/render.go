package apiref

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"net/http"
	"strings"
)

//go:embed assets
var assets embed.FS

var page = template.Must(template.ParseFS(assets, "assets/page.html"))

// Page is a rendered reference and its stylesheet, ready to serve.
type Page struct {
	html, htmlGzip, css []byte
	etag, StyleURL      string
}

// Render renders a reference. styleBase is the URL path the stylesheet is served under (the page
// links to styleBase + "style.<hash>.css"); specURL is where the raw document is.
func Render(ref Reference, styleBase, specURL string) (*Page, error) {
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(css)
	p := &Page{css: css, StyleURL: styleBase + "style." + hex.EncodeToString(sum[:6]) + ".css"}
	var buf bytes.Buffer
	if err := page.Execute(&buf, map[string]any{"Ref": ref, "StyleURL": p.StyleURL, "SpecURL": specURL}); err != nil {
		return nil, err
	}
	p.html = buf.Bytes()
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(p.html)
	w.Close()
	p.htmlGzip = gz.Bytes()
	hsum := sha256.Sum256(p.html)
	p.etag = `"` + hex.EncodeToString(hsum[:8]) + `"`
	return p, nil
}

// ContentSecurityPolicy allows the page its own stylesheet and nothing else: no script at all.
const ContentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// ServeHTML answers the page (gzipped when the client takes it), with an ETag.
func (p *Page) ServeHTML(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("ETag", p.etag)
	h.Set("Vary", "Accept-Encoding")
	if r.Header.Get("If-None-Match") == p.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	body := p.html
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = p.htmlGzip
	}
	w.Write(body)
}

// ServeStyle answers the stylesheet; its URL names its hash, so it is cached for a year.
func (p *Page) ServeStyle(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/css; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(p.css)
}
