package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// statusOf maps the store's error codes to HTTP statuses: the one table of it.
var statusOf = map[string]int{
	store.ENOTFOUND:  http.StatusNotFound,
	store.ECONFLICT:  http.StatusConflict,
	store.EINVALID:   http.StatusBadRequest,
	store.EFORBIDDEN: http.StatusForbidden,
}

// httpError is an error answered with a status the store's codes do not cover (401, 410, 413,
// 429) and its message.
type httpError struct {
	status  int
	message string
}

func (e *httpError) Error() string { return e.message }

// badRequest is a 400 about the request as a whole; an error about one field is a
// store.FieldErrorf, worded by apiError like the store's.
func badRequest(msg string) error { return store.Errorf(store.EINVALID, "%s", msg) }
func forbidden(msg string) error  { return store.Errorf(store.EFORBIDDEN, "%s", msg) }

// handleError writes every error the API answers in the one wire shape, as apiError words it
// (a 400 is a 412 on the routes of refusedDataRoutes).
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, msg := apiError(c.Request(), err)
	if status == http.StatusBadRequest && s.refusedData[c.Request().Method+" "+c.Path()] {
		status = http.StatusPreconditionFailed
	}
	if status == http.StatusInternalServerError && s.Store.Unavailable(err) {
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

// apiError is the one place an error is worded for the API: the status and message answered for
// it. A store error (the server's own 400, 403 and 404 are store errors too) answers the status of
// its code and its reason; one about a field names the field the way request validation does, as
// a query parameter when the request's query carries it, else as a body field (a content batch's
// change keeps its own form). Errors that are
// not the caller's to see answer 500 "Internal error.".
func apiError(r *http.Request, err error) (int, string) {
	var he *httpError
	var ee *echo.HTTPError
	var se *store.Error
	var ue *access.Unauthenticated
	switch {
	case errors.As(err, &he):
		return he.status, he.message
	case errors.As(err, &ue):
		return http.StatusUnauthorized, ue.Reason
	case errors.As(err, &se):
		status, ok := statusOf[se.Code]
		if !ok {
			break
		}
		if se.Field == "" {
			return status, se.Reason
		}
		if strings.HasPrefix(se.Field, "changes[") {
			// A content batch names the change at fault first ("changes[2].page: …"), the form
			// its clients match.
			return status, se.Error()
		}
		in := "body field"
		if r.URL.Query().Has(se.Field) {
			in = "query parameter"
		}
		return status, fieldMessage(in, se.Field, se.Reason)
	case errors.As(err, &ee):
		switch ee.Code {
		case http.StatusNotFound:
			return ee.Code, "No such API path."
		case http.StatusMethodNotAllowed:
			return ee.Code, "Method not allowed on this path."
		case http.StatusRequestEntityTooLarge:
			return ee.Code, "Request body too large."
		}
		if m, ok := ee.Message.(string); ok && ee.Code < 500 {
			return ee.Code, m
		} else if ee.Code < 500 {
			return ee.Code, http.StatusText(ee.Code) + "."
		}
	}
	return http.StatusInternalServerError, "Internal error."
}

// fieldMessage words an error about one input: in is "body field" or "query parameter" (or
// "path parameter", "header parameter").
func fieldMessage(in, field, reason string) string {
	msg := fmt.Sprintf("Invalid %s %q: %s", in, field, reason)
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// notFoundUnless is err when there is one, else the not-found error for what.
func notFoundUnless(err error, what string) error {
	if err != nil {
		return err
	}
	return store.NotFound(what)
}
