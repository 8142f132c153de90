// Package server is quire's HTTP API: one implementation of the generated strict server
// interface, split into one file per API area, plus the middleware every request goes through
// (rate limit, auth, request validation) and the one error mapping.
package server

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/mail"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/server/access"
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
	// Mailer sends invitations by email; nil when quire has no SMTP server (they are created and
	// answered with their links all the same).
	Mailer mail.Sender
	// tokens is the authentication's cache of token lookups (set by Handler).
	tokens *tokenCache
	// refusedData are the routes that answer refused data 412, not 400 (set by Handler; errors.go).
	refusedData map[string]bool
	// pageLists keeps encoded page lists of revisions (pagelists.go).
	pageLists *pageListCache
	// spaceBodies keeps encoded answers of GET /v1/spaces/{id} (spacebodies.go).
	spaceBodies spaceBodies
	// Access resolves the caller's roles and reads visitor tokens: the access rules the web pages
	// share (server/access).
	Access *access.Rules
	// Web is the web pages' part in flows the API starts (server/web implements it; cmd/quire sets
	// it when it mounts them). Nil: a browser asking for an OpenAPI document gets the document,
	// and a SAML login cannot return to the app.
	Web Web
	// samlKeys caches quire's SAML service-provider key pair (see spKeyPair).
	samlKeys spKeys
	// embeds resolves and caches the embeds of URLs (see embeds.go).
	embeds embedder
	// hostnames checks where custom hostnames point (hostnames.go).
	hostnames hostnameChecks
	// gitMaxBytes caps what a git run may download and hold (Options.GitMaxBytes); gitSyncPoll is
	// how often the poller runs (Options.GitSyncPoll).
	gitMaxBytes int64
	gitSyncPoll time.Duration
	// auditRetention is how long audit events are kept (Options.AuditRetention).
	auditRetention time.Duration
}

var _ gen.StrictServerInterface = (*Server)(nil)

// New returns a server over a store.
func New(st store.Store, log *slog.Logger, baseURL string, visitorSecret []byte) *Server {
	return &Server{Store: st, Log: log, BaseURL: strings.TrimRight(baseURL, "/"), VisitorSecret: visitorSecret,
		Fetcher: fetch.New(fetch.Options{}), Access: &access.Rules{Store: st, VisitorSecret: visitorSecret},
		pageLists: newPageListCache(pageListBytes)}
}

// apiURL is the absolute API URL of a path under /v1.
func (s *Server) apiURL(path string) string { return s.BaseURL + "/v1" + path }

// appURL is the absolute URL of quire's web view of a path.
func (s *Server) appURL(path string) string { return s.BaseURL + "/app" + path }

// Web is what the API asks of the web pages without importing them.
type Web interface {
	// AppReturnPath answers p when it is a path of the app a sign-in may return to.
	AppReturnPath(p string) string
	// StartAppSession opens an app session for a login's API token (a SAML login started from
	// the app).
	StartAppSession(c echo.Context, token string) error
	// AppSSORefused shows a refused SAML login that started from the app as an app page.
	AppSSORefused(c echo.Context, status int, message string) error
	// ServeOpenAPIReference renders an OpenAPI document as a reference page for a browser.
	ServeOpenAPIReference(c echo.Context, sp *store.OpenAPISpec, doc *store.OpenAPISpecVersionContent) error
}

// spKeys caches the SP key pair: once stored, the setting never changes.
type spKeys struct {
	mu   sync.Mutex
	key  *rsa.PrivateKey
	cert *x509.Certificate
}

// HostResolver looks names up in DNS; net.DefaultResolver is one.
type HostResolver interface {
	LookupCNAME(ctx context.Context, host string) (string, error)
	LookupHost(ctx context.Context, host string) ([]string, error)
}

// hostnameChecks is what a DNS check compares against.
type hostnameChecks struct {
	resolver HostResolver
	// target is quire's address: a name a hostname's CNAME must be (or whose addresses it must
	// resolve to), or IP addresses, comma-separated, it must resolve to.
	target string
}

// embedder resolves and caches embeds.
type embedder struct {
	once    sync.Once
	fetcher *fetch.Fetcher
	mu      sync.Mutex
	cache   map[string]embedEntry
}

type embedEntry struct {
	embed   gen.Embed
	expires time.Time
}
