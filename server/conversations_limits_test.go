package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestConversationsIngestLimits: the limits the spec states, at and past each one; a refused
// conversation is not stored.
func TestConversationsIngestLimits(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	path := "/orgs/" + org.Id + "/conversations"
	parts := func(n, size int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = userMsg(strings.Repeat("é", size)) // characters, not bytes
		}
		return out
	}
	attrs := func(n int) map[string]any {
		out := map[string]any{}
		for i := 0; i < n; i++ {
			out[fmt.Sprintf("a%d", i)] = "v"
		}
		return out
	}
	// At the limits: accepted.
	for _, body := range []map[string]any{
		{"id": strings.Repeat("x", 255), "parts": parts(1, 10)},
		{"id": "subject", "subject": strings.Repeat("s", 512), "parts": parts(1, 10)},
		{"id": "many-parts", "parts": parts(100, 10)},
		{"id": "long-body", "parts": parts(1, 10000)},
		{"id": "no-parts", "parts": []any{}},
		{"id": "attrs", "parts": parts(1, 5), "metadata": map[string]any{"attributes": attrs(50), "url": strings.Repeat("u", 2048)}},
	} {
		convIngest(t, ts, alice, org.Id, body)
	}
	stored := convList(t, ts, alice, org.Id, "").Count

	// Past them, or malformed: 400 naming the field.
	for _, tc := range []struct {
		name  string
		body  any
		field string
	}{
		{"empty id", map[string]any{"id": "", "parts": parts(1, 5)}, "id"},
		{"long id", map[string]any{"id": strings.Repeat("x", 256), "parts": parts(1, 5)}, "id"},
		{"no id", map[string]any{"parts": parts(1, 5)}, "id"},
		{"no parts", map[string]any{"id": "a"}, "parts"},
		{"long subject", map[string]any{"id": "a", "subject": strings.Repeat("s", 513), "parts": parts(1, 5)}, "subject"},
		{"101 parts", map[string]any{"id": "a", "parts": parts(101, 5)}, "parts"},
		{"long body", map[string]any{"id": "a", "parts": parts(1, 10001)}, "body"},
		{"unknown role", map[string]any{"id": "a", "parts": []any{map[string]any{"type": "message", "role": "bot", "body": "x"}}}, "role"},
		{"unknown type", map[string]any{"id": "a", "parts": []any{map[string]any{"type": "note", "role": "user", "body": "x"}}}, "type"},
		{"part without body", map[string]any{"id": "a", "parts": []any{map[string]any{"type": "message", "role": "user"}}}, "body"},
		{"unknown field", map[string]any{"id": "a", "parts": parts(1, 5), "source": "email"}, "source"},
		{"51 attributes", map[string]any{"id": "a", "parts": parts(1, 5), "metadata": map[string]any{"attributes": attrs(51)}}, "attributes"},
		{"bad createdAt", map[string]any{"id": "a", "parts": parts(1, 5), "metadata": map[string]any{"createdAt": "yesterday"}}, "createdAt"},
		{"long url", map[string]any{"id": "a", "parts": parts(1, 5), "metadata": map[string]any{"url": strings.Repeat("u", 2049)}}, "url"},
		{"an array", []any{map[string]any{"id": "a", "parts": parts(1, 5)}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ts.Expect(t, http.StatusBadRequest, alice, "POST", path, tc.body)
			if msg := r.ErrorMessage(t); !strings.Contains(msg, tc.field) {
				t.Errorf("message %q does not name %q", msg, tc.field)
			}
		})
	}
	// Over 1 MiB: 413 before the body is read.
	ts.Expect(t, http.StatusRequestEntityTooLarge, alice, "POST", path,
		map[string]any{"id": "huge", "parts": parts(100, 6000)})
	if n := convList(t, ts, alice, org.Id, "").Count; n != stored {
		t.Fatalf("refused conversations were stored: %d, want %d", n, stored)
	}
}

// TestConversationsAccess: outsiders get 404, readers read, only admins ingest, guests read nothing.
func TestConversationsAccess(t *testing.T) {
	t.Parallel()
	c := newCast(t, "rita:read", "ed:edit", "gus:guest")
	ts, alice, reader, editor, guest, outsider, org := c.testServer, c.alice, c.rita, c.ed, c.gus, c.outsider, c.org
	convIngest(t, ts, alice, org.Id, map[string]any{"id": "c1", "parts": []any{userMsg(billingTexts[0])}})
	convAnalyse(t, ts)
	is := convIssues(t, ts, alice, org.Id, "").Items[0].Issue
	base := "/orgs/" + org.Id
	reads := []string{"/conversations", "/conversations/c1", "/conversations-issues", "/conversations-issues/" + is.Id,
		"/conversations-clusters", "/conversations-clusters/" + is.Cluster}
	for _, p := range reads {
		ts.Expect(t, http.StatusOK, reader, "GET", base+p, nil)
		ts.Expect(t, http.StatusForbidden, guest, "GET", base+p, nil)
		ts.Expect(t, http.StatusNotFound, outsider, "GET", base+p, nil)
		ts.Expect(t, http.StatusUnauthorized, nil, "GET", base+p, nil)
	}
	body := map[string]any{"id": "c2", "parts": []any{userMsg("x")}}
	ts.Expect(t, http.StatusForbidden, editor, "POST", base+"/conversations", body)
	ts.Expect(t, http.StatusForbidden, reader, "POST", base+"/conversations", body)
	ts.Expect(t, http.StatusNotFound, outsider, "POST", base+"/conversations", body)
	ts.Expect(t, http.StatusNotFound, alice, "POST", "/orgs/nope/conversations", body)
	if n := convList(t, ts, alice, org.Id, "").Count; n != 1 {
		t.Fatalf("refused ingestions stored conversations: %d", n)
	}
}
