package web

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Who may read a published site, by its visibility:
//
//	public        anyone; indexable (robots.txt, sitemap.xml)
//	unlisted      anyone with the address; pages say noindex
//	share-link    whoever has the share key: ?share=KEY once, then a cookie; else the site is a 404
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
	moved := false
	if q.Has("share") {
		if site.Visibility == "share-link" {
			if !sameSecret(q.Get("share"), site.ShareKey) {
				return notFound()
			}
			s.setWebCookie(c, w, shareCookie(site.ID), site.ShareKey, 30*24*3600)
		}
		q.Del("share")
		moved = true
	}
	if q.Has("jwt_token") {
		tok := q.Get("jwt_token")
		if _, err := s.Access.VisitorClaims(tok); err != nil {
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
		ck, err := req.Cookie(shareCookie(site.ID))
		if err != nil || !sameSecret(ck.Value, site.ShareKey) {
			return notFound()
		}
	}
	if ck, err := req.Cookie(visitorCookie(site.ID)); err == nil {
		if claims, err := s.Access.VisitorClaims(ck.Value); err == nil {
			w.claims = claims
		} else {
			s.setWebCookie(c, w, visitorCookie(site.ID), "", -1)
		}
	}
	if site.Visibility == "visitor-auth" && w.claims == nil {
		return needToken("This site is for signed-in visitors: open it through the link your sign-in gave you (it carries a jwt_token).")
	}
	return false, nil
}

func sameSecret(given, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(given), []byte(want)) == 1
}

// setWebCookie sets (maxAge > 0: for that long; 0: for the session) or clears (maxAge < 0) a
// cookie of the site: HttpOnly, SameSite=Lax, scoped to the site's path, Secure over https.
func (s *Server) setWebCookie(c echo.Context, w *webSite, name, value string, maxAge int) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: w.base + "/", MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: c.Scheme() == "https" || strings.HasPrefix(s.BaseURL, "https:")})
}
