package web

import (
	"log/slog"
	"strings"

	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Server serves the web pages. Register mounts them on the Echo instance that serves the API (its
// middleware — request ids, logs, metrics, panic recovery, rate limits — covers them too), and
// the API's server takes it as its server.Web for the flows that end on a page.
type Server struct {
	Store  store.Store
	Access *access.Rules
	Log    *slog.Logger
	// BaseURL is the absolute URL quire is reached at, without a trailing slash.
	BaseURL string
	// Secret keys the app's CSRF tokens (the server's visitor secret).
	Secret []byte
}

// New returns the web pages over a store, deciding access with rules.
func New(st store.Store, rules *access.Rules, log *slog.Logger, baseURL string, secret []byte) *Server {
	return &Server{Store: st, Access: rules, Log: log, BaseURL: strings.TrimRight(baseURL, "/"), Secret: secret}
}
