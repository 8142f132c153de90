package server

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/mail"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/store"
)

// Options configure the HTTP handler.
type Options struct {
	// RateLimit is requests per minute per token; 0 turns limiting off.
	RateLimit int
	// BodyLimit is the largest request body accepted, e.g. "1M".
	BodyLimit string
	// TrustedProxies are the networks (CIDR) whose X-Forwarded-For is believed when telling the
	// client's address (rate limits of unauthenticated calls). Empty: the connection's address.
	TrustedProxies []*net.IPNet
	// Metrics, when set, count every request (served elsewhere: see Metrics.Handler).
	Metrics *Metrics
	// AllowPrivateURLs lets server-side fetches reach loopback, private and link-local addresses
	// (tests on loopback, private deployments).
	AllowPrivateURLs bool
	// TranslatorURL is the machine translator translation runs use ("": none), with its API key
	// and its protocol (translate.ProtocolLibreTranslate, translate.ProtocolApertium, or "":
	// told apart by probing).
	TranslatorURL, TranslatorKey, TranslatorProtocol string
	// SMTPURL is the SMTP server invitations are emailed through (smtp:// or smtps://, see
	// internal/mail); "": none, nothing is sent.
	SMTPURL string
	// HostnameTarget is the address sites' custom hostnames must point at: a name (their CNAME,
	// or a name with the same addresses) or IP addresses, comma-separated; "": the base URL's host.
	HostnameTarget string
	// Resolver looks custom hostnames up (nil: net.DefaultResolver).
	Resolver HostResolver
	// GitMaxBytes caps what a git run may download and hold (0: gitsync.DefaultMaxRepoBytes).
	GitMaxBytes int64
	// GitSyncPoll is how often the git links' branches are looked at for new commits (0: never;
	// their webhooks only).
	GitSyncPoll time.Duration
	// AuditRetention is how long audit events are kept (0: store.DefaultAuditRetention).
	AuditRetention time.Duration
}

// translatorTimeout bounds one request to the translator.
const translatorTimeout = 2 * time.Minute

// embeddedSpec is the spec compiled into the binary, loaded once: every Handler (one per test
// server) shares it, read-only.
var embeddedSpec = sync.OnceValues(loadEmbeddedSpec)

// loadEmbeddedSpec is gen.GetSpec's document read with encoding/json. The embedded spec is JSON,
// and kin-openapi's loader reads every document with its YAML parser (to record where each part
// came from, which nothing here uses): twice the CPU, paid at every start of quire serve, and
// about a second of it under the race detector (the test servers of cmd/quire and the compat
// suite). TestEmbeddedSpecLoadsAsGenerated checks both give the same document.
func loadEmbeddedSpec() (*openapi3.T, error) {
	js, err := gen.GetSpecJSON()
	if err != nil {
		return nil, err
	}
	doc := &openapi3.T{}
	if err := json.Unmarshal(js, doc); err != nil {
		return nil, err
	}
	if err := openapi3.NewLoader().ResolveRefsIn(doc, nil); err != nil {
		return nil, err
	}
	return doc, nil
}

// contentBatchRoute is the Echo route of updateChangeRequestContent.
const contentBatchRoute = "/v1/spaces/:spaceId/change-requests/:changeRequestId/content"

