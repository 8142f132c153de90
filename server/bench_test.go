package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/sqlite"
	"github.com/quire-docs/quire/store/storetest"
)

// The stages of the GET /v1/spaces/{id} request path above the store (the store's own stages are
// in store/bench_test.go), and one write for comparison. Benchmarks only run with -bench.

// benchFixture is quire's full handler over a fresh database with one user, organization and space.
type benchFixture struct {
	e       *echo.Echo
	st      store.Store
	token   string
	orgID   string
	spaceID string
}

func newBenchFixture(b *testing.B) *benchFixture {
	b.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, b.TempDir()+"/quire.db")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	o := storetest.MustOwner(b, st, "bench@example.com")
	token, sp := o.Token, o.MustSpace(b, st, "Docs")
	// The same JSON logger as `quire serve`, writing nowhere: its formatting cost is counted.
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := New(st, log, "http://quire.test", []byte("bench-secret")).Handler(Options{RateLimit: 0})
	if err != nil {
		b.Fatal(err)
	}
	return &benchFixture{e: e, st: st, token: token, orgID: o.Org.ID, spaceID: sp.ID}
}

// BenchmarkValidateRequest is the request validator alone (openapi3filter against the embedded
// spec) in front of a no-op handler, on GET /v1/spaces/:spaceId.
func BenchmarkValidateRequest(b *testing.B) {
	doc, err := gen.GetSwagger()
	if err != nil {
		b.Fatal(err)
	}
	v := newValidator(doc, "/v1")
	e := echo.New()
	e.GET("/v1/spaces/:spaceId", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }, v.middleware)
	req := httptest.NewRequest(http.MethodGet, "/v1/spaces/lRzv3qRTIrEH4nlZ0GNG", nil)
	req.Header.Set("Authorization", "Bearer gb_api_benchbenchbenchbenchbenchbenchbenchbenc")
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkGetSpaceHandler is the whole GET /v1/spaces/{id} path without the network: logging,
// recover, auth (token cache warm after the first request), body limit, validation, the store
// reads, access check and JSON encoding.
func BenchmarkGetSpaceHandler(b *testing.B) {
	f := newBenchFixture(b)
	// net/http gives every request a cancelable context, and go-sqlite3 then registers a
	// cancellation hook per query; a Background context would skip that cost.
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/v1/spaces/"+f.spaceID, nil)
	req.Header.Set("Authorization", "Bearer "+f.token)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		f.e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkGetSpaceHandlerParallel is the same request from GOMAXPROCS goroutines at once, as
// under load: it shows contention on the token cache's mutex and the reader pool.
func BenchmarkGetSpaceHandlerParallel(b *testing.B) {
	f := newBenchFixture(b)
	b.ReportAllocs()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/v1/spaces/"+f.spaceID, nil)
		req.Header.Set("Authorization", "Bearer "+f.token)
		for pb.Next() {
			rec := httptest.NewRecorder()
			f.e.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Errorf("status %d: %s", rec.Code, rec.Body)
				return
			}
		}
	})
}

// BenchmarkCreateCollection is a write through the whole handler: POST /v1/orgs/{id}/collections,
// one committed (fsynced) transaction each.
func BenchmarkCreateCollection(b *testing.B) {
	f := newBenchFixture(b)
	path := "/v1/orgs/" + f.orgID + "/collections"
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, path, strings.NewReader(`{"title":"x"}`))
		req.Header.Set("Authorization", "Bearer "+f.token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		f.e.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkContentBatch50 is one content batch of 50 new pages of about 150 words each through
// the whole handler (the shape issue 31 measures over HTTP), into a change request that grows by
// 50 pages an iteration; -cpuprofile shows where a batch's time goes above the store.
func BenchmarkContentBatch50(b *testing.B) {
	f := newBenchFixture(b)
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	post := func(path, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+f.token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		f.e.ServeHTTP(rec, req)
		return rec
	}
	rec := post("/v1/spaces/"+f.spaceID+"/change-requests", `{"subject":"Bench"}`)
	if rec.Code != http.StatusCreated {
		b.Fatalf("change request: %d %s", rec.Code, rec.Body)
	}
	var cr struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &cr); err != nil {
		b.Fatal(err)
	}
	words := strings.Fields("the quick brown fox jumps over a lazy dog while quire writes pages of documentation for its readers every day")
	var para strings.Builder
	for i := 0; i < 150; i++ {
		para.WriteString(words[i%len(words)])
		para.WriteByte(' ')
	}
	n := 0
	batch := func() string {
		var changes []map[string]any
		for i := 0; i < 50; i++ {
			n++
			changes = append(changes, map[string]any{"operation": "insert_page", "title": "Page " + strconv.Itoa(n),
				"document": map[string]any{"markdown": "## Section\n\n" + para.String() + "\n"}})
		}
		body, _ := json.Marshal(map[string]any{"changes": changes})
		return string(body)
	}
	path := "/v1/spaces/" + f.spaceID + "/change-requests/" + cr.ID + "/content"
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		body := batch()
		b.StartTimer()
		if rec := post(path, body); rec.Code != http.StatusOK {
			b.Fatalf("batch: %d %s", rec.Code, rec.Body)
		}
	}
}
