// Package libretest is a LibreTranslate-protocol server for tests. LibreTranslate itself is a
// Python service (and its models) that cannot be installed where quire's tests run, so the tests
// run quire's client against this one: it checks each request's shape the way LibreTranslate
// does (method, JSON body, q as a string or an array, source, target among its languages,
// format, api_key) and translates deterministically: each word through a small dictionary (the
// others unchanged), the whole marked "[target]", so a test can tell what was sent and what came
// back.
package libretest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Request is one POST /translate the server received.
type Request struct {
	Q      []string
	Source string
	Target string
	Format string
	APIKey string
}

// Server is a running LibreTranslate-protocol server on loopback.
type Server struct {
	*httptest.Server
	// Key is the api_key every request must carry ("" accepts any).
	Key string
	// Dictionary translates words (lower-case) into the target; others stay as they are.
	Dictionary map[string]string
	// OnTranslate, when set, is called for each POST /translate before it is answered (tests move
	// their clock there).
	OnTranslate func()

	mu       sync.Mutex
	requests []Request
	fail     int // the status to answer POST /translate with, 0: translate
}

// Languages are the ones the server offers: codes as LibreTranslate gives them.
var Languages = []map[string]any{
	{"code": "en", "name": "English", "targets": []string{"fr", "de", "pt-BR"}},
	{"code": "fr", "name": "French", "targets": []string{"en", "de"}},
	{"code": "de", "name": "German", "targets": []string{"en", "fr"}},
	{"code": "pt-BR", "name": "Portuguese (Brazil)", "targets": []string{"en"}},
}

// New starts a server; it stops when the test's cleanup runs Close.
func New(key string) *Server {
	s := &Server{Key: key, Dictionary: map[string]string{
		"hello": "bonjour", "world": "monde", "the": "le", "page": "page", "install": "installer",
		"guide": "guide", "read": "lisez", "and": "et", "with": "avec", "see": "voir",
	}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /languages", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(Languages)
	})
	mux.HandleFunc("POST /translate", s.translate)
	s.Server = httptest.NewServer(mux)
	return s
}

// Fail makes POST /translate answer status (an error, as LibreTranslate words them) until
// Fail(0).
func (s *Server) Fail(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = status
}

// Requests returns the POST /translate requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Sent returns every text sent so far, in order.
func (s *Server) Sent() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Q...)
	}
	return out
}

// Reset forgets the requests received.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

func fail(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func (s *Server) translate(w http.ResponseWriter, r *http.Request) {
	if s.OnTranslate != nil {
		s.OnTranslate()
	}
	var body struct {
		Q      json.RawMessage `json:"q"`
		Source string          `json:"source"`
		Target string          `json:"target"`
		Format string          `json:"format"`
		APIKey string          `json:"api_key"`
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		fail(w, http.StatusBadRequest, "Content-Type must be application/json")
		return
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		fail(w, http.StatusBadRequest, "Invalid request: "+err.Error())
		return
	}
	var q []string
	var one string
	single := json.Unmarshal(body.Q, &one) == nil
	if single {
		q = []string{one}
	} else if err := json.Unmarshal(body.Q, &q); err != nil || len(q) == 0 {
		fail(w, http.StatusBadRequest, "Invalid request: missing q parameter")
		return
	}
	req := Request{Q: q, Source: body.Source, Target: body.Target, Format: body.Format, APIKey: body.APIKey}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	status := s.fail
	s.mu.Unlock()
	switch {
	case status != 0:
		fail(w, status, "Translation engine failure")
		return
	case s.Key != "" && body.APIKey != s.Key:
		fail(w, http.StatusForbidden, "Invalid API key")
		return
	case body.Format != "text" && body.Format != "html":
		fail(w, http.StatusBadRequest, "Invalid format")
		return
	}
	ok := false
	for _, l := range Languages {
		if l["code"] == body.Source {
			for _, t := range l["targets"].([]string) {
				ok = ok || t == body.Target
			}
		}
	}
	if !ok {
		fail(w, http.StatusBadRequest, body.Source+" to "+body.Target+" is not supported")
		return
	}
	out := make([]string, len(q))
	for i, text := range q {
		words := strings.Fields(text)
		for j, word := range words {
			if tr, ok := s.Dictionary[strings.ToLower(word)]; ok {
				words[j] = tr
			}
		}
		out[i] = "[" + body.Target + "] " + strings.Join(words, " ")
	}
	w.Header().Set("Content-Type", "application/json")
	if single {
		_ = json.NewEncoder(w).Encode(map[string]string{"translatedText": out[0]})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string][]string{"translatedText": out})
}
