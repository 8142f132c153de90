package server_test

import (
	"net/http"
	"testing"
	"time"
)

// TestRequestLogLine: every request leaves one JSON line with its method, route, status and
// duration, at level INFO with its time and request id.
func TestRequestLogLine(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@example.com", "Alice")
	before := time.Now()
	id := ts.Expect(t, http.StatusNotFound, alice, "GET", "/spaces/nosuchspace", nil).Header.Get("X-Request-Id")
	var found int
	for _, line := range ts.Logs.Lines(t) {
		if line["msg"] != "request" || line["request_id"] != id {
			continue
		}
		found++
		at, err := time.Parse(time.RFC3339Nano, line["time"].(string))
		if line["level"] != "INFO" || line["method"] != "GET" || line["route"] != "/v1/spaces/:spaceId" ||
			line["status"] != float64(http.StatusNotFound) || err != nil || at.Before(before.Add(-time.Second)) {
			t.Errorf("request line %v", line)
		}
		if d, ok := line["duration"].(float64); !ok || d <= 0 {
			t.Errorf("request line without a duration: %v", line)
		}
	}
	if found != 1 {
		t.Fatalf("%d request lines with id %q, want 1", found, id)
	}
}
