// Command quire serves the quire API and administers its database.
//
//	quire serve [--addr 127.0.0.1:8080] [--db ./quire.db] [--base-url URL] [--rate-limit N] [--trusted-proxies CIDR,…] [--metrics-addr ADDR [--pprof]] [--allow-private-urls] [--translator-url URL] [--translator-key KEY] [--translator auto|libretranslate|apertium] [--openapi-refresh 6h] [--smtp-url URL] [--git-sync-poll 5m]
//	quire users create --db PATH --email EMAIL --name NAME
//	quire tokens create|list|revoke …
//	quire backup --db PATH --to FILE
//	quire restore --from FILE --db PATH
//	quire version
//	quire demo --db PATH [--base-url URL]
//	quire export --db PATH --space ID --to DIR
//	quire import --db PATH --org ID --from DIR [--space ID]
//	quire integrations signing-secret --db PATH NAME
//	quire search-index check|rebuild --db PATH
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/internal/mail"
	"github.com/quire-docs/quire/internal/openapispec"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/server/web"
	"github.com/quire-docs/quire/store"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil && !errors.Is(err, errHelpShown) {
		fmt.Fprintln(os.Stderr, "quire:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  quire serve [--addr 127.0.0.1:8080] [--db ./quire.db] [--base-url URL] [--rate-limit N] [--trusted-proxies CIDR,…] [--metrics-addr ADDR [--pprof]] [--allow-private-urls] [--translator-url URL] [--translator-key KEY] [--translator auto|libretranslate|apertium] [--openapi-refresh 6h] [--smtp-url URL] [--git-sync-poll 5m]
  quire users create --db PATH --email EMAIL --name NAME
  quire tokens create --db PATH --email EMAIL [--name LABEL]
  quire tokens list --db PATH --email EMAIL
  quire tokens revoke --db PATH ID
  quire backup --db PATH --to FILE
  quire restore --from FILE --db PATH
  quire version
  quire demo --db PATH [--base-url URL]                     a sample organization to look around in
  quire export --db PATH --space ID --to DIR                a space in GitBook's Git Sync layout
  quire import --db PATH --org ID --from DIR [--space ID]   a Git Sync layout into a space
  quire integrations signing-secret --db PATH NAME          the secret an integration's events are signed with
  quire search-index check|rebuild --db PATH                whether the search index needs a rebuild; rebuild it`

// run runs the command args name, printing its output to stdout and its notes to stderr (quire
// serve logs to the process's stderr).
func run(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) >= 1 && args[0] == "serve":
		return serve(args[1:])
	case len(args) >= 2 && args[0] == "users" && args[1] == "create":
		return createUser(args[2:], stdout)
	case len(args) >= 2 && args[0] == "tokens":
		return tokens(args[1], args[2:], stdout, stderr)
	case len(args) >= 1 && args[0] == "backup":
		return backup(args[1:], stderr)
	case len(args) >= 1 && args[0] == "restore":
		return restore(args[1:], stderr)
	case len(args) == 1 && args[0] == "version":
		fmt.Fprintf(stdout, "quire %s (%s)\n", server.Version, server.Build)
		return nil
	case len(args) >= 1 && args[0] == "demo":
		return demo(args[1:], stdout)
	case len(args) >= 1 && args[0] == "export":
		return exportSpace(args[1:], stdout, stderr)
	case len(args) >= 1 && args[0] == "import":
		return importSpace(args[1:], stdout, stderr)
	case len(args) >= 2 && args[0] == "integrations" && args[1] == "signing-secret":
		return integrationSigningSecret(args[2:], stdout)
	case len(args) >= 2 && args[0] == "search-index":
		return searchIndex(args[1], args[2:], stdout)
	}
	return errors.New(usage)
}

// serveConfig is what `quire serve` is told, by flags or QUIRE_… variables.
type serveConfig struct {
	addr, db, baseURL string
	metricsAddr       string
	pprof             bool
	rateLimit         int
	trustedProxies    []*net.IPNet
	allowPrivateURLs  bool
	translatorURL     string
	translatorKey     string
	translator        string
	openAPIRefresh    time.Duration
	smtpURL           string
	hostnameTarget    string
	gitSyncPoll       time.Duration
	auditRetention    time.Duration
}

func parseServe(args []string) (serveConfig, error) {
	var c serveConfig
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&c.db, "db", "./quire.db", dbUsage)
	fs.StringVar(&c.baseURL, "base-url", "", "absolute URL quire is reached at (default http://ADDR)")
	fs.IntVar(&c.rateLimit, "rate-limit", 600, "requests per minute per token (one budget across the nodes of a PostgreSQL database); 0 turns limiting off")
	fs.StringVar(&c.metricsAddr, "metrics-addr", "", "address to serve Prometheus metrics on at /metrics (off when empty)")
	fs.BoolVar(&c.pprof, "pprof", false, "also serve Go's profiler at /debug/pprof/ on --metrics-addr (for make bench)")
	fs.BoolVar(&c.allowPrivateURLs, "allow-private-urls", false,
		"let server-side fetches (files given by URL…) reach loopback, private and link-local addresses")
	fs.StringVar(&c.translatorURL, "translator-url", "", "base URL of the machine translator that runs translations (none when empty)")
	fs.StringVar(&c.translator, "translator", "auto", "the translator's protocol: libretranslate, apertium (Apertium's APy) or auto (probed)")
	fs.StringVar(&c.translatorKey, "translator-key", "", "API key sent to the translator (api_key)")
	fs.StringVar(&c.smtpURL, "smtp-url", "",
		"SMTP server invitations are emailed through: smtp://[user:password@]host[:port][?from=addr] (STARTTLS when offered) or smtps://… (TLS); none when empty")
	fs.DurationVar(&c.openAPIRefresh, "openapi-refresh", openapispec.DefaultRefresh,
		"how often OpenAPI specifications given by URL are fetched again")
	fs.StringVar(&c.hostnameTarget, "hostname-target", "",
		"the name (or IP addresses, comma-separated) sites' custom hostnames must point at (default the base URL's host)")
	fs.DurationVar(&c.gitSyncPoll, "git-sync-poll", 5*time.Minute,
		"how often the branches of spaces' git links are looked at for new commits (0: never, webhooks only)")
	fs.DurationVar(&c.auditRetention, "audit-retention", store.DefaultAuditRetention,
		"how long audit events are kept before the hourly purge deletes them (e.g. 2160h, 90 days)")
	proxies := fs.String("trusted-proxies", "", "comma-separated networks (CIDR) whose X-Forwarded-For names the client")
	if err := parseWithEnv(fs, args); err != nil {
		return c, err
	}
	var err error
	if c.trustedProxies, err = parseNetworks(*proxies); err != nil {
		return c, fmt.Errorf("--trusted-proxies: %w", err)
	}
	switch c.translator {
	case "auto", translate.ProtocolLibreTranslate, translate.ProtocolApertium:
	default:
		return c, fmt.Errorf("--translator: %q is not a protocol quire speaks (libretranslate, apertium or auto)", c.translator)
	}
	if c.smtpURL != "" {
		if _, err := mail.New(c.smtpURL); err != nil {
			return c, fmt.Errorf("--smtp-url: %w", err)
		}
	}
	if c.pprof && c.metricsAddr == "" {
		return c, errors.New("--pprof: the profiler is served on --metrics-addr; give one")
	}
	if c.gitSyncPoll < 0 {
		return c, errors.New("--git-sync-poll: give a duration, e.g. 5m, or 0 for none")
	}
	if c.auditRetention <= 0 {
		return c, errors.New("--audit-retention: give a positive duration, e.g. 2160h (90 days)")
	}
	if c.openAPIRefresh <= 0 {
		return c, errors.New("--openapi-refresh: give a positive duration, e.g. 6h")
	}
	if c.baseURL == "" {
		c.baseURL = "http://" + c.addr
	}
	return c, nil
}

func serve(args []string) error {
	cfg, err := parseServe(args)
	if err != nil {
		return err
	}
	// The address is bound first: with port 0 the system picks a free one, which the "quire
	// serving" line and the default base URL then name (how tests start servers without racing
	// another process for a port).
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	if strings.HasSuffix(cfg.addr, ":0") {
		bound := ln.Addr().String()
		if cfg.baseURL == "http://"+cfg.addr {
			cfg.baseURL = "http://" + bound
		}
		cfg.addr = bound
	}
	logOut := newFlushingWriter(os.Stderr, 100*time.Millisecond)
	defer logOut.Close()
	log := slog.New(server.LogHandler{Handler: slog.NewJSONHandler(logOut, nil)})
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	st, err := openStore(ctx, cfg.db)
	if err != nil {
		return err
	}
	defer st.Close()
	secret, err := st.EnsureSetting(ctx, "visitor_secret", randomHex(32))
	if err != nil {
		return err
	}
	srv := server.New(st, log, cfg.baseURL, []byte(secret))
	opts := server.Options{RateLimit: cfg.rateLimit, TrustedProxies: cfg.trustedProxies, AllowPrivateURLs: cfg.allowPrivateURLs,
		TranslatorURL: cfg.translatorURL, TranslatorKey: cfg.translatorKey, TranslatorProtocol: cfg.translator,
		SMTPURL: cfg.smtpURL, HostnameTarget: cfg.hostnameTarget, GitSyncPoll: cfg.gitSyncPoll,
		AuditRetention: cfg.auditRetention}
	if cfg.metricsAddr != "" {
		opts.Metrics = server.NewMetrics()
	}
	e, err := srv.Handler(opts)
	if err != nil {
		return err
	}
	mountWeb(srv, e)
	runner := jobs.New(st, log)
	runner.Translations(srv.Translator)
	openapispec.Register(runner, &openapispec.Processor{Store: st, Fetcher: srv.Fetcher}, cfg.openAPIRefresh)
	srv.WakeJobs = runner.WakeAfter
	for kind, h := range srv.JobHandlers() {
		runner.Handlers[kind] = h
	}
	if opts.Metrics != nil {
		runner.Observe = opts.Metrics.ObserveJob
	}
	if err := runner.Start(ctx); err != nil {
		return err
	}
	jobsDone := make(chan struct{})
	go func() {
		defer close(jobsDone)
		runner.Loop(ctx, 30*time.Second)
	}()
	// The runner is stopped and waited for before the store closes (the deferred st.Close).
	defer func() {
		stop()
		<-jobsDone
	}()

	hs := newHTTPServer(cfg.addr, e, defaultTimeouts)
	errc := make(chan error, 2)
	go func() { errc <- hs.Serve(ln) }()
	if opts.Metrics != nil {
		// Metrics have their own address, so they are never public by accident.
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", opts.Metrics.Handler())
		if cfg.pprof {
			mux.HandleFunc("GET /debug/pprof/", pprof.Index)
			mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
		}
		ms := newHTTPServer(cfg.metricsAddr, mux, defaultTimeouts)
		go func() { errc <- fmt.Errorf("metrics: %w", ms.ListenAndServe()) }()
		defer ms.Close()
		log.Info("quire metrics", "addr", cfg.metricsAddr)
	}
	log.Info("quire serving", "addr", cfg.addr, "db", cfg.db, "base_url", cfg.baseURL)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("quire shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return hs.Shutdown(shutdownCtx)
}

// timeouts bound what one client can hold: slow headers and bodies are cut off, idle connections
// closed, and each request's work is bounded by a deadline its context carries to the database.
type timeouts struct {
	header, read, request, idle time.Duration
}

var defaultTimeouts = timeouts{
	header:  10 * time.Second,
	read:    2 * time.Minute, // a 64 MiB content batch over a slow link
	request: 2 * time.Minute,
	idle:    2 * time.Minute,
}

func newHTTPServer(addr string, h http.Handler, t timeouts) *http.Server {
	return &http.Server{
		Addr: addr,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := withLazyDeadline(r.Context(), time.Now().Add(t.request))
			defer ctx.stop()
			h.ServeHTTP(w, r.WithContext(ctx))
		}),
		ReadHeaderTimeout: t.header,
		ReadTimeout:       t.read,
		WriteTimeout:      t.request + 10*time.Second,
		IdleTimeout:       t.idle,
		MaxHeaderBytes:    64 << 10,
	}
}

func parseNetworks(list string) ([]*net.IPNet, error) {
	var out []*net.IPNet
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			if ip := net.ParseIP(part); ip != nil && ip.To4() != nil {
				part += "/32"
			} else {
				part += "/128"
			}
		}
		_, n, err := net.ParseCIDR(part)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func createUser(args []string, stdout io.Writer) error {
	cmd := newDBCommand("users create", dbUsage)
	email := cmd.String("email", "", "the user's email (counts as verified)")
	name := cmd.String("name", "", "the user's display name")
	if err := cmd.parse(args, "email", "name"); err != nil {
		return err
	}
	return cmd.withStore(func(ctx context.Context, st store.Store) error {
		u := &store.User{Email: *email, DisplayName: *name}
		token, err := st.CreateUser(ctx, u)
		if err != nil {
			return err
		}
		return json.NewEncoder(stdout).Encode(map[string]string{"id": u.ID, "email": u.Email, "token": token})
	})
}

// flushingWriter buffers log lines and writes them out every interval (and on Close): one write
// per request line was a tenth of the time of a small GET under load.
type flushingWriter struct {
	mu   sync.Mutex
	buf  *bufio.Writer
	done chan struct{}
	wg   sync.WaitGroup
}

func newFlushingWriter(w io.Writer, every time.Duration) *flushingWriter {
	f := &flushingWriter{buf: bufio.NewWriterSize(w, 64<<10), done: make(chan struct{})}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-f.done:
				return
			case <-t.C:
				f.mu.Lock()
				f.buf.Flush()
				f.mu.Unlock()
			}
		}
	}()
	return f
}

func (f *flushingWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.Write(p)
}

// Close stops the flushing and writes out what is buffered.
func (f *flushingWriter) Close() error {
	close(f.done)
	f.wg.Wait()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.buf.Flush()
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// mountWeb serves the web pages (published sites, the app, OpenAPI reference pages) beside the
// API on e, and gives the API its part in the flows that end on a page.
func mountWeb(srv *server.Server, e *echo.Echo) {
	w := web.New(srv.Store, srv.Access, srv.Log, srv.BaseURL, srv.VisitorSecret)
	srv.Web = w
	w.Register(e)
}
