package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// Who may read a published site, by its visibility:
//
//	public        anyone; indexable (robots.txt, sitemap.xml)
//	unlisted      anyone with the address; pages say noindex
//	share-link    whoever has a key that opens it (the site's, or an active share link's): ?share=KEY
//	              once, then a cookie, checked on every request; else the site is a 404
//	visitor-auth  whoever has a visitor token: ?jwt_token=… once, then a cookie; else a 401 page
//
// A visitor token on any site brings the visitor's claims, which decide adaptive content. Tokens
// are checked as the API checks them (visitorClaims). A key or token given in the URL is moved
// into a cookie and the URL asked again without it, so it stays out of the address bar, history
// and Referer headers.

func shareCookie(siteID string) string   { return "quire_share_" + siteID }
func visitorCookie(siteID string) string { return "quire_visitor_" + siteID }

// admit decides whether the request may read the site and reads the visitor's claims; done is
// true when it has answered (a redirect, a 401, a 404).
func (s *Server) admit(c echo.Context, w *webSite) (done bool, err error) {
	req := c.Request()
	site := w.site
	q := req.URL.Query()
	notFound := func() (bool, error) {
		return true, s.message(c, http.StatusNotFound, webMessage{Title: "Site not found",
			Text: "There is no published site at this address.", StyleURL: w.base + "/~assets/" + webStyle.name})
	}
	needToken := func(text string) (bool, error) {
		return true, s.message(c, http.StatusUnauthorized, webMessage{Title: "Sign-in needed", SiteTitle: site.Title,
			Text: text, StyleURL: w.base + "/~assets/" + webStyle.name})
	}
	notFoundOr := func(err error) (bool, error) {
		if err != nil {
			return true, err
		}
		return notFound()
	}
	moved := false
	if q.Has("share") {
		if site.Visibility == "share-link" {
			key := q.Get("share")
			if ok, err := s.Access.ShareKeyOpens(req.Context(), site, key); err != nil || !ok {
				return notFoundOr(err)
			}
			s.setWebCookie(c, w, shareCookie(site.ID), key, 30*24*3600)
		}
		q.Del("share")
		moved = true
	}
	if q.Has("jwt_token") {
		tok := q.Get("jwt_token")
		if _, err := s.Access.SiteVisitorClaims(req.Context(), site, tok); err != nil {
			if site.Visibility == "visitor-auth" {
				return needToken("The visitor token in the address is not valid (expired or not signed for this server).")
			}
		} else {
			s.setWebCookie(c, w, visitorCookie(site.ID), tok, 0)
		}
		q.Del("jwt_token")
		moved = true
	}
	if moved {
		u := *req.URL
		u.RawQuery = q.Encode()
		u.Path = w.base + "/" + strings.TrimPrefix(c.Param("*"), "/")
		u.RawPath = ""
		c.Response().Header().Set("Cache-Control", "no-store")
		return true, c.Redirect(http.StatusSeeOther, u.RequestURI())
	}
	if site.Visibility == "share-link" {
		// Checked on every request: a share link disabled or deleted stops opening the site.
		ck, err := req.Cookie(shareCookie(site.ID))
		if err != nil {
			return notFound()
		}
		if ok, err := s.Access.ShareKeyOpens(req.Context(), site, ck.Value); err != nil || !ok {
			return notFoundOr(err)
		}
	}
	if ck, err := req.Cookie(visitorCookie(site.ID)); err == nil {
		if claims, err := s.Access.SiteVisitorClaims(req.Context(), site, ck.Value); err == nil {
			w.claims = claims
		} else {
			s.setWebCookie(c, w, visitorCookie(site.ID), "", -1)
		}
	}
	if site.Visibility == "visitor-auth" && w.claims == nil {
		// The site's sign-in, when its settings name one, is where such a visitor goes.
		auth, err := s.Store.SitePublishingAuth(req.Context(), site.ID)
		if err != nil {
			return true, err
		}
		if auth.FallbackURL != nil {
			c.Response().Header().Set("Cache-Control", "no-store")
			return true, c.Redirect(http.StatusFound, withQuery(*auth.FallbackURL, "location", s.BaseURL+req.URL.RequestURI()))
		}
		return needToken("This site is for signed-in visitors: open it through the link your sign-in gave you (it carries a jwt_token).")
	}
	return false, nil
}

// setWebCookie sets (maxAge > 0: for that long; 0: for the session) or clears (maxAge < 0) a
// cookie of the site: HttpOnly, SameSite=Lax, scoped to the site's path, Secure over https.
func (s *Server) setWebCookie(c echo.Context, w *webSite, name, value string, maxAge int) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: w.base + "/", MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: c.Scheme() == "https" || strings.HasPrefix(s.BaseURL, "https:")})
}

// serveLogout signs a visitor out of the site: the visitor cookie goes, and the visitor is sent
// to the site's logout URL when its settings name one, else to the site's root.
func (s *Server) serveLogout(c echo.Context, w *webSite) error {
	s.setWebCookie(c, w, visitorCookie(w.site.ID), "", -1)
	auth, err := s.Store.SitePublishingAuth(c.Request().Context(), w.site.ID)
	if err != nil {
		return s.webFail(c, err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if auth.LogoutURL != nil {
		return c.Redirect(http.StatusFound, *auth.LogoutURL)
	}
	return c.Redirect(http.StatusFound, w.base+"/")
}

// withQuery adds a query parameter to a URL.
func withQuery(raw, name, value string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String()
}
