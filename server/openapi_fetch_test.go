package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

// docServer serves an OpenAPI document on loopback that a test can change, hold or break.
type docServer struct {
	*httptest.Server
	mu     sync.Mutex
	doc    string
	status int
	hold   chan struct{} // when set, an answer waits for it to close
	held   chan struct{} // closed when a request is waiting on hold
	hits   map[string]int
}

func newDocServer(t *testing.T, doc string) *docServer {
	d := &docServer{doc: doc, status: http.StatusOK, hits: map[string]int{}}
	d.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.hits[r.URL.Path]++
		doc, status, hold, held := d.doc, d.status, d.hold, d.held
		d.mu.Unlock()
		if hold != nil {
			close(held)
			<-hold
		}
		switch r.URL.Path {
		case "/huge.yaml":
			w.Header().Set("Content-Type", "application/yaml")
			chunk := []byte(strings.Repeat("# padding line of a very large document\n", 1024))
			for i := 0; i < 300; i++ { // 12 MiB, past the fetcher's 10 MiB cap
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		default:
			w.WriteHeader(status)
			w.Write([]byte(doc))
		}
	}))
	t.Cleanup(d.Close)
	return d
}

func (d *docServer) set(doc string, status int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.doc, d.status = doc, status
}

func TestOpenAPIURLSources(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, petstore30)
	w := newOpenAPIWorld(t, newTestServer(t, server.Options{AllowPrivateURLs: true}))
	src := map[string]any{"url": docs.URL + "/specs/petstore.yaml"}

	t.Run("PendingProgressComplete", func(t *testing.T) {
		docs.mu.Lock()
		docs.hold, docs.held = make(chan struct{}), make(chan struct{})
		hold, held := docs.hold, docs.held
		docs.mu.Unlock()
		sp := sendJSON[gen.OpenAPISpec](t, w.testServer, http.StatusCreated, w.ada, "POST", w.path(""), map[string]any{"slug": "petstore", "source": src})
		if sp.ProcessingState != gen.OpenAPISpecProcessingStatePending || sp.SourceURL == nil || *sp.SourceURL != src["url"] {
			t.Fatalf("created: %+v", sp)
		}
		done := make(chan struct{})
		go func() { defer close(done); w.runJobs(t) }()
		<-held
		if got := w.spec(t, "petstore"); got.ProcessingState != gen.OpenAPISpecProcessingStateProgress {
			t.Fatalf("while fetching: %s", got.ProcessingState)
		}
		docs.mu.Lock()
		docs.hold = nil
		docs.mu.Unlock()
		close(hold)
		<-done
		wantProcessed(t, w.spec(t, "petstore"))
		if _, files := w.content(t, "petstore", "latest"); files["petstore.yaml"] == nil {
			t.Fatalf("filesystem not keyed by the document's name: %v", files)
		}
	})

	t.Run("TheRefreshJobFetchesAgainAndVersionsOnlyOnChange", func(t *testing.T) {
		if err := w.Runner.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		w.runJobs(t) // the refresh job's first run: nothing is due yet
		if w.versions(t, "petstore").Count != 1 {
			t.Fatal("refreshed too early")
		}
		pending, err := w.Store.PendingJobs(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if pending["refresh_openapi_specs"] != 1 || pending["process_openapi_spec"] != 0 {
			t.Fatalf("pending jobs: %v", pending)
		}
		before := *w.spec(t, "petstore").LastProcessedAt
		w.Clock.Advance(7 * time.Hour)
		w.runJobs(t) // the refresh queues the spec
		w.runJobs(t) // which is processed
		got := w.spec(t, "petstore")
		wantProcessed(t, got)
		if !got.LastProcessedAt.After(before) || w.versions(t, "petstore").Count != 1 {
			t.Fatalf("an unchanged document refreshed: %+v, %d versions", got, w.versions(t, "petstore").Count)
		}
		docs.set(strings.Replace(petstore30, "title: Petstore", "title: Petstore refreshed", 1), http.StatusOK)
		w.Clock.Advance(7 * time.Hour)
		w.runJobs(t)
		w.runJobs(t)
		if l := w.versions(t, "petstore"); l.Count != 2 || l.Items[0].Id != *w.spec(t, "petstore").LastVersion {
			t.Fatalf("a changed document made no version: %+v", l)
		}
		pending, _ = w.Store.PendingJobs(t.Context())
		if pending["refresh_openapi_specs"] != 1 {
			t.Fatalf("the refresh job did not recur once: %v", pending)
		}
	})

	t.Run("AFetchErrorKeepsTheVersion", func(t *testing.T) {
		last := *w.spec(t, "petstore").LastVersion
		docs.set("gone", http.StatusNotFound)
		w.put(t, "petstore", src)
		w.runJobs(t)
		got := w.spec(t, "petstore")
		wantProcessError(t, got, gen.OpenAPISpecProcessingErrorCodeFetchError, "404", "/specs/petstore.yaml")
		if *got.LastVersion != last {
			t.Fatal("a failed fetch changed the version")
		}
	})

	t.Run("ADownloadStopsAtTheCap", func(t *testing.T) {
		w.put(t, "huge", map[string]any{"url": docs.URL + "/huge.yaml"})
		w.runJobs(t)
		got := w.spec(t, "huge")
		wantProcessError(t, got, gen.OpenAPISpecProcessingErrorCodeFetchError, "limit")
		if got.LastProcessedErrors[0].Code != "TOO_LARGE" {
			t.Fatalf("error code %q", got.LastProcessedErrors[0].Code)
		}
	})

	t.Run("RefsToOtherDocumentsAreNotFetched", func(t *testing.T) {
		docs.set(strings.Replace(petstore30, "          description: The pets.\n",
			"          description: The pets.\n          content:\n            application/json:\n              schema:\n                $ref: '"+
				docs.URL+"/pet.yaml#/Pet'\n", 1), http.StatusOK)
		w.put(t, "remote-ref", map[string]any{"url": docs.URL + "/with-ref.yaml"})
		w.runJobs(t)
		wantProcessError(t, w.spec(t, "remote-ref"), gen.OpenAPISpecProcessingErrorCodeParseError, docs.URL+"/pet.yaml")
		docs.mu.Lock()
		defer docs.mu.Unlock()
		if docs.hits["/with-ref.yaml"] != 1 || docs.hits["/pet.yaml"] != 0 {
			t.Fatalf("requests: %v", docs.hits)
		}
	})

	t.Run("AParseErrorOfAFetchedDocument", func(t *testing.T) {
		docs.set("openapi: 3.1.0\ninfo: {title: [\n", http.StatusOK)
		w.put(t, "broken", src)
		w.runJobs(t)
		wantProcessError(t, w.spec(t, "broken"), gen.OpenAPISpecProcessingErrorCodeParseError, "line")
	})
}

func TestOpenAPIURLSourcesRefusePrivateAddresses(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, petstore30)
	w := newOpenAPIWorld(t, newTestServer(t))
	for _, tc := range []struct{ slug, url string }{
		{"loopback", docs.URL + "/petstore.yaml"},
		{"metadata", "http://169.254.169.254/latest/meta-data"},
		{"private", "http://10.1.2.3/openapi.json"},
	} {
		w.put(t, tc.slug, map[string]any{"url": tc.url})
		w.runJobs(t)
		got := w.spec(t, tc.slug)
		wantProcessError(t, got, gen.OpenAPISpecProcessingErrorCodeFetchError, "not allowed")
		if got.LastProcessedErrors[0].Code != "FORBIDDEN_ADDRESS" || got.LastVersion != nil {
			t.Fatalf("%s: %+v", tc.slug, got)
		}
	}
}
