package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/server"
)

// A scrape after some traffic shows requests by route and status, their durations, requests in
// flight, job runs and failures by kind, the job queue and the database pools.
func TestMetricsAfterTraffic(t *testing.T) {
	t.Parallel()
	m := server.NewMetrics()
	ts := newTestServer(t, server.Options{Metrics: m})
	alice := ts.MustCreateUser(t, "alice@example.com", "Alice")
	ts.Expect(t, http.StatusOK, alice, "GET", "/user", nil)
	ts.Expect(t, http.StatusOK, alice, "GET", "/user", nil)
	ts.Expect(t, http.StatusNotFound, alice, "GET", "/orgs/nosuchorganization000", nil)
	ts.Expect(t, http.StatusUnauthorized, nil, "GET", "/user", nil)

	runner := ts.Runner
	runner.Observe = m.ObserveJob
	runner.Handlers["metrics_test_fails"] = jobs.Handler{Run: func(context.Context, string) error { return errors.New("boom") }}
	if err := ts.Store.EnqueueJob(context.Background(), "metrics_test_fails", "{}", ts.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	if err := ts.Store.EnqueueJob(context.Background(), "metrics_test_waits", "{}", ts.Clock.Now().Add(24*3600e9)); err != nil {
		t.Fatal(err)
	}
	if _, err := runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}

	scrape := httptest.NewServer(m.Handler())
	defer scrape.Close()
	res, err := http.Get(scrape.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	text := string(body)
	for _, want := range []string{
		`quire_http_requests_total{method="GET",route="/v1/user",status="200"} 2`,
		`quire_http_requests_total{method="GET",route="/v1/orgs/:organizationId",status="404"} 1`,
		`quire_http_requests_total{method="GET",route="/v1/user",status="401"} 1`,
		`quire_http_request_duration_seconds_count{method="GET",route="/v1/user"} 3`,
		`quire_http_requests_in_flight 0`,
		`quire_job_runs_total{kind="metrics_test_fails"} 1`,
		`quire_job_failures_total{kind="metrics_test_fails"} 1`,
		`quire_jobs_pending{kind="metrics_test_waits"} 1`,
		`quire_db_connections{pool="writer",state="idle"}`,
		`quire_db_connections{pool="reader",state="in_use"}`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the scrape lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("scrape:\n%s", text)
	}
}
