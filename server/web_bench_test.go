package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"
)

// benchDo sends an API request through the full handler and decodes a JSON answer into out.
func (f *benchFixture) benchDo(b *testing.B, method, path string, body, out any) {
	b.Helper()
	var rd *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	} else {
		rd = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, "/v1"+path, rd)
	req.Header.Set("Authorization", "Bearer "+f.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	f.e.ServeHTTP(rec, req)
	if rec.Code >= 300 {
		b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	if out != nil {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPageMarkdown is a page of a realistic size: prose, links to other pages, code, a table.
func benchPageMarkdown(i int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "This page documents part %d of the product. It explains what the part does, how to configure it and what to watch for.\n\n", i)
	for s := 0; s < 4; s++ {
		fmt.Fprintf(&sb, "## Step %d\n\nConfigure the widget with the options below, then see [the next part](/pages/p%d) and [its details](/pages/p%d#step-1). ", s+1, (i+1)%200, (i+7)%200)
		sb.WriteString("Each option has a default that suits most installations; change it only when the logs say so.\n\n")
		sb.WriteString("```go\nfunc configure(w *Widget) error {\n\tw.Timeout = 30 * time.Second\n\treturn w.Apply()\n}\n```\n\n")
	}
	sb.WriteString("| Option | Default | Meaning |\n| --- | --- | --- |\n| timeout | 30s | How long to wait |\n| retries | 3 | How often to try again |\n")
	return sb.String()
}

// BenchmarkWebPage200 renders a page of a published 200-page space (20 chapters of 10 pages)
// through the full handler, as a reader's browser asks for it, and reports the p95 time per
// page and the page's weight before images (uncompressed and gzipped). The targets:
// p95 ≤ 20 ms, ≤ 60 KB.
func BenchmarkWebPage200(b *testing.B) {
	f := newBenchFixture(b)
	var cr struct {
		ID string `json:"id"`
	}
	f.benchDo(b, "POST", "/spaces/"+f.spaceID+"/change-requests", map[string]any{"subject": "Seed"}, &cr)
	for batch := 0; batch < 4; batch++ {
		var changes []map[string]any
		for i := batch * 50; i < batch*50+50; i++ {
			c := map[string]any{"operation": "insert_page", "title": fmt.Sprintf("Page %d", i), "ref": fmt.Sprintf("p%d", i),
				"document": map[string]any{"markdown": benchPageMarkdown(i)}}
			if i%10 != 0 {
				c["into"] = fmt.Sprintf("p%d", i-i%10)
			}
			changes = append(changes, c)
		}
		f.benchDo(b, "POST", "/spaces/"+f.spaceID+"/change-requests/"+cr.ID+"/content", map[string]any{"changes": changes}, nil)
	}
	f.benchDo(b, "POST", "/spaces/"+f.spaceID+"/change-requests/"+cr.ID+"/merge", nil, nil)
	var site struct {
		ID string `json:"id"`
	}
	f.benchDo(b, "POST", "/orgs/"+f.orgID+"/sites", map[string]any{"title": "Bench Docs", "spaces": []string{f.spaceID}}, &site)
	f.benchDo(b, "POST", "/orgs/"+f.orgID+"/sites/"+site.ID+"/publish", nil, nil)

	get := func(gzip bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/s/"+site.ID+"/page-100/page-105", nil)
		if gzip {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		rec := httptest.NewRecorder()
		f.e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("page: %d %.500s", rec.Code, rec.Body)
		}
		return rec
	}
	plain, zipped := get(false), get(true)
	if !strings.Contains(plain.Body.String(), "Page 199") || !strings.Contains(plain.Body.String(), `class="chroma"`) {
		b.Fatalf("the page lacks its sidebar or code: %.500s", plain.Body)
	}
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		get(true)
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(plain.Body.Len())/1024, "page-KB")
	b.ReportMetric(float64(zipped.Body.Len())/1024, "gzip-KB")
}
