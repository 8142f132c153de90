package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/quire-docs/quire/server"
)

func TestValidationNamesTheField(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)

	t.Run("LimitOverMaximum", func(t *testing.T) {
		msg := ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs/"+org.Id+"/spaces?limit=1001", nil).ErrorMessage(t)
		if !strings.Contains(msg, `"limit"`) {
			t.Fatalf("message %q does not name limit", msg)
		}
	})
	t.Run("LimitAtMaximum", func(t *testing.T) {
		ts.Expect(t, http.StatusOK, alice, "GET", "/orgs/"+org.Id+"/spaces?limit=1000", nil)
	})
	t.Run("LimitNotANumber", func(t *testing.T) {
		msg := ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs?limit=ten", nil).ErrorMessage(t)
		if !strings.Contains(msg, `"limit"`) {
			t.Fatalf("message %q does not name limit", msg)
		}
	})
	t.Run("EnumQuery", func(t *testing.T) {
		msg := ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs/"+org.Id+"/members?sort=name", nil).ErrorMessage(t)
		if !strings.Contains(msg, `"sort"`) {
			t.Fatalf("message %q does not name sort", msg)
		}
	})
	t.Run("UnknownBodyField", func(t *testing.T) {
		msg := ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs/"+org.Id+"/collections",
			map[string]any{"title": "x", "colour": "red"}).ErrorMessage(t)
		if !strings.Contains(msg, "colour") {
			t.Fatalf("message %q does not name colour", msg)
		}
	})
	t.Run("WrongType", func(t *testing.T) {
		msg := ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs/"+org.Id+"/collections",
			map[string]any{"title": 12}).ErrorMessage(t)
		if !strings.Contains(msg, "title") {
			t.Fatalf("message %q does not name title", msg)
		}
	})
	t.Run("MalformedJSON", func(t *testing.T) {
		ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs/"+org.Id+"/collections", []byte(`{"title":`))
	})
	t.Run("MissingRequiredBody", func(t *testing.T) {
		msg := ts.Expect(t, http.StatusBadRequest, alice, "POST", "/orgs", nil).ErrorMessage(t)
		if !strings.Contains(strings.ToLower(msg), "body") {
			t.Fatalf("message %q does not name the body", msg)
		}
	})
}

// The handler receives the value that was validated: a second key differing only in case cannot
// smuggle a value past validation (Go's encoding/json matches keys case-insensitively).
func TestCaseVariantKeysCannotSmuggleValues(t *testing.T) {
	t.Parallel()
	c := newCast(t, "bob:read")
	ts, alice, bob, org := c.testServer, c.alice, c.bob, c.org

	ts.Expect(t, http.StatusBadRequest, alice, "PATCH", "/orgs/"+org.Id+"/members/"+bob.ID,
		[]byte(`{"role":"read","ROLE":"admin"}`))
	m := ts.Expect(t, http.StatusOK, alice, "GET", "/orgs/"+org.Id+"/members/"+bob.ID, nil).Map(t)
	if m["role"] != "read" {
		t.Fatalf("role = %v, want read", m["role"])
	}
}

func TestBodyOverLimitIs413(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	big := []byte(`{"title":"` + strings.Repeat("x", 1<<20) + `"}`)
	ts.Expect(t, http.StatusRequestEntityTooLarge, alice, "PATCH", "/orgs/"+org.Id, big)
	// Nothing changed.
	o := ts.Expect(t, http.StatusOK, alice, "GET", "/orgs/"+org.Id, nil).Map(t)
	if o["title"] != "Acme" {
		t.Fatalf("title = %v", o["title"])
	}
}

func TestRateLimitPerToken(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, server.Options{RateLimit: 3})
	alice := ts.MustCreateUser(t, "alice@example.com", "Alice")
	bob := ts.MustCreateUser(t, "bob@example.com", "Bob")
	for i := 0; i < 3; i++ {
		r := ts.Expect(t, http.StatusOK, alice, "GET", "/user", nil)
		if got := r.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(2-i) {
			t.Fatalf("request %d: X-RateLimit-Remaining = %q", i, got)
		}
		if r.Header.Get("X-RateLimit-Limit") != "3" || r.Header.Get("X-RateLimit-Reset") == "" {
			t.Fatalf("headers = %v", r.Header)
		}
	}
	r := ts.Expect(t, http.StatusTooManyRequests, alice, "GET", "/user", nil)
	if r.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("remaining = %q", r.Header.Get("X-RateLimit-Remaining"))
	}
	// Another token has its own budget.
	ts.Expect(t, http.StatusOK, bob, "GET", "/user", nil)
}

