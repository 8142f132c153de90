// Command quire serves the quire API and administers its database.
//
//	quire serve [--addr 127.0.0.1:8080] [--db ./quire.db] [--base-url URL] [--rate-limit N] [--allow-private-urls]
//	quire users create --db PATH --email EMAIL --name NAME
//	quire demo --db PATH [--base-url URL]
//	quire export --db PATH --space ID --to DIR
//	quire import --db PATH --org ID --from DIR [--space ID]
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
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/quire-docs/quire/jobs"
	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/store"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "quire:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  quire serve [--addr 127.0.0.1:8080] [--db ./quire.db] [--base-url URL] [--rate-limit N] [--allow-private-urls]
  quire users create --db PATH --email EMAIL --name NAME
  quire demo --db PATH [--base-url URL]                     a sample organization to look around in
  quire export --db PATH --space ID --to DIR                a space in GitBook's Git Sync layout
  quire import --db PATH --org ID --from DIR [--space ID]   a Git Sync layout into a space`

func run(args []string) error {
	switch {
	case len(args) >= 1 && args[0] == "serve":
		return serve(args[1:])
	case len(args) >= 2 && args[0] == "users" && args[1] == "create":
		return createUser(args[2:])
	case len(args) >= 1 && args[0] == "demo":
		return demo(args[1:], os.Stdout)
	case len(args) >= 1 && args[0] == "export":
		return exportSpace(args[1:], os.Stdout, os.Stderr)
	case len(args) >= 1 && args[0] == "import":
		return importSpace(args[1:], os.Stdout, os.Stderr)
	}
	return errors.New(usage)
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	dbPath := fs.String("db", "./quire.db", "SQLite database file (created if missing)")
	baseURL := fs.String("base-url", "", "absolute URL quire is reached at (default http://ADDR)")
	rateLimit := fs.Int("rate-limit", 600, "requests per minute per token; 0 turns limiting off")
	allowPrivate := fs.Bool("allow-private-urls", envBool("QUIRE_ALLOW_PRIVATE_URLS"),
		"let server-side fetches (files given by URL…) reach loopback, private and link-local addresses")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *baseURL == "" {
		*baseURL = "http://" + *addr
	}
	logOut := newFlushingWriter(os.Stderr, 100*time.Millisecond)
	defer logOut.Close()
	log := slog.New(slog.NewJSONHandler(logOut, nil))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	secret, err := st.EnsureSetting(ctx, "visitor_secret", randomHex(32))
	if err != nil {
		return err
	}
	srv := server.New(st, log, *baseURL, []byte(secret))
	e, err := srv.Handler(server.Options{RateLimit: *rateLimit, AllowPrivateURLs: *allowPrivate})
	if err != nil {
		return err
	}
	runner := jobs.New(st, log)
	if err := runner.Start(ctx); err != nil {
		return err
	}
	go runner.Loop(ctx, 30*time.Second)

	hs := &http.Server{Addr: *addr, Handler: e, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	log.Info("quire serving", "addr", *addr, "db", *dbPath, "base_url", *baseURL)
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

// envBool reads a boolean flag's default from the environment ("1", "true"…).
func envBool(name string) bool {
	v, err := strconv.ParseBool(os.Getenv(name))
	return err == nil && v
}

func createUser(args []string) error {
	fs := flag.NewFlagSet("users create", flag.ContinueOnError)
	dbPath := fs.String("db", "./quire.db", "SQLite database file")
	email := fs.String("email", "", "the user's email (counts as verified)")
	name := fs.String("name", "", "the user's display name")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *email == "" || *name == "" {
		return errors.New("--email and --name are required")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	u := &store.User{Email: *email, DisplayName: *name}
	token, err := st.CreateUser(ctx, u)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]string{"id": u.ID, "email": u.Email, "token": token})
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
