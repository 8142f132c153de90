package openapispec

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/store"
)

func TestParseReadsTheThreeFormats(t *testing.T) {
	for _, tc := range []struct{ name, doc, format, title string }{
		{"Swagger20", "swagger: '2.0'\ninfo: {title: Two, version: '1'}\npaths: {}\n", "yaml", "Two"},
		{"OpenAPI30", "openapi: 3.0.3\ninfo: {title: Three, version: '1'}\npaths: {}\n", "yaml", "Three"},
		{"OpenAPI31JSON", `{"openapi":"3.1.0","info":{"title":"ThreeOne","version":"1"},"paths":{}}`, "json", "ThreeOne"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, errs := Parse([]byte(tc.doc))
			if errs != nil {
				t.Fatal(errs)
			}
			var m struct{ Info struct{ Title string } }
			if err := json.Unmarshal(p.JSON, &m); err != nil || p.Format != tc.format || m.Info.Title != tc.title {
				t.Fatalf("parsed %s %s: %v", p.Format, p.JSON, err)
			}
		})
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	_, errs := Parse([]byte("openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\n"))
	if len(errs) != 1 || errs[0].Code != store.OpenAPIParseError || !strings.Contains(errs[0].Message, "line 4, column") {
		t.Fatalf("errors: %+v", errs)
	}
	_, errs = Parse([]byte{0xff, 0xfe, 'x'})
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "UTF-8") {
		t.Fatalf("errors: %+v", errs)
	}
}

func TestASlowSourceIsAFetchTimeout(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	p := &Processor{Fetcher: fetch.New(fetch.Options{AllowPrivate: true, Timeout: 100 * time.Millisecond})}
	r := p.run(context.Background(), store.OpenAPISource{URL: slow.URL + "/openapi.yaml"})
	if r.ErrorCode != store.OpenAPIFetchTimeout || len(r.Errors) != 1 || r.Errors[0].Code != store.OpenAPIFetchTimeout ||
		!strings.Contains(r.Errors[0].Message, "100ms") {
		t.Fatalf("result: %+v", r)
	}
}
