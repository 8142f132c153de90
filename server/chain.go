package server

import "github.com/labstack/echo/v4"

// chainOnce composes the API's middlewares once, at start. Echo applies the middlewares given to
// Use anew for every request: each factory runs again and a closure per middleware is made per
// request, about a tenth of a cached GET's allocations. The composed chain ends by calling the
// request's own handler, c.Handler(), which is what Echo passes as next to the last middleware
// given to Use (the matched route's handler, or the not-found and method-not-allowed ones). So
// the chain must be the only middleware given to Use (Handler gives nothing else; Pre is apart).
// The middlewares must keep no per-request state in their factory, which none does.
func chainOnce(mws ...echo.MiddlewareFunc) echo.MiddlewareFunc {
	h := func(c echo.Context) error { return c.Handler()(c) }
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return func(echo.HandlerFunc) echo.HandlerFunc { return h }
}
