package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
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
	return nil
}

// customView is what the pages show of the customization a site space reads in (ssID "": the
// site's own).
func (w *webSite) customView(ssID string) sitecustom.View {
	return sitecustom.ViewOf(sitecustom.Layer(w.custom.site, w.custom.spaces[ssID]))
}

// themeCSS is the stylesheet of a site space's colours: the primary colour as the custom
// property site.css reads, for the light and the dark theme. "" when the site keeps quire's.
func themeCSS(v sitecustom.View) string {
	if v.PrimaryLight == "" {
		return ""
	}
	return fmt.Sprintf(":root { --primary: %s; }\n"+
		"@media (prefers-color-scheme: dark) { :root:not(.theme-light) { --primary: %s; } }\n"+
		":root.theme-dark { --primary: %s; }\n", v.PrimaryLight, v.PrimaryDark, v.PrimaryDark)
}

// themeURL addresses a site space's colour stylesheet, named by its content so a change is
// fetched anew; "" when there is none.
func (w *webSite) themeURL(ssID string, v sitecustom.View) string {
	css := themeCSS(v)
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
	css := themeCSS(w.customView(c.QueryParam("ss")))
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
