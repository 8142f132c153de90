package translate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/quire-docs/quire/internal/fetch"
)

// Translator is a machine translation service as a run uses it: Pair maps quire's language codes
// (GitBook's, ISO 639-1) to the service's and checks it translates from one into the other;
// Translate translates plain-text segments between the codes Pair answered, in order.
type Translator interface {
	Pair(ctx context.Context, source, target string) (from, to string, err error)
	Translate(ctx context.Context, segments []string, from, to string) ([]string, error)
}

// The protocols a translator may speak (--translator).
const (
	ProtocolAuto           = ""               // told apart by probing
	ProtocolLibreTranslate = "libretranslate" // GET /languages, POST /translate with JSON
	ProtocolApertium       = "apertium"       // Apertium's APy: GET /listPairs, /translate?langpair=&q=
)

// New returns the translator at url speaking protocol (ProtocolAuto: probed on first use).
func New(protocol, url, key string, f *fetch.Fetcher) (Translator, error) {
	switch strings.ToLower(protocol) {
	case ProtocolLibreTranslate:
		return NewClient(url, key, f), nil
	case ProtocolApertium, "apy":
		return NewAPy(url, key, f), nil
	case ProtocolAuto, "auto":
		return &Probe{URL: strings.TrimRight(url, "/"), Key: key, Fetcher: f}, nil
	}
	return nil, fmt.Errorf("unknown translator protocol %q (libretranslate, apertium or auto)", protocol)
}

// Probe is a translator whose protocol is found by asking: LibreTranslate's GET /languages, then
// APy's GET /listPairs. The first that answers its protocol's shape is used from then on; a
// service that answers neither is an error naming both answers.
type Probe struct {
	URL     string
	Key     string
	Fetcher *fetch.Fetcher

	mu    sync.Mutex
	found Translator
}

// Pair probes the service (once it answered, no more) and resolves the codes through it.
func (p *Probe) Pair(ctx context.Context, source, target string) (string, string, error) {
	t, err := p.detect(ctx)
	if err != nil {
		return "", "", err
	}
	return t.Pair(ctx, source, target)
}

// Translate translates through the protocol found (probing first when Pair was not called).
func (p *Probe) Translate(ctx context.Context, segments []string, from, to string) ([]string, error) {
	t, err := p.detect(ctx)
	if err != nil {
		return nil, err
	}
	return t.Translate(ctx, segments, from, to)
}

// Protocol answers the protocol found, ProtocolAuto before a probe succeeded.
func (p *Probe) Protocol() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.found.(type) {
	case *Client:
		return ProtocolLibreTranslate
	case *APy:
		return ProtocolApertium
	}
	return ProtocolAuto
}

func (p *Probe) detect(ctx context.Context) (Translator, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.found != nil {
		return p.found, nil
	}
	lt := NewClient(p.URL, p.Key, p.Fetcher)
	_, ltErr := lt.Languages(ctx)
	if ltErr == nil {
		p.found = lt
		return lt, nil
	}
	apy := NewAPy(p.URL, p.Key, p.Fetcher)
	_, apyErr := apy.Pairs(ctx)
	if apyErr == nil {
		p.found = apy
		return apy, nil
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, ctx.Err()
	}
	return nil, fmt.Errorf("the translator at %s speaks neither LibreTranslate's protocol (GET /languages: %s) nor Apertium's (GET /listPairs: %s)",
		p.URL, probeAnswer(ltErr, "GET /languages "), probeAnswer(apyErr, "GET /listPairs "))
}

// probeAnswer is what a probe's request answered, without the prefixes the error carries.
func probeAnswer(err error, request string) string {
	return strings.TrimPrefix(strings.TrimPrefix(err.Error(), "translator: "), request)
}
