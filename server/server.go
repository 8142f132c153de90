// Package server is quire's HTTP API: one implementation of the generated strict server
// interface, split into one file per API area, plus the middleware every request goes through
// (rate limit, auth, request validation) and the one error mapping.
package server

import (
	"log/slog"
	"strings"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/store"
)

// Version is the release this binary answers in GET /.
var Version = "0.1.0"

// Build is the date of this build, set at link time.
var Build = "dev"

// Server implements every operation of openapi.yaml over the store.
type Server struct {
	Store store.Store
	Log   *slog.Logger
	// BaseURL is the absolute URL quire is reached at, without a trailing slash; resource URLs
	// (`urls.location`, `urls.app`) are built under it.
	BaseURL string
	// VisitorSecret signs the visitor tokens that ping answers and visitor-auth sites check.
	VisitorSecret []byte
	// Fetcher makes every server-side request to another server (files of a content batch given
	// by URL…), under its address rules.
	Fetcher *fetch.Fetcher
	// WakeJobs, when set, asks the job runner to look for due jobs after a delay: how a job a
	// request enqueued (conversation analysis, a translation run) runs promptly under `quire serve`.
	WakeJobs func(after time.Duration)
	// Translator is the machine translator translation runs use; nil when none is configured
	// (running a translation then answers 400).
	Translator translate.Translator
	// samlKeys caches quire's SAML service-provider key pair (see spKeyPair).
	samlKeys spKeys
}

var _ gen.StrictServerInterface = (*Server)(nil)

// New returns a server over a store.
func New(st store.Store, log *slog.Logger, baseURL string, visitorSecret []byte) *Server {
	return &Server{Store: st, Log: log, BaseURL: strings.TrimRight(baseURL, "/"), VisitorSecret: visitorSecret,
		Fetcher: fetch.New(fetch.Options{})}
}

// apiURL is the absolute API URL of a path under /v1.
func (s *Server) apiURL(path string) string { return s.BaseURL + "/v1" + path }

// appURL is the absolute URL of quire's web view of a path.
func (s *Server) appURL(path string) string { return s.BaseURL + "/app" + path }
