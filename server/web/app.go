package web

import (
	"html/template"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// The app views (urls.app): members sign in (sessions.go) and read organizations, spaces and
// change requests with the roles the API checks. Read-only.

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
	Reviewers                 []*store.RequestedReviewer // of the change request: who was asked
	Reviews                   []*store.Review            // of the change request, oldest first
	Diff                      []pageDiff
	Threads                   []appThread
	People                    []webLink           // a space's people: name, and their role on it as Context
	CSRF                      string              // the token of the page's form (sign-in, or sign-out)
	Org                       string              // the organization whose SSO sign-ins the sign-in page lists
	SSO                       []webLink           // those sign-ins
	Git                       *appGit             // a space's git link, its last sync and its error
	Form                      string              // the token of the page's own form (joining with an invitation)
	Events                    []*store.AuditEvent // an organization's audit log, newest first
	More                      string              // the next page of a list ("": none)
	Charts                    []appChart          // a site's views and feedback per page (appinsights.go)

	session string // the session's id, which the page's form tokens are bound to
}

// appGit is what the app shows of a space's git link.
type appGit struct {
	URL, Branch, Dir, Commit string
	State, Direction, When   string
	Error                    string
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
		v := &appView{User: u, CSRF: s.formToken("logout", id), session: id}
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
		return s.webFail(c, err)
	}
}

// pageDiff is one page a change request touches: added, removed, moved or changed, with a line
// diff of its markdown.
type pageDiff struct {
	Title, Path, Kind string
	Lines             []diffLine
}

type diffLine struct {
	Op   string // "+", "-" or " "
	Text string
}
