package web

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// A published page's insights, kept by quire itself with no cookie and no third party: a page
// view is recorded when a page is served (GET, not a robot), off the request and bounded, and the
// page's "was this helpful?" form (shown, and its posts taken, when the site's customization turns
// feedback on) posts to ~feedback, which records the rating and leads back.
// The visitor is a keyed hash of the day, the site, the address and the user agent: the same
// reader counts once a day, and nothing names them or outlives the day.

// viewRecorders bounds the page views being written at once; past it, views are not counted.
var viewRecorders = make(chan struct{}, 8)

// webBots are user-agent words of robots, whose reads are not views.
var webBots = []string{"bot", "crawl", "spider", "slurp", "curl", "wget", "python", "go-http-client", "headless", "preview"}

func isRobot(ua string) bool {
	ua = strings.ToLower(ua)
	if ua == "" {
		return true
	}
	for _, b := range webBots {
		if strings.Contains(ua, b) {
			return true
		}
	}
	return false
}

// visitorOf is the request's visitor for the day, without a cookie.
func (s *Server) visitorOf(c echo.Context, w *webSite) string {
	m := hmac.New(sha256.New, s.Secret)
	m.Write([]byte(s.Store.Now().UTC().Format("2006-01-02") + "\x00" + w.site.ID + "\x00" + c.RealIP() + "\x00" + c.Request().UserAgent()))
	return hex.EncodeToString(m.Sum(nil)[:12])
}

// siteEvent is an event of the request on a page of a published site.
func (s *Server) siteEvent(c echo.Context, w *webSite, typ string, ss *store.SiteSpace, pageID, rest string, extra map[string]any) *store.SiteEvent {
	visitor := s.visitorOf(c, w)
	path := w.base + "/" + (&url.URL{Path: rest}).EscapedPath()
	u := s.BaseURL + path
	ev := map[string]any{"type": typ, "session": map[string]any{"sessionId": visitor, "visitorId": visitor},
		"location": map[string]any{"url": u, "space": ss.Space.ID, "siteSpace": ss.ID, "page": pageID}}
	for k, v := range extra {
		ev[k] = v
	}
	payload, _ := json.Marshal(ev)
	return &store.SiteEvent{Type: typ, SessionID: visitor, VisitorID: visitor, SpaceID: &ss.Space.ID, PageID: &pageID,
		URL: &u, URLPath: &path, SiteSpaceID: &ss.ID, Payload: payload}
}

// recordView counts a served page, off the request: a HEAD, a robot, or more views being
// written than viewRecorders holds are not counted.
func (s *Server) recordView(c echo.Context, w *webSite, ss *store.SiteSpace, pageID, rest string) {
	if c.Request().Method != http.MethodGet || isRobot(c.Request().UserAgent()) {
		return
	}
	e := s.siteEvent(c, w, "page_view", ss, pageID, rest, nil)
	select {
	case viewRecorders <- struct{}{}:
	default:
		return
	}
	go func() {
		defer func() { <-viewRecorders }()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Store.RecordSiteEvents(ctx, w.site.ID, []*store.SiteEvent{e}); err != nil {
			s.Log.Warn("page view not recorded", "site", w.site.ID, "error", err)
		}
	}()
}
