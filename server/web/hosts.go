package web

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/store"
)

// hostCache keeps hostname lookups for a few seconds (a missing site too), as the token cache
// does: a request to a hostname then costs no query, and a changed hostname takes effect within
// hostCacheTTL on every node.
type hostCache struct {
	mu      sync.Mutex
	entries map[string]hostEntry
}

type hostEntry struct {
	siteID  string // "": no site has the hostname
	expires time.Time
}

const hostCacheTTL = 5 * time.Second

// mountSiteHosts serves a site at the root of its hostname: a request whose Host is a site's
// hostname is routed as /s/{siteId}/… and remembered as mounted, so the pages link without the
// prefix. The API, health checks and the base URL's own host are never mounted.
func (s *Server) mountSiteHosts(cache *hostCache) echo.MiddlewareFunc {
	baseHost := ""
	if u, err := url.Parse(s.BaseURL); err == nil {
		baseHost = strings.ToLower(u.Hostname())
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			p := req.URL.Path
			if req.Method != http.MethodGet && req.Method != http.MethodHead || strings.HasPrefix(p, "/v1/") || p == "/v1" || p == "/healthz" {
				return next(c)
			}
			host := strings.ToLower(req.Host)
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			if host == "" || host == baseHost || net.ParseIP(host) != nil || !strings.Contains(host, ".") {
				return next(c)
			}
			now := time.Now()
			cache.mu.Lock()
			e, ok := cache.entries[host]
			cache.mu.Unlock()
			if !ok || now.After(e.expires) {
				site, err := s.Store.FindSiteByHostname(req.Context(), host)
				if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
					return err
				}
				e = hostEntry{expires: now.Add(hostCacheTTL)}
				if site != nil {
					e.siteID = site.ID
				}
				cache.mu.Lock()
				if len(cache.entries) > 10000 {
					cache.entries = map[string]hostEntry{}
				}
				cache.entries[host] = e
				cache.mu.Unlock()
			}
			if e.siteID == "" {
				return next(c)
			}
			req.URL.Path = "/s/" + e.siteID + p
			req.URL.RawPath = ""
			c.SetRequest(req.WithContext(context.WithValue(req.Context(), webMountKey{}, e.siteID)))
			return next(c)
		}
	}
}
