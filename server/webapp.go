package server

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// The app views (urls.app): members sign in (websession.go) and read organizations, spaces and
// change requests with the roles the API checks. Read-only.

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
	CSRF                      string    // the token of the page's form (sign-in, or sign-out)
	Org                       string    // the organization whose SSO sign-ins the sign-in page lists
	SSO                       []webLink // those sign-ins
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
		sess, id, err := s.appSession(c)
		if err != nil {
			return s.webFail(c, err)
		}
		if sess == nil {
			return c.Redirect(http.StatusSeeOther, "/app/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		}
		u := &sess.User
		req := c.Request()
		c.SetRequest(req.WithContext(access.WithCaller(req.Context(), u)))
		v := &appView{User: u, CSRF: s.formToken("logout", id)}
		err = view(c, v)
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
	role, err := s.Access.MemberRole(ctx, orgID)
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
	roles, err := s.Access.ContentRoles(ctx, orgID)
	if err != nil {
		return err
	}
	for _, sp := range spaces.Items {
		if r, err := roles.Of(ctx, sp.DefaultLevel, sp.ParentID); err != nil || r == "" || r == store.RoleGuest {
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
	sp, _, err := s.Access.FindSpace(ctx, c.Param("spaceId"), store.RoleRead)
	if err != nil {
		return err
	}
	rest, _ := url.PathUnescape(c.Param("*"))
	tree, err := s.loadTree(ctx, &store.SiteSpace{Space: sp}, nil, "/app/s/"+sp.ID, true)
	if err != nil {
		return err
	}
	tree.spaceURL = func(id string) string { return "/app/s/" + id }
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
