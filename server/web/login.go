package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// loginForm answers the sign-in form with a form token, setting the pre-session cookie it is
// derived from when the browser has none yet.
func (s *Server) loginForm(c echo.Context, status int, v *appView) error {
	secret := ""
	if ck, err := c.Cookie(appFormCookie); err == nil && len(ck.Value) == 43 {
		secret = ck.Value
	} else {
		secret = store.NewSessionID()
		s.setAppCookie(c, appFormCookie, secret, int(appFormTTL.Seconds()))
	}
	v.Kind, v.Title, v.CSRF = "login", "Sign in", s.formToken("login", secret)
	v.Next = localAppPath(v.Next)
	if err := s.ssoChoices(c, v); err != nil {
		return err
	}
	return s.sendApp(c, status, v)
}

func (s *Server) appLoginForm(c echo.Context) error {
	return s.loginForm(c, http.StatusOK, &appView{Next: c.QueryParam("next")})
}

// appLogin checks the form token, then an email and an API token of that user, and opens a
// session bound to that token.
func (s *Server) appLogin(c echo.Context) error {
	email, token := strings.TrimSpace(c.FormValue("email")), strings.TrimSpace(c.FormValue("token"))
	v := &appView{Email: email, Next: c.FormValue("next")}
	secret := ""
	if ck, err := c.Cookie(appFormCookie); err == nil {
		secret = ck.Value
	}
	if !s.validFormToken(c, "login", secret) {
		v.Error = "This sign-in form has expired or was not sent from this site's sign-in page: nothing was done. Please sign in again."
		return s.loginForm(c, http.StatusForbidden, v)
	}
	refuse := func() error {
		v.Error = "That email and API token do not match."
		return s.loginForm(c, http.StatusUnauthorized, v)
	}
	if token == "" {
		return refuse()
	}
	u, _, err := s.Store.FindUserByToken(c.Request().Context(), token)
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return s.webFail(c, err)
	}
	if u == nil || u.InstallationID != "" || !strings.EqualFold(u.Email, email) {
		return refuse()
	}
	if err := s.StartAppSession(c, token); store.ErrorCode(err) == store.ENOTFOUND {
		return refuse()
	} else if err != nil {
		return s.webFail(c, err)
	}
	return c.Redirect(http.StatusSeeOther, localAppPath(v.Next))
}

// appLogout ends the session when the form carries its token; without one it is refused (403)
// and the session goes on.
func (s *Server) appLogout(c echo.Context) error {
	sess, id, err := s.appSession(c)
	if err != nil {
		return s.webFail(c, err)
	}
	if sess == nil {
		return c.Redirect(http.StatusSeeOther, "/app/login")
	}
	if !s.validFormToken(c, "logout", id) {
		return s.sendApp(c, http.StatusForbidden, &appView{Kind: "message", Title: "Not signed out", User: &sess.User,
			CSRF:  s.formToken("logout", id),
			Error: "The sign-out request did not come from this site's Sign out button, so you are still signed in. Use the button above to sign out."})
	}
	if err := s.Store.DeleteSession(c.Request().Context(), id); err != nil {
		return s.webFail(c, err)
	}
	s.setAppCookie(c, appSessionCookie, "", -1)
	return c.Redirect(http.StatusSeeOther, "/app/login")
}

// ssoChoices fills the sign-in page's single sign-on part: given an organization's id (?org=),
// a "Sign in with …" link per SAML provider of it, each the provider's start URL with return= the
// page to go to after signing in (the ACS then opens an app session, sessions.go). Anyone may
// list an organization's sign-ins (the API's listSSOProviderLoginsInOrganization is public too);
// an unknown organization lists none, as one without providers does.
func (s *Server) ssoChoices(c echo.Context, v *appView) error {
	org := c.QueryParam("org")
	if org == "" || len(org) > 64 {
		return nil
	}
	v.Org = org
	list, err := s.Store.FindSAMLProviders(c.Request().Context(), org, store.Page{Limit: 100})
	if err != nil {
		return err
	}
	for _, p := range list.Items {
		v.SSO = append(v.SSO, webLink{Title: "Sign in with " + p.Label,
			URL: "/sso/saml/" + url.PathEscape(p.ID) + "/start?return=" + url.QueryEscape(localAppPath(v.Next))})
	}
	return nil
}
