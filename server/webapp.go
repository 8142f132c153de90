package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/store"
)

// The app views (urls.app): members sign in with their email and an API token, get a session
// cookie (HttpOnly, SameSite=Lax, signed with a key derived from the server's secret; it names the
// user, never the token) and read organizations, spaces and change requests with the roles the
// API checks. Read-only.

const (
	appSessionCookie = "quire_session"
	appSessionTTL    = 12 * time.Hour
)

var appRoutes = []string{"/app", "/app/login", "/app/logout", "/app/o/:orgId", "/app/s/:spaceId", "/app/s/:spaceId/*",
	"/app/s/:spaceId/change-requests/:cr", "/app/s/:spaceId/revisions/:rev", "/app/s/:spaceId/revisions/:rev/*",
	"/app/o/:orgId/c/:collectionId", "/app/o/:orgId/sites/:siteId"}

func (s *Server) registerApp(e *echo.Echo) {
	e.GET("/app", s.appPage(s.appHome))
	e.GET("/app/login", s.appLoginForm)
	e.POST("/app/login", s.appLogin)
	e.POST("/app/logout", s.appLogout)
	e.GET("/app/o/:orgId", s.appPage(s.appOrg))
	e.GET("/app/s/:spaceId", s.appPage(s.appSpace))
	e.GET("/app/s/:spaceId/*", s.appPage(s.appSpace))
	e.GET("/app/s/:spaceId/change-requests/:cr", s.appPage(s.appChangeRequest))
	e.GET("/app/s/:spaceId/revisions/:rev", s.appPage(s.appRevision))
	e.GET("/app/s/:spaceId/revisions/:rev/*", s.appPage(s.appRevision))
	e.GET("/app/o/:orgId/c/:collectionId", s.appPage(s.appCollection))
	e.GET("/app/o/:orgId/sites/:siteId", s.appPage(s.appSite))
}

func (s *Server) appSessionKey() []byte {
	m := hmac.New(sha256.New, s.VisitorSecret)
	m.Write([]byte("quire app session"))
	return m.Sum(nil)
}

// sessionValue is a signed session: user id, email and name, expiry.
func (s *Server) sessionValue(u *store.User, exp time.Time) string {
	enc := base64.RawURLEncoding.EncodeToString
	payload := enc([]byte(u.ID)) + "." + enc([]byte(u.Email)) + "." + enc([]byte(u.DisplayName)) + "." + strconv.FormatInt(exp.Unix(), 10)
	m := hmac.New(sha256.New, s.appSessionKey())
	m.Write([]byte(payload))
	return payload + "." + enc(m.Sum(nil))
}

// sessionUser reads the request's session, nil when there is none or it is not valid.
func (s *Server) sessionUser(c echo.Context) *store.User {
	ck, err := c.Cookie(appSessionCookie)
	if err != nil {
		return nil
	}
	parts := strings.Split(ck.Value, ".")
	if len(parts) != 5 {
		return nil
	}
	payload := strings.Join(parts[:4], ".")
	m := hmac.New(sha256.New, s.appSessionKey())
	m.Write([]byte(payload))
	sig, err := base64.RawURLEncoding.DecodeString(parts[4])
	if err != nil || !hmac.Equal(sig, m.Sum(nil)) {
		return nil
	}
	exp, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil || s.Store.Now().Unix() > exp {
		return nil
	}
	dec := func(x string) string { b, _ := base64.RawURLEncoding.DecodeString(x); return string(b) }
	return &store.User{ID: dec(parts[0]), Email: dec(parts[1]), DisplayName: dec(parts[2])}
}

// appView is what the app template shows.
type appView struct {
	Kind, Title, Error, Email string
	Lead                      string
	Next                      string // where to go after signing in
	User                      *store.User
	Crumbs                    []webLink
	Items                     []webLink
	Sidebar                   []*webNav
	Body                      template.HTML
	CR                        *store.ChangeRequest
	Diff                      []pageDiff
	Threads                   []appThread
}

func (s *Server) sendApp(c echo.Context, status int, v *appView) error {
	body, err := renderHTML("app.html", struct {
		*appView
		StyleURL string
	}{v, assetBase(c) + "/~assets/" + webStyle.name})
	if err != nil {
		return s.webFail(c, err)
	}
	c.Response().Header().Set("X-Frame-Options", "DENY")
	return s.send(c, webReply{status: status, contentType: "text/html; charset=utf-8", body: body, noindex: true})
}

