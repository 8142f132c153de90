package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/internal/openapispec"
	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/server/web"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/postgres"
	"github.com/quire-docs/quire/store/postgres/pgtest"
	"github.com/quire-docs/quire/store/sqlite"
	"github.com/quire-docs/quire/store/sqlstore"
)

// The spec every response is checked against (loaded once: the tests that read the spec read
// this one, never changing it), and the operations tests have called.
var (
	spec       *openapi3.T
	specRoutes = map[string]*routers.Route{} // "METHOD /v1/echo/:path" -> route
	specRouter = echo.New()
	calledMu   sync.Mutex
	called     = map[string]bool{}
)

func TestMain(m *testing.M) {
	var err error
	spec, err = gen.GetSwagger()
	if err != nil {
		fmt.Fprintln(os.Stderr, "load spec:", err)
		os.Exit(1)
	}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			p := "/v1" + server.EchoPath(path)
			specRoutes[method+" "+p] = &routers.Route{Spec: spec, Path: path, PathItem: item, Method: method, Operation: op}
			specRouter.Add(method, p, func(echo.Context) error { return nil })
		}
	}
	code := m.Run()
	if migratedSQLiteDir != "" {
		os.RemoveAll(migratedSQLiteDir)
	}
	// With the whole suite run, every operation of the spec must have been called by some test.
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		var missing []string
		for _, r := range specRoutes {
			if !called[r.Operation.OperationID] {
				missing = append(missing, r.Operation.OperationID)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "spec operations no test calls (%d): %s\n", len(missing), strings.Join(missing, ", "))
			code = 1
		}
	}
	os.Exit(code)
}

// testClock is the store's clock in tests: it stands still until a test moves it.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Microsecond) // distinct instants keep orderings strict
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// testServer is quire over a fresh database file, served on loopback.
type testServer struct {
	URL    string
	Store  store.Store
	Clock  *testClock
	Runner *jobs.Runner
	Secret []byte
	Logs   *syncBuffer
}

const testBaseURL = "http://quire.test"

func newTestServer(t testing.TB, opts ...server.Options) *testServer {
	t.Helper()
	st := openTestStore(t)
	clock := &testClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	st.Clock = clock.Now
	o := server.Options{}
	if len(opts) > 0 {
		o = opts[0]
	}
	return serveTestServer(t, st, clock, o)
}

// otherNode is a second quire node over the test server's store (and clock), served at a URL of
// its own: a server with nothing cached, as another node of a deployment sees the database.
func (ts *testServer) otherNode(t testing.TB) *testServer {
	t.Helper()
	return serveTestServer(t, ts.Store, ts.Clock, server.Options{})
}

// serveTestServer serves quire (the API and the web) over st on loopback.
func serveTestServer(t testing.TB, st store.Store, clock *testClock, o server.Options) *testServer {
	t.Helper()
	logs := &syncBuffer{}
	log := slog.New(server.LogHandler{Handler: slog.NewJSONHandler(logs, nil)})
	// A request that panicked fails the test that made it, whatever it asserted (issue 24).
	t.Cleanup(func() {
		for _, line := range logs.Lines(t) {
			if line["msg"] == "panic" {
				t.Errorf("a request panicked: %v %v: %v\n%v", line["method"], line["route"], line["panic"], line["stack"])
			}
		}
	})
	secret := []byte("test-visitor-secret")
	srv := server.New(st, log, testBaseURL, secret)
	e, err := srv.Handler(o)
	if err != nil {
		t.Fatal(err)
	}
	// The web pages beside the API, as cmd/quire mounts them.
	w := web.New(st, srv.Access, log, testBaseURL, secret)
	srv.Web = w
	w.Register(e)
	hs := httptest.NewServer(e)
	t.Cleanup(hs.Close)
	runner := jobs.New(st, log)
	openapispec.Register(runner, &openapispec.Processor{Store: st, Fetcher: srv.Fetcher}, openapispec.DefaultRefresh)
	for kind, h := range srv.JobHandlers() {
		runner.Handlers[kind] = h
	}
	return &testServer{URL: hs.URL, Store: st, Clock: clock, Runner: runner, Secret: secret, Logs: logs}
}

