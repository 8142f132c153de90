package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strconv"
	"sync/atomic"

	"github.com/labstack/echo/v4"
)

type requestIDKey struct{}

// RequestID returns the id of the request a context belongs to, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestIDs are a random per-process prefix and a counter: unique across nodes and restarts,
// and cheaper than reading crypto/rand on every request.
var (
	requestIDPrefix = func() string {
		b := make([]byte, 6)
		rand.Read(b)
		return hex.EncodeToString(b)
	}()
	requestCounter atomic.Uint64
)

// saneRequestID accepts an incoming X-Request-Id of at most 128 letters, digits, '-', '_', '.'.
func saneRequestID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// assignRequestID gives each request an id (keeping a sane incoming X-Request-Id), answers it in
// X-Request-Id and puts it in the request's context, where LogHandler finds it.
func assignRequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := req.Header.Get(echo.HeaderXRequestID)
		if !saneRequestID(id) {
			id = requestIDPrefix + "-" + strconv.FormatUint(requestCounter.Add(1), 36)
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		c.SetRequest(req.WithContext(context.WithValue(req.Context(), requestIDKey{}, id)))
		return next(c)
	}
}

// LogHandler adds the request id to every record logged with a request's context, so each line a
// request causes can be told apart from the others.
type LogHandler struct{ slog.Handler }

func (h LogHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h LogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return LogHandler{h.Handler.WithAttrs(attrs)}
}

func (h LogHandler) WithGroup(name string) slog.Handler { return LogHandler{h.Handler.WithGroup(name)} }
