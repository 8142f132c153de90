// Command quire serves the quire API and administers its database.
//
//	quire serve [--addr 127.0.0.1:8080] [--db ./quire.db] [--base-url URL] [--rate-limit N]
//	quire users create --db PATH --email EMAIL --name NAME
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
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
  quire serve [--addr 127.0.0.1:8080] [--db ./quire.db] [--base-url URL] [--rate-limit N]
  quire users create --db PATH --email EMAIL --name NAME`

func run(args []string) error {
	switch {
	case len(args) >= 1 && args[0] == "serve":
		return serve(args[1:])
	case len(args) >= 2 && args[0] == "users" && args[1] == "create":
		return createUser(args[2:])
	}
	return errors.New(usage)
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	dbPath := fs.String("db", "./quire.db", "SQLite database file (created if missing)")
	baseURL := fs.String("base-url", "", "absolute URL quire is reached at (default http://ADDR)")
	rateLimit := fs.Int("rate-limit", 600, "requests per minute per token; 0 turns limiting off")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *baseURL == "" {
		*baseURL = "http://" + *addr
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
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
	e, err := srv.Handler(server.Options{RateLimit: *rateLimit})
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

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