func TestUnknownPathAnswersErrorShape(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/v1/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d", res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("content type %q", ct)
	}
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
}

func TestURIFormatIsEnforced(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	msg := ts.Expect(t, http.StatusBadRequest, alice, "PATCH", "/orgs/"+org.Id, map[string]any{"logo": "not a url"}).ErrorMessage(t)
	if !strings.Contains(msg, "logo") {
		t.Fatalf("message %q does not name logo", msg)
	}
	o := ts.Expect(t, http.StatusOK, alice, "PATCH", "/orgs/"+org.Id, map[string]any{"logo": "https://example.com/logo.png"}).Map(t)
	if o["urls"].(map[string]any)["logo"] != "https://example.com/logo.png" {
		t.Fatalf("urls = %v", o["urls"])
	}
}

// A body is exactly one JSON value: anything after it is refused and nothing is applied.
func TestTrailingDataAfterJSONIsRefused(t *testing.T) {
	t.Parallel()
	ts, alice, org := newAcme(t)
	for _, body := range []string{`{"title":"T2"}}}garbage`, `{"title":"T2"} {"title":"T3"}`, `{"title":"T2"}x`} {
		r := ts.Expect(t, http.StatusBadRequest, alice, "PATCH", "/orgs/"+org.Id, []byte(body))
		wantMessage(t, r, "after the JSON value")
	}
	ts.Expect(t, http.StatusOK, alice, "PATCH", "/orgs/"+org.Id, []byte("{\"title\":\"T4\"}\n  "))
	if o := ts.Expect(t, http.StatusOK, alice, "GET", "/orgs/"+org.Id, nil).Map(t); o["title"] != "T4" {
		t.Fatalf("title = %v, want T4 (only the well-formed body applied)", o["title"])
	}
}

// A query value that does not decode is a 400 naming the parameter, not a parameter dropped.
func TestMalformedQueryIsRefused(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@example.com", "Alice")
	wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs?limit=%zz", nil), `"limit"`)
	wantMessage(t, ts.Expect(t, http.StatusBadRequest, alice, "GET", "/orgs?li%zzmit=2", nil), "parameter name")
	ts.Expect(t, http.StatusOK, alice, "GET", "/orgs?limit=%32", nil)
}

// Requests without a valid token are limited by the client's address: inventing a new token for
// every request buys no fresh budget, while a real token keeps its own.
func TestRateLimitOfFailedAuthIsPerAddress(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, server.Options{RateLimit: 3})
	alice := ts.MustCreateUser(t, "alice@example.com", "Alice")
	for i := 0; i < 3; i++ {
		fake := &testUser{Token: fmt.Sprintf("gb_api_invented%020d", i)}
		ts.Expect(t, http.StatusUnauthorized, fake, "GET", "/user", nil)
	}
	ts.Expect(t, http.StatusTooManyRequests, &testUser{Token: "gb_api_invented_once_more"}, "GET", "/user", nil)
	ts.Expect(t, http.StatusTooManyRequests, nil, "GET", "/user", nil)
	ts.Expect(t, http.StatusOK, alice, "GET", "/user", nil)
}

// X-Forwarded-For names the client only behind a trusted proxy.
func TestForwardedForCountsOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	forwardedAs := func(ts *testServer, from string) int {
		req, _ := http.NewRequest("GET", ts.URL+"/v1/user", nil)
		req.Header.Set("X-Forwarded-For", from)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	untrusting := newTestServer(t, server.Options{RateLimit: 1})
	if s := forwardedAs(untrusting, "203.0.113.1"); s != http.StatusUnauthorized {
		t.Fatalf("first request: %d", s)
	}
	if s := forwardedAs(untrusting, "203.0.113.2"); s != http.StatusTooManyRequests {
		t.Fatalf("a forged X-Forwarded-For bought a fresh budget: %d", s)
	}
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	trusting := newTestServer(t, server.Options{RateLimit: 1, TrustedProxies: []*net.IPNet{loopback}})
	if s := forwardedAs(trusting, "203.0.113.1"); s != http.StatusUnauthorized {
		t.Fatalf("first client: %d", s)
	}
	if s := forwardedAs(trusting, "203.0.113.2"); s != http.StatusUnauthorized {
		t.Fatalf("another client behind the trusted proxy has its own budget: %d", s)
	}
	if s := forwardedAs(trusting, "203.0.113.1"); s != http.StatusTooManyRequests {
		t.Fatalf("the first client again: %d", s)
	}
}

