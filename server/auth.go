package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// publicPaths are the API's routes that answer without a token. Routes outside /v1 (health, the
// docs, links that carry their own proof, SAML, and the web pages mounted beside the API, which
// read their own cookies) never take one.
var publicPaths = map[string]bool{"/v1/": true, "/v1": true, "/v1/orgs/:organizationId/sso": true}

// isPublic tells whether a route answers without a token.
func isPublic(route string) bool {
	return publicPaths[route] || route != "" && route != "/v1" && !strings.HasPrefix(route, "/v1/")
}

// bearerToken returns the token of an `Authorization: Bearer` header, or "".
func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return ""
	}
	return strings.TrimSpace(h[7:])
}

// authenticate resolves the bearer token to a user and applies the rate limit (when limiter is
// not nil): per token for an authenticated caller, per connection address for everything else —
// no token, a token that is not valid, the public paths — so inventing tokens buys no budget.
// Every path but the public ones needs a valid token.
func (s *Server) authenticate(cache *tokenCache, limiter *rateLimiter) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			public := isPublic(c.Path())
			token := ""
			if !public {
				token = bearerToken(c.Request())
			}
			var u *store.User
			var key string
			if token != "" && access.LooksLikeSiteToken(token) {
				// A renderer's site token (sitetokens.go): checked by its signature, no lookup.
				ctx, err := s.Access.SiteTokenCaller(c.Request().Context(), token)
				if err != nil {
					return err
				}
				if limiter != nil {
					if err := limiter.take(c, "token:"+string(store.HashToken(token))); err != nil {
						return err
					}
				}
				c.SetRequest(c.Request().WithContext(ctx))
				return next(c)
			}
			if token != "" {
				key = string(store.HashToken(token))
				now := time.Now()
				var ok bool
				if u, ok = cache.get(key, now); !ok {
					var lastUsed time.Time
					var err error
					u, lastUsed, err = s.Store.FindUserByToken(c.Request().Context(), token)
					if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
						return err
					}
					if u != nil && s.Store.Now().Sub(lastUsed) > store.TokenTouchInterval {
						// Losing a last-used time is better than failing the request.
						if err := s.Store.TouchToken(c.Request().Context(), token); err != nil {
							s.Log.WarnContext(c.Request().Context(), "unable to record token use", "err", err)
						}
					}
					cache.put(key, u, now)
				}
			}
			if limiter != nil {
				bucket := "ip:" + c.RealIP()
				if u != nil {
					bucket = "token:" + key
				}
				if err := limiter.take(c, bucket); err != nil {
					return err
				}
			}
			switch {
			case public:
				return next(c)
			case token == "":
				return &httpError{http.StatusUnauthorized, "Authorization header with a Bearer token is required."}
			case u == nil:
				return &httpError{http.StatusUnauthorized, "The token is not valid."}
			}
			req := c.Request()
			c.SetRequest(req.WithContext(access.WithCaller(req.Context(), u)))
			return next(c)
		}
	}
}
