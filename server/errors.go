package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// statusOf maps the store's error codes to HTTP statuses: the one table of it.
var statusOf = map[string]int{
	store.ENOTFOUND:  http.StatusNotFound,
	store.ECONFLICT:  http.StatusConflict,
	store.EINVALID:   http.StatusBadRequest,
	store.EFORBIDDEN: http.StatusForbidden,
}

// httpError is an error answered with a given status and message (the middleware's own failures:
// 400 validation, 401, 413, 429).
type httpError struct {
	status  int
	message string
}

func (e *httpError) Error() string { return e.message }

func badRequest(msg string) error { return &httpError{http.StatusBadRequest, msg} }
func forbidden(msg string) error  { return store.Errorf(store.EFORBIDDEN, "%s", msg) }

// handleError writes every error the API answers in the one wire shape. Errors that are not the
// caller's to see are logged and answered "Internal error.".
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, msg := http.StatusInternalServerError, "Internal error."
	var he *httpError
	var ee *echo.HTTPError
	var se *store.Error
	switch {
	case errors.As(err, &he):
		status, msg = he.status, he.message
	case errors.As(err, &se):
		if st, ok := statusOf[se.Code]; ok {
			status, msg = st, se.Message
		}
	case errors.As(err, &ee):
		status = ee.Code
		switch ee.Code {
		case http.StatusNotFound:
			msg = "No such API path."
		case http.StatusMethodNotAllowed:
			msg = "Method not allowed on this path."
		case http.StatusRequestEntityTooLarge:
			msg = "Request body too large."
		default:
			if m, ok := ee.Message.(string); ok && ee.Code < 500 {
				msg = m
			} else if ee.Code >= 500 {
				status = http.StatusInternalServerError
			}
		}
	}
	if status == http.StatusInternalServerError && databaseUnavailable(err) {
		status, msg = http.StatusServiceUnavailable, "The database is unavailable; try again shortly."
	}
	if status >= http.StatusInternalServerError {
		s.Log.ErrorContext(c.Request().Context(), "internal error", "method", c.Request().Method, "path", c.Path(), "err", err)
	}
	var body gen.Error
	body.Error.Code = status
	body.Error.Message = msg
	if c.Request().Method == http.MethodHead {
		c.NoContent(status)
		return
	}
	c.JSON(status, body)
}
