package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/translate"
)

// A translator that speaks neither LibreTranslate's protocol nor Apertium's (here: a web server
// that answers 404 to both, or a page of HTML) makes the run fail saying so: no result space
// content, no pages or words counted, the reason in lastError and in the log.
func TestTranslationRunAgainstAnUnknownProtocol(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request)
		want   []string
	}{
		{"not found", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
			[]string{"speaks neither LibreTranslate's protocol", "GET /languages", "answered 404", "nor Apertium's", "/listPairs"}},
		{"html", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html><body>hello</body></html>"))
		}, []string{"speaks neither", "GET /languages: answered something other than a list of languages",
			"GET /listPairs: answered something other than APy's list of pairs"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			other := httptest.NewServer(http.HandlerFunc(c.answer))
			t.Cleanup(other.Close)
			w := newTranslationWorld(t)
			probe, err := translate.New(translate.ProtocolAuto, other.URL, "", fetch.New(fetch.Options{AllowPrivate: true}))
			if err != nil {
				t.Fatal(err)
			}
			w.Runner.Translations(probe)
			w.edit(t, insertMarkdown("Hello", "Hello world.\n", "a"))
			tr := w.create(t, "fr", nil)
			got := w.run(t, tr.Id)
			if got.Result != nil || got.Stats.Runs != 1 || got.Stats.LatestPages != 0 || got.Stats.LatestWords != 0 {
				t.Fatalf("a run against another protocol: result %+v stats %+v", got.Result, got.Stats)
			}
			if got.LastError == nil {
				t.Fatal("the failed run answers no lastError")
			}
			for _, want := range c.want {
				if !strings.Contains(*got.LastError, want) {
					t.Errorf("lastError %q does not say %q", *got.LastError, want)
				}
			}
			if !w.loggedFailure(t, "speaks neither") {
				t.Fatal("no reason logged")
			}
		})
	}
}

// Probing finds a LibreTranslate server and translates through it.
func TestTranslationProbesLibreTranslate(t *testing.T) {
	t.Parallel()
	w := newTranslationWorld(t)
	probe, err := translate.New(translate.ProtocolAuto, w.lt.URL, translatorKey, fetch.New(fetch.Options{AllowPrivate: true}))
	if err != nil {
		t.Fatal(err)
	}
	w.Runner.Translations(probe)
	w.edit(t, insertMarkdown("Hello", "Hello world.\n", "a"))
	got := w.run(t, w.create(t, "fr", nil).Id)
	if got.Result == nil || got.LastError != nil || got.Stats.LatestPages != 1 {
		t.Fatalf("a probed LibreTranslate run: %+v %v", got.Stats, got.LastError)
	}
	if p := probe.(*translate.Probe).Protocol(); p != translate.ProtocolLibreTranslate {
		t.Fatalf("probed %q", p)
	}
}