// openTestStore opens the store a test server runs on: a SQLite file of the test's own by default;
// with QUIRE_TEST_SERVER_BACKEND=postgres a fresh database of the cluster QUIRE_TEST_POSTGRES_URL
// names (make test runs the suite both ways). It is closed when the test ends.
func openTestStore(t testing.TB) *sqlstore.Store {
	t.Helper()
	var st *sqlstore.Store
	var err error
	switch backend := os.Getenv("QUIRE_TEST_SERVER_BACKEND"); backend {
	case "", "sqlite":
		db := t.TempDir() + "/quire.db"
		if err := copyMigratedSQLite(db); err != nil {
			t.Fatal(err)
		}
		st, err = sqlite.Open(context.Background(), db)
	case "postgres":
		st, err = postgres.Open(context.Background(), pgtest.FromTemplate(t, "the server suite on PostgreSQL", "migrated", migratePostgres))
	default:
		t.Fatalf("QUIRE_TEST_SERVER_BACKEND=%q: sqlite or postgres", backend)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// migratedSQLite is the file of a SQLite database quire's migrations were applied to, made once
// per test binary in migratedSQLiteDir (removed after the run): each test server's SQLite store
// opens a copy of it, as each one on PostgreSQL is copied from a migrated template, rather than
// applying every migration again (a quarter of a CPU second a store under the race detector).
var (
	migratedSQLiteDir string
	migratedSQLite    = sync.OnceValues(func() (string, error) {
		dir, err := os.MkdirTemp("", "quire-server-tests-")
		if err != nil {
			return "", err
		}
		migratedSQLiteDir = dir
		db := dir + "/quire.db"
		st, err := sqlite.Open(context.Background(), db)
		if err != nil {
			return "", err
		}
		return db, st.Close()
	})
)

// copyMigratedSQLite writes a copy of migratedSQLite at db (with its write-ahead log, should
// closing it have left one).
func copyMigratedSQLite(db string) error {
	src, err := migratedSQLite()
	if err != nil {
		return err
	}
	for _, suffix := range []string{"", "-wal"} {
		body, err := os.ReadFile(src + suffix)
		if suffix != "" && os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(db+suffix, body, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// migratePostgres applies quire's migrations to the database at url (the template every server
// test's PostgreSQL database is copied from).
func migratePostgres(url string) error {
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		return err
	}
	return st.Close()
}

// syncBuffer is the server's log output in tests: JSON lines, safe to write from handlers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Lines returns the log lines written so far, decoded.
func (b *syncBuffer) Lines(t testing.TB) []map[string]any {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(b.buf.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// testUser is a user with an API token.
type testUser struct {
	ID, Email, Token string
}

// MustCreateUser creates a user (email verified) and returns it with its token.
func (ts *testServer) MustCreateUser(t testing.TB, email, name string) *testUser {
	t.Helper()
	u := &store.User{Email: email, DisplayName: name}
	token, err := ts.Store.CreateUser(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	return &testUser{ID: u.ID, Email: email, Token: token}
}

// response is what a request answered, already checked against the spec.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode unmarshals the body into v.
func (r *response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Map returns the body as a JSON object.
func (r *response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.Decode(t, &m)
	return m
}

// ErrorMessage returns the message of an error body.
func (r *response) ErrorMessage(t testing.TB) string {
	t.Helper()
	var e gen.Error
	r.Decode(t, &e)
	if e.Error.Code != r.Status {
		t.Fatalf("error body code %d, status %d", e.Error.Code, r.Status)
	}
	return e.Error.Message
}

// Do sends a request as user u (nil: no token) with a JSON body (nil: none; []byte: raw), checks
// the response against the spec (declared status, body schema) and records the operation as
// called.
func (ts *testServer) Do(t testing.TB, u *testUser, method, path string, body any) *response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, ts.URL+"/v1"+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u != nil {
		req.Header.Set("Authorization", "Bearer "+u.Token)
	}
	res, raw := readResponse(t)(http.DefaultClient.Do(req))
	checkResponse(t, req, res, raw)
	return &response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// Expect is Do that fails the test unless the status is want.
func (ts *testServer) Expect(t testing.TB, want int, u *testUser, method, path string, body any) *response {
	t.Helper()
	r := ts.Do(t, u, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	return r
}

// getJSON GETs path as u, which must answer 200, and decodes the answer into a T.
func getJSON[T any](t testing.TB, ts *testServer, u *testUser, path string) T {
	t.Helper()
	var v T
	ts.Expect(t, http.StatusOK, u, "GET", path, nil).Decode(t, &v)
	return v
}

// sendJSON sends a body as u, which must answer want, and decodes the answer into a T.
func sendJSON[T any](t testing.TB, ts *testServer, want int, u *testUser, method, path string, body any) T {
	t.Helper()
	var v T
	ts.Expect(t, want, u, method, path, body).Decode(t, &v)
	return v
}

// checkResponse validates a response against the operation the request matched in the spec.
func checkResponse(t testing.TB, req *http.Request, res *http.Response, body []byte) {
	t.Helper()
	c := specRouter.NewContext(req, nil)
	specRouter.Router().Find(req.Method, req.URL.Path, c)
	route := specRoutes[req.Method+" "+c.Path()]
	if route == nil {
		// Only paths outside the spec (none in these tests) answer without an operation.
		t.Fatalf("%s %s matches no operation of the spec", req.Method, req.URL.Path)
	}
	calledMu.Lock()
	called[route.Operation.OperationID] = true
	calledMu.Unlock()
	params := map[string]string{}
	for i, n := range c.ParamNames() {
		params[n] = c.ParamValues()[i]
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{ExcludeRequestBody: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  res.StatusCode,
		Header:  res.Header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	input.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		t.Fatalf("%s %s answered %d outside the spec: %v\nbody: %s", req.Method, req.URL.Path, res.StatusCode, err, body)
	}
}

// MustCreateOrg creates an organization administered by u.
func (ts *testServer) MustCreateOrg(t testing.TB, u *testUser, title string) gen.Organization {
	t.Helper()
	return sendJSON[gen.Organization](t, ts, http.StatusCreated, u, "POST", "/orgs", map[string]any{"title": title})
}

// MustAddMember makes u a member of an organization with a role ("" for a guest), the way a
// user joins: the organization allows the user's email domain.
func (ts *testServer) MustAddMember(t testing.TB, admin *testUser, orgID string, u *testUser, role string) {
	t.Helper()
	domain := u.Email[strings.LastIndexByte(u.Email, '@')+1:]
	ts.Expect(t, http.StatusOK, admin, "PATCH", "/orgs/"+orgID, map[string]any{"emailDomains": []string{domain}})
	ts.Expect(t, http.StatusNoContent, u, "POST", "/orgs/"+orgID+"/join", nil)
	var r any = role
	if role == "" {
		r = nil
	}
	ts.Expect(t, http.StatusOK, admin, "PATCH", "/orgs/"+orgID+"/members/"+u.ID, map[string]any{"role": r})
}

// MustCreateSpace creates a space in an organization (in a collection when parent is not "").
func (ts *testServer) MustCreateSpace(t testing.TB, u *testUser, orgID, title, parent string) gen.Space {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return sendJSON[gen.Space](t, ts, http.StatusCreated, u, "POST", "/orgs/"+orgID+"/spaces", body)
}

// MustCreateCollection creates a collection in an organization (nested when parent is not "").
func (ts *testServer) MustCreateCollection(t testing.TB, u *testUser, orgID, title, parent string) gen.Collection {
	t.Helper()
	body := map[string]any{"title": title}
	if parent != "" {
		body["parent"] = parent
	}
	return sendJSON[gen.Collection](t, ts, http.StatusCreated, u, "POST", "/orgs/"+orgID+"/collections", body)
}
