package web

import (
	"github.com/labstack/echo/v4"
)

// AppSSORefused shows a refused SAML login that started from the app as an app page, with the
// reason (as the API words it), instead of the API's JSON error.
func (s *Server) AppSSORefused(c echo.Context, status int, msg string) error {
	return s.sendApp(c, status, &appView{Kind: "message", Title: "Single sign-on failed",
		Error: "The sign-in was refused (" + msg + ") Nobody was signed in."})
}

// AppReturnPath answers p when it is a path of the app a sign-in may return to.
func (s *Server) AppReturnPath(p string) string { return localAppPath(p) }
