package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
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
		{"not an object or array", "a", "body"},
		{"an array with a bad item", []any{map[string]any{"id": "a", "parts": parts(1, 5)}, map[string]any{"id": "b", "parts": parts(1, 10001)}}, "[1].parts[0].body"},
		{"an array with a bad item's field", []any{map[string]any{"id": "a", "parts": parts(1, 5)}, map[string]any{"id": "b", "parts": parts(1, 5), "source": "x"}}, `[1]": property "source"`},
		{"an array of an array", []any{[]any{map[string]any{"id": "a", "parts": parts(1, 5)}}}, "[0]"},
		{"1001 conversations", manyConversations(1001), "body"},
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

// manyConversations is an array body of n small conversations, c0…c(n-1).
func manyConversations(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"id": fmt.Sprintf("c%d", i), "parts": []any{userMsg("x")}}
	}
	return out
}

// TestConversationsIngestArray: the array body (0.146.0's other oneOf branch) stores every item in
// one call, all or none, and one analysis pass covers them.
func TestConversationsIngestArray(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	path := "/orgs/" + org.Id + "/conversations"
	ts.Expect(t, http.StatusNoContent, alice, "POST", path, []any{})
	if n := convList(t, ts, alice, org.Id, "").Count; n != 0 {
		t.Fatalf("an empty array stored %d conversations", n)
	}
	// One invalid item: 400 naming its index, and none of the valid ones before it is stored.
	bad := manyConversations(3)
	bad[2] = map[string]any{"id": "", "parts": []any{userMsg("x")}}
	r := ts.Expect(t, http.StatusBadRequest, alice, "POST", path, bad)
	if msg := r.ErrorMessage(t); !strings.Contains(msg, "[2].id") {
		t.Errorf("message %q does not name item 2's id", msg)
	}
	if n := convList(t, ts, alice, org.Id, "").Count; n != 0 {
		t.Fatalf("a refused array stored %d conversations", n)
	}
	// At the limit: 1,000 conversations in one request.
	ts.Expect(t, http.StatusNoContent, alice, "POST", path, manyConversations(1000))
	if n := convList(t, ts, alice, org.Id, "").Count; n != 1000 {
		t.Fatalf("stored %d of 1000", n)
	}
	// Items carry their own subject and metadata; a later item replaces an earlier one's id.
	ts.Expect(t, http.StatusNoContent, alice, "POST", path, []any{
		map[string]any{"id": "c1", "subject": "Export", "parts": []any{userMsg(billingTexts[0])},
			"metadata": map[string]any{"url": "https://help.example/c1", "attributes": map[string]any{"plan": "pro"}}},
		map[string]any{"id": "c2", "parts": []any{userMsg(billingTexts[1])}},
		map[string]any{"id": "c2", "parts": []any{userMsg(billingTexts[2])}},
	})
	c1 := getJSON[gen.ConversationWithParts](t, ts, alice, "/orgs/"+org.Id+"/conversations/c1")
	if c1.Conversation.Subject == nil || *c1.Conversation.Subject != "Export" || c1.Parts[0].Body != billingTexts[0] ||
		c1.Metadata.Url == nil || (*c1.Metadata.Attributes)["plan"] != "pro" {
		t.Errorf("c1 %+v", c1)
	}
	c2 := getJSON[gen.ConversationWithParts](t, ts, alice, "/orgs/"+org.Id+"/conversations/c2")
	if c2.Parts[0].Body != billingTexts[2] {
		t.Errorf("c2 holds %q, want the later item's", c2.Parts[0].Body)
	}
	if n := convList(t, ts, alice, org.Id, "").Count; n != 1000 {
		t.Fatalf("%d conversations after re-ingesting two", n)
	}
	if n := convAnalyse(t, ts); n != 1 {
		t.Fatalf("%d analysis jobs ran, want one for the whole array", n)
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
