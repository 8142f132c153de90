package web

import (
	"html/template"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/internal/sitecustom"
	"github.com/quire-docs/quire/store"
)

// webView is what the site template shows.
type webView struct {
	Lang, Title, SiteTitle, StyleURL, HomeURL, SearchURL, Query string
	Description                                                 string
	LogoutURL                                                   string       // a signed-in visitor's way out (visitors.go)
	Feedback                                                    *webFeedback // the "was this helpful?" form (insights.go)
	NoIndex, NotFound, Search                                   bool
	Tabs, Variants                                              []webTab
	Sidebar                                                     []*webNav
	Body                                                        template.HTML
	Outline                                                     []markdown.Heading
	Prev, Next                                                  *webLink
	Cover                                                       *webCover
	Results                                                     []webLink
	ThemeURL, FaviconURL, Theme, LogoLight, LogoDark, Copyright string // the site's customization
	HeaderLinks                                                 []webCustomLink
	FooterGroups                                                []webFooterGroup
}

// Head is the page's head: its title, stylesheets, favicon and theme.
func (v *webView) Head() webHead {
	h := newWebHead(v.Lang, v.Title+" | "+v.SiteTitle, v.Description, v.NoIndex, v.StyleURL)
	h.ThemeURL, h.FaviconURL, h.Theme = v.ThemeURL, v.FaviconURL, v.Theme
	return h
}

// webCover is a page's cover image as the page shows it: its height in pixels (the pages' CSP
// takes no inline style, so the vertical position is the image's centre).
type webCover struct {
	URL, DarkURL string
	Height       int
}

// view starts a page's view with the site's chrome.
func (w *webSite) view(ws *webSection, ss *store.SiteSpace) *webView {
	v := &webView{Lang: w.lang, SiteTitle: w.site.Title, StyleURL: w.base + "/~assets/" + webStyle.name,
		HomeURL: w.base + "/", SearchURL: w.base + "/~search", NoIndex: w.site.Visibility != "public"}
	if w.site.Visibility == "visitor-auth" && w.claims != nil {
		v.LogoutURL = w.base + "/~logout"
	}
	ssID := ""
	if ss != nil {
		ssID = ss.ID
	}
	cv := w.customView(ssID)
	if cv.Title != "" {
		v.SiteTitle = cv.Title
	}
	v.ThemeURL, v.FaviconURL, v.LogoLight, v.LogoDark, v.Copyright = w.themeURL(ssID, cv), cv.FaviconURL, cv.LogoLight, cv.LogoDark, cv.Copyright
	if cv.Theme == "light" || cv.Theme == "dark" {
		v.Theme = cv.Theme
	}
	setCustomLinks(v, cv, nil)
	if ws != nil {
		// Tabs read in the language of the variant being read.
		lang := w.lang
		if ss != nil && ss.Space.Language != nil && *ss.Space.Language != "" {
			lang = *ss.Space.Language
		}
		v.Tabs = w.tabs(ws, lang)
		v.Variants = ws.variants(ss)
	}
	return v
}

func (s *Server) sendView(c echo.Context, w *webSite, status int, v *webView) error {
	body, err := renderHTML("site.html", v)
	if err != nil {
		return s.webFail(c, err)
	}
	return s.send(c, webReply{status: status, contentType: "text/html; charset=utf-8", body: body,
		public: w.site.Visibility == "public" && w.claims == nil, noindex: v.NoIndex})
}

// webFeedback is the form under a page.
type webFeedback struct {
	Action, Page string
	Sent         bool
}

// setCustomLinks puts the header and footer links of a customization on a view.
func setCustomLinks(v *webView, cv sitecustom.View, resolve pageResolver) {
	v.HeaderLinks, v.FooterGroups = customLinks(cv.HeaderLinks, resolve), nil
	for _, g := range cv.FooterGroups {
		if ls := customLinks(g.Links, resolve); len(ls) > 0 {
			v.FooterGroups = append(v.FooterGroups, webFooterGroup{Title: g.Title, Links: ls})
		}
	}
}
