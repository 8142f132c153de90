package web

import (
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// servePage answers a page of the site, or the site's 404 page.
func (s *Server) servePage(c echo.Context, w *webSite, rest string) error {
	ctx := c.Request().Context()
	if len(w.sections) == 0 {
		if ok, err := s.redirectFor(c, w, rest, nil, "", nil); ok || err != nil {
			return err
		}
		return s.notFound(c, w, nil, nil, nil)
	}
	ws, ss, pagePath := w.resolve(rest)
	tree, err := s.loadTree(ctx, ss, w.claims, ws.variantURL(ss), false)
	if err != nil {
		return s.webFail(c, err)
	}
	tree.spaceURL = w.spaceURL
	p := tree.find(pagePath)
	if p == nil {
		// A group's address leads to its first page.
		if g := tree.all["path:"+pagePath]; g != nil && tree.seen[g.ID] && g.Kind() == store.PageGroup {
			if u, _, ok := tree.openURL(g); ok {
				return c.Redirect(http.StatusFound, u)
			}
		}
		if ok, err := s.redirectFor(c, w, rest, ss, pagePath, tree); ok || err != nil {
			return err
		}
		return s.notFound(c, w, ws, ss, tree)
	}
	page, err := s.Store.FindPage(ctx, ss.Space.RevisionID, p.ID)
	if err != nil {
		return s.webFail(c, err)
	}
	v := w.view(ws, ss)
	v.Title, v.Description = p.Title, p.Description
	v.NoIndex = v.NoIndex || p.NoRobotsIndex
	v.Sidebar = tree.sidebar(p)
	links := &webLinks{s: s, ctx: ctx, w: w, ws: ws, ss: ss, tree: tree}
	setCustomLinks(v, w.customView(ss.ID), links.page)
	opts := markdown.HTMLOptions{Options: markdown.Options{SpaceID: ss.Space.ID, PagePath: p.Path, ResolvePage: links.resolvePage},
		Link: links.link, Image: links.image}
	opts.Block = s.pageBlocks(ctx, w.site.OrganizationID, ss.Space.RevisionID, opts)
	body, heads := opts.ToHTML(page.Markdown)
	v.Body = template.HTML(body) // sanitized by ToHTML's policy; its blocks escaped or sanitized by pageBlocks
	v.Outline = heads
	v.Cover = links.cover(page.Cover)
	for i, n := range tree.docs {
		if n.ID != p.ID || !w.customView(ss.ID).Pagination {
			continue
		}
		if i > 0 {
			v.Prev = &webLink{Title: tree.docs[i-1].NavTitle(), URL: tree.pageURL(tree.docs[i-1])}
		}
		if i+1 < len(tree.docs) {
			v.Next = &webLink{Title: tree.docs[i+1].NavTitle(), URL: tree.pageURL(tree.docs[i+1])}
		}
	}
	if w.customView(ss.ID).Feedback {
		v.Feedback = &webFeedback{Action: w.base + "/~feedback", Page: rest, Sent: c.QueryParam("feedback") == "sent"}
	}
	s.recordView(c, w, ss, p.ID, rest)
	return s.sendView(c, w, http.StatusOK, v)
}

// notFound answers the site's 404 page, in the site's look where there is a section to show.
func (s *Server) notFound(c echo.Context, w *webSite, ws *webSection, ss *store.SiteSpace, tree *webTree) error {
	v := w.view(ws, ss)
	v.Title, v.NotFound, v.NoIndex = "Page not found", true, true
	if tree != nil {
		v.Sidebar = tree.sidebar(nil)
	}
	return s.sendView(c, w, http.StatusNotFound, v)
}

// serveWebSite answers every path of a published site.
func (s *Server) serveWebSite(c echo.Context) error {
	siteID := c.Param("siteId")
	rest, err := url.PathUnescape(c.Param("*"))
	if err != nil {
		rest = c.Param("*")
	}
	base := "/s/" + siteID
	if id, _ := c.Request().Context().Value(webMountKey{}).(string); id == siteID {
		base = ""
	}
	if name, ok := strings.CutPrefix(rest, "~assets/"); ok {
		return serveAsset(c, name)
	}
	ctx := c.Request().Context()
	site, err := s.Store.FindSite(ctx, siteID)
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return s.webFail(c, err)
	}
	if site == nil || !site.Published {
		return s.message(c, http.StatusNotFound, webMessage{Title: "Site not found",
			Text: "There is no published site at this address.", StyleURL: base + "/~assets/" + webStyle.name})
	}
	w := &webSite{site: site, base: base, lang: "en"}
	if rest == "~logout" {
		return s.serveLogout(c, w)
	}
	if done, err := s.admit(c, w); done || err != nil {
		return err
	}
	if err := s.loadStructure(ctx, w); err != nil {
		return s.webFail(c, err)
	}
	if err := s.loadCustom(ctx, w); err != nil {
		return s.webFail(c, err)
	}
	if c.Request().Method == http.MethodPost {
		if rest != "~feedback" {
			return echo.ErrMethodNotAllowed
		}
		return s.serveFeedback(c, w)
	}
	switch {
	case rest == "robots.txt":
		return s.serveRobots(c, w)
	case rest == "sitemap.xml":
		return s.serveSitemap(c, w)
	case rest == "~theme.css":
		return s.serveTheme(c, w)
	case rest == "~search":
		return s.serveSearch(c, w)
	case strings.HasPrefix(rest, "~fonts/"):
		return s.serveFont(c, w.site.OrganizationID, strings.TrimPrefix(rest, "~fonts/"))
	case strings.HasPrefix(rest, "~files/"):
		return s.serveSiteFile(c, w, strings.TrimPrefix(rest, "~files/"))
	}
	return s.servePage(c, w, rest)
}