// appPage runs a view for a signed-in member, with the member as the caller (so the API's access
// checks apply); without a session it sends the reader to sign in. A store error becomes a 404
// (not found or not visible), a 403 (role too low) or a failure page.
func (s *Server) appPage(view func(echo.Context, *appView) error) echo.HandlerFunc {
	return func(c echo.Context) error {
		u := s.sessionUser(c)
		if u == nil {
			return c.Redirect(http.StatusSeeOther, "/app/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		}
		req := c.Request()
		c.SetRequest(req.WithContext(context.WithValue(req.Context(), callerKey{}, u)))
		v := &appView{User: u}
		err := view(c, v)
		switch store.ErrorCode(err) {
		case "":
			return err
		case store.ENOTFOUND:
			v.Kind, v.Title = "message", "Not found"
			v.Error = "There is nothing here, or it is not yours to see."
			return s.sendApp(c, http.StatusNotFound, v)
		case store.EFORBIDDEN:
			v.Kind, v.Title, v.Error = "message", "Not allowed", "Your role does not allow this."
			return s.sendApp(c, http.StatusForbidden, v)
		}
		if he, ok := err.(*httpError); ok && he.status < 500 {
			v.Kind, v.Title, v.Error = "message", http.StatusText(he.status), he.message
			return s.sendApp(c, he.status, v)
		}
		return s.webFail(c, err)
	}
}

func (s *Server) appLoginForm(c echo.Context) error {
	return s.sendApp(c, http.StatusOK, &appView{Kind: "login", Title: "Sign in", Next: c.QueryParam("next")})
}

// appLogin checks an email and an API token of that user and starts a session.
func (s *Server) appLogin(c echo.Context) error {
	email, token := strings.TrimSpace(c.FormValue("email")), strings.TrimSpace(c.FormValue("token"))
	u, _, err := s.Store.FindUserByToken(c.Request().Context(), token)
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return s.webFail(c, err)
	}
	if token == "" || u == nil || !strings.EqualFold(u.Email, email) {
		return s.sendApp(c, http.StatusUnauthorized, &appView{Kind: "login", Title: "Sign in", Email: email, Next: c.FormValue("next"),
			Error: "That email and API token do not match."})
	}
	c.SetCookie(&http.Cookie{Name: appSessionCookie, Value: s.sessionValue(u, s.Store.Now().Add(appSessionTTL)), Path: "/app",
		MaxAge: int(appSessionTTL.Seconds()), HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(s.BaseURL, "https:")})
	next := c.FormValue("next")
	if !strings.HasPrefix(next, "/app") || strings.HasPrefix(next, "//") {
		next = "/app"
	}
	return c.Redirect(http.StatusSeeOther, next)
}

func (s *Server) appLogout(c echo.Context) error {
	c.SetCookie(&http.Cookie{Name: appSessionCookie, Value: "", Path: "/app", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, "/app/login")
}

// appHome lists the member's organizations.
func (s *Server) appHome(c echo.Context, v *appView) error {
	list, err := s.Store.FindOrganizationsForUser(c.Request().Context(), v.User.ID, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	v.Kind, v.Title = "list", "Your organizations"
	for _, o := range list.Items {
		v.Items = append(v.Items, webLink{Title: o.Title, URL: "/app/o/" + o.ID})
	}
	return s.sendApp(c, http.StatusOK, v)
}

// appOrg lists an organization's collections and the spaces the member can read.
func (s *Server) appOrg(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	orgID := c.Param("orgId")
	role, err := s.memberRole(ctx, orgID)
	if err != nil {
		return err
	}
	org, err := s.Store.FindOrganizationForMember(ctx, orgID, v.User.ID)
	if err != nil {
		return err
	}
	v.Kind, v.Title = "list", org.Title
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}}
	if role == store.RoleGuest {
		return s.sendApp(c, http.StatusOK, v)
	}
	cols, err := s.Store.FindCollections(ctx, orgID, true, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	for _, col := range cols.Items {
		if col.ParentID == nil {
			v.Items = append(v.Items, webLink{Title: col.Title, URL: "/app/o/" + orgID + "/c/" + col.ID, Context: "collection"})
		}
	}
	spaces, err := s.Store.FindSpaces(ctx, orgID, false, store.Page{Limit: 1000})
	if err != nil {
		return err
	}
	roles, err := s.newContentRoles(ctx, orgID)
	if err != nil {
		return err
	}
	for _, sp := range spaces.Items {
		if r, err := roles.of(ctx, sp.DefaultLevel, sp.ParentID); err != nil || r == "" || r == store.RoleGuest {
			continue
		}
		v.Items = append(v.Items, webLink{Title: sp.Title, URL: "/app/s/" + sp.ID, Context: "space"})
	}
	return s.sendApp(c, http.StatusOK, v)
}

// appSpace shows a space's page tree and one page (the first by default), with its change
// requests.
func (s *Server) appSpace(c echo.Context, v *appView) error {
	ctx := c.Request().Context()
	sp, _, err := s.findSpace(ctx, c.Param("spaceId"), store.RoleRead)
	if err != nil {
		return err
	}
	rest, _ := url.PathUnescape(c.Param("*"))
	tree, err := s.loadTree(ctx, &store.SiteSpace{Space: sp}, nil, "/app/s/"+sp.ID, true)
	if err != nil {
		return err
	}
	v.Kind, v.Title = "space", sp.Title
	v.Crumbs = []webLink{{Title: "Organizations", URL: "/app"}, {Title: "Organization", URL: "/app/o/" + sp.OrganizationID}}
	if p := tree.find(strings.Trim(rest, "/")); p != nil {
		page, err := s.Store.FindPage(ctx, sp.RevisionID, p.ID)
		if err != nil {
			return err
		}
		v.Title = p.Title
		v.Crumbs = append(v.Crumbs, webLink{Title: sp.Title, URL: "/app/s/" + sp.ID})
		v.Sidebar = tree.sidebar(p)
		files, err := s.Store.FindAllFiles(ctx, sp.RevisionID)
		if err != nil {
			return err
		}
		src, place := s.openAPIBlocks(ctx, sp.OrganizationID, page.Markdown)
		body, _ := appLinks(sp, p, tree, files).ToHTML(src)
		if place != nil {
			body = place(body)
		}
		v.Body = template.HTML(body) // sanitized by ToHTML's policy; the operations escaped by their template
		if v.Threads, err = s.threads(ctx, store.CommentScope{SpaceID: sp.ID}, &p.ID); err != nil {
			return err
		}
	} else if rest != "" {
		return store.Errorf(store.ENOTFOUND, "Page not found.")
	}
	var crs []*store.ChangeRequest
	for _, status := range []string{"open", "draft", "merged"} {
		l, err := s.Store.FindChangeRequests(ctx, store.ChangeRequestFilter{SpaceID: sp.ID, Status: status}, store.Page{Limit: 20})
		if err != nil {
			return err
		}
		crs = append(crs, l.Items...)
	}
	for _, cr := range crs {
		v.Items = append(v.Items, webLink{Title: "#" + strconv.Itoa(cr.Number) + " " + cr.Subject,
			URL: "/app/s/" + sp.ID + "/change-requests/" + strconv.Itoa(cr.Number), Context: cr.Status})
	}
	return s.sendApp(c, http.StatusOK, v)
}

// appLinks resolves a page's links inside the app: pages of the space to their app URL (of
// another space, to that space), files to their download URL.
func appLinks(sp *store.Space, p *store.RevisionPage, tree *webTree, files []*store.RevisionFile) markdown.HTMLOptions {
	file := func(id string) (string, bool) {
		for _, f := range files {
			if f.ID == id {
				return "/files/" + f.SHA256 + "/" + url.PathEscape(f.Name), true
			}
		}
		return "", false
	}
	resolve := func(x string) (string, bool) {
		if q := tree.all[x]; q != nil {
			return q.ID, true
		}
		if q := tree.all["path:"+x]; q != nil {
			return q.ID, true
		}
		return "", false
	}
	link := func(r markdown.Ref) (string, bool) {
		switch r.Kind {
		case "url":
			return r.URL, r.URL != ""
		case "file":
			return file(r.File)
		case "page", "anchor":
			if r.Page == "" {
				return "#" + r.Anchor, true
			}
			if r.Space != "" && r.Space != sp.ID {
				return "/app/s/" + url.PathEscape(r.Space), true
			}
			q := tree.all[r.Page]
			if q == nil {
				return "", false
			}
			u := tree.pageURL(q)
			if r.Anchor != "" {
				u += "#" + r.Anchor
			}
			return u, true
		}
		return "", false
	}
	return markdown.HTMLOptions{Options: markdown.Options{SpaceID: sp.ID, PagePath: p.Path, ResolvePage: resolve}, Link: link,
		Image: func(r markdown.Ref) (string, bool) {
			if r.Kind == "file" {
				return file(r.File)
			}
			return r.URL, r.Kind == "url" && r.URL != ""
		}}
}