// Every request has an id: answered in X-Request-Id (a sane incoming one is kept) and written in
// every log line the request causes.
func TestRequestIDs(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	alice := ts.MustCreateUser(t, "alice@example.com", "Alice")
	a := ts.Expect(t, http.StatusOK, alice, "GET", "/user", nil).Header.Get("X-Request-Id")
	b := ts.Expect(t, http.StatusOK, alice, "GET", "/user", nil).Header.Get("X-Request-Id")
	if a == "" || a == b {
		t.Fatalf("request ids %q and %q: want two different ids", a, b)
	}
	get := func(incoming string) string {
		req, _ := http.NewRequest("GET", ts.URL+"/v1/user", nil)
		req.Header.Set("Authorization", "Bearer "+alice.Token)
		req.Header.Set("X-Request-Id", incoming)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header.Get("X-Request-Id")
	}
	if got := get("trace-42.a_b"); got != "trace-42.a_b" {
		t.Fatalf("a sane incoming id was replaced by %q", got)
	}
	if got := get("bad id\"<script>"); got == "" || strings.ContainsAny(got, " \"<") {
		t.Fatalf("an insane incoming id was answered as %q", got)
	}
	var seen int
	for _, line := range ts.Logs.Lines(t) {
		if line["msg"] == "request" && line["route"] == "/v1/user" {
			if line["request_id"] == a || line["request_id"] == b {
				seen++
			}
		}
	}
	if seen != 2 {
		t.Fatalf("%d request log lines carry the ids %q, %q; want 2", seen, a, b)
	}
}

// The contract is served without a token, as JSON and YAML, and both read back as the spec the
// binary was built from.
func TestContractIsServed(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	want := spec // as TestMain loaded it with gen.GetSwagger
	for _, path := range []string{"/openapi.json", "/openapi.yaml"} {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("ETag") == "" {
			t.Fatalf("%s: %d %v", path, res.StatusCode, res.Header)
		}
		doc, err := openapi3.NewLoader().LoadFromData(body)
		if err != nil {
			t.Fatalf("%s does not load as OpenAPI: %v", path, err)
		}
		if err := doc.Validate(context.Background()); err != nil {
			t.Fatalf("%s is not a valid document: %v", path, err)
		}
		if len(doc.Paths.Map()) != len(want.Paths.Map()) || doc.Info.Title != want.Info.Title {
			t.Fatalf("%s: %d paths, title %q; want %d, %q", path, len(doc.Paths.Map()), doc.Info.Title, len(want.Paths.Map()), want.Info.Title)
		}
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("If-None-Match", res.Header.Get("ETag"))
		again, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		again.Body.Close()
		if again.StatusCode != http.StatusNotModified {
			t.Fatalf("%s with its ETag: %d, want 304", path, again.StatusCode)
		}
	}
}

// /docs is the API reference rendered from the spec: every operation and schema, no token, no
// script, its stylesheet embedded and served by hash.
func TestDocsPage(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/docs")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /docs: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
		t.Fatalf("CSP %q", csp)
	}
	html := string(body)
	for path, item := range spec.Paths.Map() {
		for _, op := range item.Operations() {
			if !strings.Contains(html, `id="op-`+op.OperationID+`"`) {
				t.Errorf("the reference lacks %s (%s)", op.OperationID, path)
			}
		}
	}
	for name := range spec.Components.Schemas {
		if !strings.Contains(html, `id="schema-`+name+`"`) {
			t.Errorf("the reference lacks schema %s", name)
		}
	}
	if strings.Contains(html, "<script") {
		t.Error("the reference carries a script")
	}
	for _, want := range []string{`<html lang="en">`, "<title>", "<main", "<nav", `&#34;title&#34;: &#34;string&#34;`} {
		if !strings.Contains(html, want) {
			t.Errorf("the reference lacks %s", want)
		}
	}
	i := strings.Index(html, `href="/docs/style.`)
	if i < 0 {
		t.Fatal("no stylesheet link")
	}
	style := html[i+6 : i+6+strings.Index(html[i+6:], `"`)]
	css, err := http.Get(ts.URL + style)
	if err != nil {
		t.Fatal(err)
	}
	css.Body.Close()
	if css.StatusCode != http.StatusOK || !strings.Contains(css.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("GET %s: %d %v", style, css.StatusCode, css.Header)
	}
	if r, _ := http.Get(ts.URL + "/docs/other.css"); r.StatusCode != http.StatusNotFound {
		t.Fatalf("an unknown asset: %d", r.StatusCode)
	}
}