// serveFeedback records a page's rating from its form and leads back to the page.
func (s *Server) serveFeedback(c echo.Context, w *webSite) error {
	// A form posted from another site's page is not this site's reader's.
	if o := c.Request().Header.Get("Origin"); o != "" {
		if u, err := url.Parse(o); err != nil || u.Host != c.Request().Host {
			return s.message(c, http.StatusForbidden, webMessage{Title: "Feedback not sent", Text: "The form was sent from another site.",
				StyleURL: w.base + "/~assets/" + webStyle.name})
		}
	}
	rest, rating := c.FormValue("page"), c.FormValue("rating")
	if rating != "good" && rating != "ok" && rating != "bad" {
		return s.message(c, http.StatusBadRequest, webMessage{Title: "Feedback not sent", Text: "The rating must be good, ok or bad.",
			StyleURL: w.base + "/~assets/" + webStyle.name})
	}
	ctx := c.Request().Context()
	if len(w.sections) == 0 {
		return s.notFound(c, w, nil, nil, nil)
	}
	ws, ss, pagePath := w.resolve(rest)
	tree, err := s.loadTree(ctx, ss, w.claims, ws.variantURL(ss), false)
	if err != nil {
		return s.webFail(c, err)
	}
	p := tree.find(pagePath)
	if p == nil {
		return s.notFound(c, w, ws, ss, tree)
	}
	// The site's customization decides whether its pages gather feedback (off by default).
	if !w.customView(ss.ID).Feedback {
		return s.message(c, http.StatusForbidden, webMessage{Title: "Feedback not sent", Text: "This site does not gather feedback.",
			StyleURL: w.base + "/~assets/" + webStyle.name})
	}
	e := s.siteEvent(c, w, "page_post_feedback", ss, p.ID, rest, map[string]any{"feedback": map[string]any{"rating": rating}})
	e.FeedbackRating = &rating
	if err := s.Store.RecordSiteEvents(ctx, w.site.ID, []*store.SiteEvent{e}); err != nil {
		return s.webFail(c, err)
	}
	return c.Redirect(http.StatusSeeOther, w.base+"/"+(&url.URL{Path: rest}).EscapedPath()+"?feedback=sent")
}
