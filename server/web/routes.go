package web

import "github.com/labstack/echo/v4"

// Register adds the web's routes (published sites, the app, quire's API reference at /docs) and
// the host mounting of sites with a hostname.
func (s *Server) Register(e *echo.Echo) {
	docs := &docsPage{}
	e.GET("/docs", docs.serveHTML)
	e.GET("/docs/:asset", docs.serveAsset)
	e.GET("/fonts/:fontId/:weight", s.serveOrgFont)
	e.Pre(s.mountSiteHosts(&hostCache{entries: map[string]hostEntry{}}))
	e.GET(webSiteRoute, s.serveWebSite)
	e.GET(webSitePathRoute, s.serveWebSite)
	e.HEAD(webSiteRoute, s.serveWebSite)
	e.HEAD(webSitePathRoute, s.serveWebSite)
	e.POST(webSitePathRoute, s.serveWebSite) // only ~feedback takes a POST
	s.registerApp(e)
}

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
	e.GET("/app/o/:orgId/invites/:inviteId", s.appPage(s.appInvite))
	e.POST("/app/o/:orgId/invites/:inviteId", s.appPage(s.appJoin))
	e.GET("/app/o/:orgId/audit", s.appPage(s.appAudit))
}
