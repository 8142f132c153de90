package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/publicspec"
	"github.com/quire-docs/quire/server"
)

// Embeds are read from the page a URL names (oEmbed when it has an endpoint, else OpenGraph or
// its title), through the guarded fetcher, cached, bounded in size and time.
func TestEmbeds(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	mux := http.NewServeMux()
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	mux.HandleFunc("/video", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><title>Ignored</title><link rel="alternate" type="application/json+oembed" href="/oembed?u=video">
<link rel="shortcut icon" href="/favicon.png"></head><body>x</body></html>`)
	})
	mux.HandleFunc("/oembed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"type":"video","version":"1.0","title":"A talk","provider_name":"Tube","html":"<iframe src=\"https://tube.test/e/1\"></iframe>"}`)
	})
	mux.HandleFunc("/article", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><head><meta property="og:title" content="Release notes"><meta property="og:site_name" content="Acme blog">
<title>Blog | Release notes</title><link rel="icon" href="https://cdn.test/i.ico"></head><body></body>`)
	})
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>\n  Just   a title\n</title><p>hi</p>")
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write(make([]byte, 600<<10))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(7 * time.Second):
		case <-r.Context().Done():
		}
	})

	w := newWorld(t, server.Options{AllowPrivateURLs: true})
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	get := func(u *testUser, link string) gen.Embed {
		t.Helper()
		return getJSON[gen.Embed](t, w.testServer, u, "/urls/embed?url="+url.QueryEscape(link))
	}

	video := get(w.reader, site.URL+"/video")
	if video.Type != gen.EmbedTypeRich || video.Title != "A talk" || video.Site != "Tube" || video.Html == nil ||
		*video.Html != `<iframe src="https://tube.test/e/1"></iframe>` || video.Icon == nil || *video.Icon != site.URL+"/favicon.png" {
		t.Fatalf("oEmbed video = %+v", video)
	}
	if again := get(w.reader, site.URL+"/video"); again.Title != "A talk" || hits.Load() != 1 {
		t.Fatalf("a second read fetched the page again (%d fetches)", hits.Load())
	}
	article := getJSON[gen.Embed](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/embed?url="+site.URL+"/article")
	if article.Type != gen.EmbedTypeLink || article.Title != "Release notes" || article.Site != "Acme blog" || article.Html != nil ||
		article.Icon == nil || *article.Icon != "https://cdn.test/i.ico" {
		t.Fatalf("OpenGraph article = %+v", article)
	}
	if p := get(w.reader, site.URL+"/plain"); p.Title != "Just a title" || p.Site != "127.0.0.1" {
		t.Fatalf("a page with a title only = %+v", p)
	}
	for _, path := range []string{"/missing", "/huge", "/slow"} {
		if e := get(w.reader, site.URL+path); e.Type != gen.EmbedTypeLink || e.Title != site.URL+path || e.Site != "127.0.0.1" {
			t.Fatalf("%s: %+v, want a link titled with the URL", path, e)
		}
	}
	wantPublic(t, publicspec.V202, "getEmbedByUrl", w.Expect(t, http.StatusOK, w.reader, "GET", "/urls/embed?url="+site.URL+"/video", nil))
	wantPublic(t, publicspec.V202, "getEmbedByUrlInSpace", w.Expect(t, http.StatusOK, w.reader, "GET", "/spaces/"+sp.Id+"/embed?url="+site.URL+"/article", nil))

	for _, bad := range []string{"ftp://example.com/x", "/relative", "not a url"} {
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.reader, "GET", "/urls/embed?url="+url.QueryEscape(bad), nil), "url")
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id+"/embed?url="+site.URL+"/article", nil)
	w.Expect(t, http.StatusUnauthorized, nil, "GET", "/urls/embed?url="+site.URL+"/article", nil)

	// With the address rule on, a loopback URL is refused, naming the field.
	guarded := newWorld(t)
	wantMessage(t, guarded.Expect(t, http.StatusBadRequest, guarded.reader, "GET", "/urls/embed?url="+site.URL+"/article", nil), "url", "not allowed")
}
