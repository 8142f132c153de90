package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/labstack/echo/v4"
)

// A panic in a handler is a bug: recoverPanics answers it as a 500 in the API's error shape, logs
// it at error level with the route and the goroutine's stack (message "panic"), and counts it in
// quire_http_panics_total when metrics are on. The test suites fail on any such line: the server
// tests' harness reads its log, the compat suite and the node tests read the server's output.
func (s *Server) recoverPanics(m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				if v == http.ErrAbortHandler { // net/http's way to abort a response: not a bug
					panic(v)
				}
				route := c.Path()
				if route == "" {
					route = "unmatched"
				}
				s.Log.LogAttrs(c.Request().Context(), slog.LevelError, "panic",
					slog.String("method", c.Request().Method), slog.String("route", route),
					slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
				if m != nil {
					m.panics.WithLabelValues(route).Inc()
				}
				err = fmt.Errorf("panic: %v", v)
			}()
			return next(c)
		}
	}
}
