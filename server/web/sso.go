package web

import (
	"net/url"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

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

// AppSSORefused shows a refused SAML login that started from the app as an app page, with the
// reason (as the API words it), instead of the API's JSON error.
func (s *Server) AppSSORefused(c echo.Context, status int, msg string) error {
	return s.sendApp(c, status, &appView{Kind: "message", Title: "Single sign-on failed",
		Error: "The sign-in was refused (" + msg + ") Nobody was signed in."})
}

// AppReturnPath answers p when it is a path of the app a sign-in may return to.
func (s *Server) AppReturnPath(p string) string { return localAppPath(p) }