// Handler returns the Echo instance serving the API under /v1 and GET /healthz.
func (s *Server) Handler(opts Options) (*echo.Echo, error) {
	doc, err := embeddedSpec()
	if err != nil {
		return nil, fmt.Errorf("server: unable to load the embedded spec: %w", err)
	}
	if opts.BodyLimit == "" {
		opts.BodyLimit = "1M"
	}
	s.hostnames = hostnameChecks{resolver: opts.Resolver, target: hostnameTarget(opts.HostnameTarget, s.BaseURL)}
	if s.hostnames.resolver == nil {
		s.hostnames.resolver = net.DefaultResolver
	}
	if opts.AllowPrivateURLs {
		s.Fetcher = fetch.New(fetch.Options{AllowPrivate: true})
	}
	if opts.SMTPURL != "" {
		m, err := mail.New(opts.SMTPURL)
		if err != nil {
			return nil, fmt.Errorf("server: --smtp-url: %w", err)
		}
		s.Mailer = m
	}
	s.gitMaxBytes, s.gitSyncPoll = opts.GitMaxBytes, opts.GitSyncPoll
	s.auditRetention = opts.AuditRetention
	if s.auditRetention <= 0 {
		s.auditRetention = store.DefaultAuditRetention
	}
	if opts.TranslatorURL != "" {
		// Its own fetcher: a page of text can take a CPU-bound translator longer than the default
		// fetch timeout; and the address rule is lifted for it, since its URL is the operator's
		// own (LibreTranslate is usually run on the same machine or a private network), never a
		// caller's. The fetcher's other rules (scheme, timeout, size cap, redirects) still apply.
		f := fetch.New(fetch.Options{AllowPrivate: true, Timeout: translatorTimeout})
		if s.Translator, err = translate.New(opts.TranslatorProtocol, opts.TranslatorURL, opts.TranslatorKey, f); err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = echo.ExtractIPDirect()
	if len(opts.TrustedProxies) > 0 {
		// Only the listed networks are proxies: Echo would otherwise trust every loopback,
		// link-local and private address to name the client.
		trust := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
		for _, n := range opts.TrustedProxies {
			trust = append(trust, echo.TrustIPRange(n))
		}
		e.IPExtractor = echo.ExtractIPFromXFFHeader(trust...)
	}
	mws := []echo.MiddlewareFunc{assignRequestID, s.logRequests}
	if opts.Metrics != nil {
		opts.Metrics.watch(s.Store)
		mws = append(mws, opts.Metrics.middleware)
	}
	mws = append(mws, s.recoverPanics(opts.Metrics))
	var limiter *rateLimiter
	if opts.RateLimit > 0 {
		limiter = newRateLimiter(opts.RateLimit)
		if s.Store.Backend() == "postgres" { // several nodes may serve one database
			limiter.share(s.Store, s.Log)
		}
	}
	s.tokens = &tokenCache{entries: map[string]tokenEntry{}}
	mws = append(mws, s.authenticate(s.tokens, limiter))
	// The limit is checked against Content-Length before anything reads the body, and enforced
	// while reading for bodies without one. A content batch carries up to 50 pages of markdown
	// (1 MiB each), so its route alone takes more.
	isBatch := func(c echo.Context) bool { return c.Path() == contentBatchRoute }
	mws = append(mws, middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: opts.BodyLimit, Skipper: isBatch}),
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Limit: "64M",
			Skipper: func(c echo.Context) bool { return !isBatch(c) }}))
	operations := operationsByRoute(doc, "/v1")
	s.refusedData = refusedDataRoutes(doc, "/v1")
	mws = append(mws, s.installationGate(operations), s.siteTokenGate(operations), s.auditWrites(operations),
		cacheHeaders, newValidator(doc, "/v1").middleware)
	e.Use(chainOnce(mws...)) // the only Use: see chainOnce

	e.GET("/healthz", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{"status": "ok"}) })
	// Links quire hands out (file downloads, signed PDF exports) are served outside /v1, without a
	// token: they carry their own proof.
	e.GET(fileRoute, s.serveFile)
	e.GET(pdfRoute, s.servePDF)
	e.GET(samlStartRoute, s.serveSAMLStart)
	e.POST(samlACSRoute, s.serveSAMLACS)
	e.GET(samlMetadataRoute, s.serveSAMLMetadata)
	e.POST(gitWebhookRoute, s.serveGitWebhook)
	e.PUT(uploadRoute, s.serveUpload)
	e.GET(openAPIDocumentRoute, s.serveOpenAPIDocument)
	e.GET(integrationAssetRoute, s.serveIntegrationAsset)
	for path, render := range contractFiles {
		e.GET(path, serveContract(render))
	}
	gen.RegisterHandlersWithBaseURL(e, gen.NewStrictHandler(s, nil), "/v1")
	return e, nil
}

// logRequests writes one structured line per request. The record is handed to the handler
// directly: Logger.LogAttrs would first walk the stack for the line's source, which no handler
// here shows (none is made with AddSource), at every request.
func (s *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		ctx, h := c.Request().Context(), s.Log.Handler()
		if !h.Enabled(ctx, slog.LevelInfo) {
			return nil
		}
		end := time.Now()
		r := slog.NewRecord(end, slog.LevelInfo, "request", 0)
		r.AddAttrs(slog.String("method", c.Request().Method),
			slog.String("route", c.Path()),
			slog.Int("status", c.Response().Status),
			slog.Duration("duration", end.Sub(start)))
		_ = h.Handle(ctx, r) // as with Logger.LogAttrs, a line that cannot be written is dropped
		return nil
	}
}
