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
