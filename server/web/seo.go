package web

import (
	"encoding/xml"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// absoluteBase is the site's address with scheme and host: the request's host for a site at its
// own hostname, the base URL otherwise.
func (s *Server) absoluteBase(c echo.Context, w *webSite) string {
	if w.base == "" {
		return c.Scheme() + "://" + c.Request().Host
	}
	return s.BaseURL + w.base
}

// serveRobots answers robots.txt: a public site is open to crawlers and names its sitemap; the
// others ask not to be crawled.
func (s *Server) serveRobots(c echo.Context, w *webSite) error {
	body := "User-agent: *\nDisallow: /\n"
	if w.site.Visibility == "public" {
		body = "User-agent: *\nAllow: /\n\nSitemap: " + s.absoluteBase(c, w) + "/sitemap.xml\n"
	}
	return s.send(c, webReply{status: http.StatusOK, contentType: "text/plain; charset=utf-8", body: []byte(body),
		public: w.site.Visibility == "public"})
}

type sitemapURLSet struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod"`
}

// serveSitemap lists the pages of a public site an anonymous visitor sees in its navigation,
// but those marked noindex, in every section and variant. Other sites have none.
func (s *Server) serveSitemap(c echo.Context, w *webSite) error {
	if w.site.Visibility != "public" {
		return c.NoContent(http.StatusNotFound)
	}
	abs := s.absoluteBase(c, w)
	set := sitemapURLSet{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	for _, ws := range w.sections {
		for _, ss := range ws.spaces {
			tree, err := s.loadTree(c.Request().Context(), ss, w.claims, ws.variantURL(ss), false)
			if err != nil {
				return s.webFail(c, err)
			}
			for _, p := range tree.docs {
				if p.NoRobotsIndex {
					continue
				}
				set.URLs = append(set.URLs, sitemapURL{Loc: abs + strings.TrimPrefix(tree.pageURL(p), w.base),
					LastMod: p.UpdatedAt.UTC().Format("2006-01-02")})
			}
		}
	}
	out, err := xml.MarshalIndent(set, "", "  ")
	if err != nil {
		return s.webFail(c, err)
	}
	return s.send(c, webReply{status: http.StatusOK, contentType: "application/xml; charset=utf-8",
		body: append([]byte(xml.Header), out...), public: w.claims == nil})
}
