package translate_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/translate"
	"github.com/quire-docs/quire/internal/translate/libretest"
)

func loopback() *fetch.Fetcher { return fetch.New(fetch.Options{AllowPrivate: true}) }

// Segments go in arrays of at most 64, with the key and languages, and come back in order.
func TestClientBatches(t *testing.T) {
	lt := libretest.New("k")
	defer lt.Close()
	c := translate.NewClient(lt.URL+"/", "k", loopback())
	var in []string
	for i := range 150 {
		in = append(in, fmt.Sprintf("hello %d", i))
	}
	out, err := c.Translate(context.Background(), in, "en", "fr")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 150 || out[0] != "[fr] bonjour 0" || out[149] != "[fr] bonjour 149" {
		t.Fatalf("translations %q…", out[:3])
	}
	reqs := lt.Requests()
	if len(reqs) != 3 || len(reqs[0].Q) != 64 || len(reqs[2].Q) != 22 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		if r.APIKey != "k" || r.Source != "en" || r.Target != "fr" || r.Format != "text" {
			t.Fatalf("request %+v", r)
		}
	}
	// Long texts: a request stays under 8,000 characters unless one text is longer on its own.
	lt.Reset()
	long := []string{strings.Repeat("a ", 1500), strings.Repeat("b ", 1500), strings.Repeat("c ", 2500)}
	if _, err := c.Translate(context.Background(), long, "en", "fr"); err != nil {
		t.Fatal(err)
	}
	if reqs := lt.Requests(); len(reqs) != 2 || len(reqs[0].Q) != 2 || len(reqs[1].Q) != 1 {
		t.Fatalf("%d requests for long texts", len(reqs))
	}
}

// The translator's errors are told with what it answered; the guarded fetcher's rules hold.
func TestClientErrors(t *testing.T) {
	lt := libretest.New("k")
	defer lt.Close()
	ctx := context.Background()
	_, err := translate.NewClient(lt.URL, "wrong", loopback()).Translate(ctx, []string{"hello"}, "en", "fr")
	if err == nil || !strings.Contains(err.Error(), "answered 403: Invalid API key") {
		t.Fatalf("a wrong key: %v", err)
	}
	lt.Fail(http.StatusServiceUnavailable)
	_, err = translate.NewClient(lt.URL, "k", loopback()).Translate(ctx, []string{"hello"}, "en", "fr")
	if err == nil || !strings.Contains(err.Error(), "answered 503: Translation engine failure") {
		t.Fatalf("a failing translator: %v", err)
	}
	_, err = translate.NewClient(lt.URL, "k", fetch.New(fetch.Options{})).Languages(ctx)
	if err == nil || !strings.Contains(err.Error(), "translator:") {
		t.Fatalf("loopback without the rule lifted: %v", err)
	}
	lt.Close()
	if _, err := translate.NewClient(lt.URL, "k", loopback()).Languages(ctx); err == nil {
		t.Fatal("a translator that is down answered")
	}
}

// A server answering one text with a plain string (as LibreTranslate does for a string q) is
// understood; a count that does not match is an error.
func TestClientAnswerShapes(t *testing.T) {
	answer := `{"translatedText":"bonjour"}`
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, answer)
	}))
	defer hs.Close()
	c := translate.NewClient(hs.URL, "", loopback())
	if out, err := c.Translate(context.Background(), []string{"hello"}, "en", "fr"); err != nil || out[0] != "bonjour" {
		t.Fatalf("%q %v", out, err)
	}
	answer = `{"translatedText":["a"]}`
	if _, err := c.Translate(context.Background(), []string{"x", "y"}, "en", "fr"); err == nil || !strings.Contains(err.Error(), "1 translations for 2 texts") {
		t.Fatalf("a short answer: %v", err)
	}
}

func TestResolve(t *testing.T) {
	langs := []translate.Language{
		{Code: "en", Targets: []string{"fr", "pt-BR", "zh-Hans", "nb", "zt"}},
		{Code: "fr", Targets: []string{"en"}},
		{Code: "pt-BR", Targets: []string{"en"}},
		{Code: "zh-Hans", Targets: []string{"en"}},
		{Code: "nb", Targets: []string{"en"}},
		{Code: "zt", Targets: []string{"en"}},
	}
	for _, c := range []struct{ from, to, wantFrom, wantTo, err string }{
		{"en", "fr", "en", "fr", ""},
		{"en", "pt-br", "en", "pt-BR", ""},
		{"en", "zh", "en", "zh-Hans", ""},
		{"en", "no", "en", "nb", ""},
		{"en", "zh-tw", "en", "zt", ""}, // LibreTranslate's code for traditional Chinese
		{"pt-br", "en", "pt-BR", "en", ""},
		{"en", "ja", "", "", `does not offer the language "ja"`},
		{"ko", "en", "", "", `does not offer the source language "ko"`},
		{"fr", "pt-br", "", "", `does not translate from "fr" into "pt-br"`},
	} {
		from, to, err := translate.Resolve(langs, c.from, c.to)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s→%s: %v, want %q", c.from, c.to, err, c.err)
			}
			continue
		}
		if err != nil || from != c.wantFrom || to != c.wantTo {
			t.Errorf("%s→%s: %s→%s %v", c.from, c.to, from, to, err)
		}
	}
}
