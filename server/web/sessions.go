package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// Sessions of the app views. Signing in (an email and an API token, or SAML) opens a session row
// in the store, bound to the API token it signed in with; the cookie holds only the session's
// random id (the store keeps its SHA-256). Every app request reads the row (one primary-key
// read), so signing out, revoking the token or deleting the user ends the session at once, on
// every node.
//
// The forms that change state carry a token that a page of another site cannot know:
//   - sign-in: an HMAC of a random pre-session cookie (quire_form) the sign-in page sets;
//   - sign-out: an HMAC of the session's id.
//
// A POST without the right token is refused with 403 and changes nothing.

const (
	appSessionCookie = "quire_session"
	appFormCookie    = "quire_form"
	appSessionTTL    = 12 * time.Hour
	appFormTTL       = 24 * time.Hour
)

func (s *Server) formKey() []byte {
	m := hmac.New(sha256.New, s.Secret)
	m.Write([]byte("quire app form"))
	return m.Sum(nil)
}

// formToken is the token a form for purpose carries, derived from a secret of the browser's
// (the pre-session cookie, the session id).
func (s *Server) formToken(purpose, secret string) string {
	m := hmac.New(sha256.New, s.formKey())
	m.Write([]byte(purpose + "\x00" + secret))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (s *Server) validFormToken(c echo.Context, purpose, secret string) bool {
	given := c.FormValue("csrf")
	return secret != "" && given != "" && hmac.Equal([]byte(given), []byte(s.formToken(purpose, secret)))
}

func (s *Server) secureCookies(c echo.Context) bool {
	return c.Scheme() == "https" || strings.HasPrefix(s.BaseURL, "https:")
}

// setAppCookie sets (maxAge > 0) or clears (maxAge < 0) a cookie of the app: HttpOnly, SameSite=Lax
// (the redirect back from an identity provider is a cross-site navigation), scoped to /app.
func (s *Server) setAppCookie(c echo.Context, name, value string, maxAge int) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/app", MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(c)})
}

// appSession reads the request's session: nil (and no error) when there is none or it ended.
func (s *Server) appSession(c echo.Context) (*store.Session, string, error) {
	ck, err := c.Cookie(appSessionCookie)
	if err != nil || ck.Value == "" {
		return nil, "", nil
	}
	sess, err := s.Store.FindSession(c.Request().Context(), ck.Value)
	if store.ErrorCode(err) == store.ENOTFOUND {
		s.setAppCookie(c, appSessionCookie, "", -1)
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	return sess, ck.Value, nil
}

// startAppSession opens a session for the user of an API token and sets its cookie; ENOTFOUND
// when the token is not a user's.
func (s *Server) StartAppSession(c echo.Context, token string) error {
	id, _, err := s.Store.CreateSession(c.Request().Context(), token, appSessionTTL)
	if err != nil {
		return err
	}
	s.setAppCookie(c, appSessionCookie, id, int(appSessionTTL.Seconds()))
	return nil
}

// localAppPath is where to go after signing in: a path of the app, else the app's home.
func localAppPath(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(next, "/app") ||
		(len(next) > 4 && next[4] != '/' && next[4] != '?') || strings.ContainsAny(next, "\\\r\n") {
		return "/app"
	}
	return next
}

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
