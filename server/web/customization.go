package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/sitecustom"
	"github.com/quire-docs/quire/store"
)

// loadCustom reads a site's customization documents.
func (s *Server) loadCustom(ctx context.Context, w *webSite) error {
	w.custom = webCustom{site: map[string]any{}, spaces: map[string]map[string]any{}}
	c, err := s.Store.FindSiteCustomization(ctx, w.site.ID, "")
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return err
	}
	if c != nil {
		if w.custom.site, err = sitecustom.Decode(c.Settings); err != nil {
			return err
		}
	}
	all, err := s.Store.FindSiteSpaceCustomizations(ctx, w.site.ID)
	if err != nil {
		return err
	}
	for id, c := range all {
		if w.custom.spaces[id], err = sitecustom.Decode(c.Settings); err != nil {
			return err
		}
	}
	w.custom.fonts = map[string]*store.CustomFont{}
	docs := []map[string]any{w.custom.site}
	for _, d := range w.custom.spaces {
		docs = append(docs, d)
	}
	for _, d := range docs {
		id := sitecustom.ViewOf(d).FontID
		if id == "" || w.custom.fonts[id] != nil {
			continue
		}
		f, err := s.Store.FindCustomFont(ctx, w.site.OrganizationID, id)
		if store.ErrorCode(err) == store.ENOTFOUND {
			continue // a font since deleted, or another organization's: quire's own font shows
		}
		if err != nil {
			return err
		}
		w.custom.fonts[id] = f
	}
	return nil
}

// customView is what the pages show of the customization a site space reads in (ssID "": the
// site's own).
func (w *webSite) customView(ssID string) sitecustom.View {
	return sitecustom.ViewOf(sitecustom.Layer(w.custom.site, w.custom.spaces[ssID]))
}

// fontCSSFormats names font formats as CSS's format() does.
var fontCSSFormats = map[string]string{"woff2": "woff2", "woff": "woff", "truetype": "truetype", "opentype": "opentype"}

// cssFamily keeps the characters of a family name a quoted CSS string can hold as they are.
func cssFamily(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '"' || r == '\\' || r == '<' || r == '>' || r < ' ' {
			return -1
		}
		return r
	}, name)
}

// themeCSS is the stylesheet of a site space's look: the primary colour as the custom property
// site.css reads, for the light and the dark theme, and a custom font's faces (served by the site
// itself) as the body's font. "" when the site keeps quire's.
func (w *webSite) themeCSS(v sitecustom.View) string {
	var b strings.Builder
	if v.PrimaryLight != "" {
		fmt.Fprintf(&b, ":root { --primary: %s; }\n"+
			"@media (prefers-color-scheme: dark) { :root:not(.theme-light) { --primary: %s; } }\n"+
			":root.theme-dark { --primary: %s; }\n", v.PrimaryLight, v.PrimaryDark, v.PrimaryDark)
	}
	if f := w.custom.fonts[v.FontID]; f != nil && len(f.Faces) > 0 {
		family := cssFamily(f.Family)
		for _, face := range f.Faces {
			fmt.Fprintf(&b, "@font-face { font-family: \"%s\"; src: url(\"%s/~fonts/%s/%d\") format(\"%s\"); font-weight: %d; font-display: swap; }\n",
				family, w.base, f.ID, face.Weight, fontCSSFormats[face.Format], face.Weight)
		}
		fmt.Fprintf(&b, "body { font-family: \"%s\", system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif; }\n", family)
	}
	return b.String()
}

// themeURL addresses a site space's colour stylesheet, named by its content so a change is
// fetched anew; "" when there is none.
func (w *webSite) themeURL(ssID string, v sitecustom.View) string {
	css := w.themeCSS(v)
	if css == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(css))
	u := w.base + "/~theme.css?v=" + hex.EncodeToString(sum[:6])
	if ssID != "" {
		u += "&ss=" + ssID
	}
	return u
}

// serveTheme answers a site space's colour stylesheet (from 'self', as the pages' CSP wants).
func (s *Server) serveTheme(c echo.Context, w *webSite) error {
	css := w.themeCSS(w.customView(c.QueryParam("ss")))
	if css == "" {
		return c.NoContent(http.StatusNotFound)
	}
	return s.send(c, webReply{status: http.StatusOK, contentType: "text/css; charset=utf-8", body: []byte(css),
		public: w.site.Visibility == "public" && w.claims == nil})
}

// webCustomLink is a header or footer link as the page shows it.
type webCustomLink struct {
	Title, URL string
	External   bool
	Links      []webCustomLink
}

// webFooterGroup is a footer column.
type webFooterGroup struct {
	Title string
	Links []webCustomLink
}

// pageResolver gives the URL of a page of a space ("" the space being read) on the site.
type pageResolver func(space, page string) (string, bool)

// customLinks resolves customization links: web addresses as they are, pages through resolve (a
// page it does not find, or any page without one, is left out).
func customLinks(ls []sitecustom.Link, resolve pageResolver) []webCustomLink {
	var out []webCustomLink
	for _, l := range ls {
		cl := webCustomLink{Title: l.Title, Links: customLinks(l.Links, resolve)}
		switch {
		case l.Kind == "url" && (strings.HasPrefix(l.URL, "https://") || strings.HasPrefix(l.URL, "http://")):
			cl.URL, cl.External = l.URL, true
		case l.Kind == "page" && resolve != nil && l.Page != "":
			if u, ok := resolve(l.Space, l.Page); ok {
				cl.URL = u
			}
		}
		if cl.URL == "" && len(cl.Links) == 0 {
			continue
		}
		out = append(out, cl)
	}
	return out
}

// fontContentTypes are the media types of font formats.
var fontContentTypes = map[string]string{"woff2": "font/woff2", "woff": "font/woff", "truetype": "font/ttf", "opentype": "font/otf"}

// serveFont answers a weight of a custom font, {fontId}/{weight}, of an organization (orgID "":
// any, for quire's own /fonts/ address the API answers).
func (s *Server) serveFont(c echo.Context, orgID, rest string) error {
	id, w, _ := strings.Cut(rest, "/")
	weight, err := strconv.Atoi(w)
	if err != nil || id == "" {
		return c.NoContent(http.StatusNotFound)
	}
	data, format, err := s.Store.FindCustomFontFile(c.Request().Context(), orgID, id, weight)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return c.NoContent(http.StatusNotFound)
	}
	if err != nil {
		return s.webFail(c, err)
	}
	h := c.Response().Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("Access-Control-Allow-Origin", "*")
	return c.Blob(http.StatusOK, fontContentTypes[format], data)
}

// serveOrgFont answers /fonts/{fontId}/{weight}: the address of a font file the API answers.
func (s *Server) serveOrgFont(c echo.Context) error {
	return s.serveFont(c, "", c.Param("fontId")+"/"+c.Param("weight"))
}
