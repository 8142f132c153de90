// Package translate keeps a space translated into another language through a machine translator
// that speaks the LibreTranslate HTTP protocol (POST /translate, GET /languages) or Apertium's
// (APy: GET /listPairs, /translate; see Translator and New): the clients, the markdown splitter that sends only text (code, URLs, link targets, conditions stay as they are),
// and the run that writes the result space as one merged change request.
package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/quire-docs/quire/internal/fetch"
)

// Client talks to a LibreTranslate-protocol server. Every request goes through the guarded fetcher.
type Client struct {
	URL     string // the server's base URL, without a trailing slash
	Key     string // api_key, "" when the server needs none
	Fetcher *fetch.Fetcher
}

// NewClient returns a client of the translator at url.
func NewClient(url, key string, f *fetch.Fetcher) *Client {
	return &Client{URL: strings.TrimRight(url, "/"), Key: key, Fetcher: f}
}

// Language is one entry of GET /languages: a code and the codes it translates into.
type Language struct {
	Code    string   `json:"code"`
	Name    string   `json:"name"`
	Targets []string `json:"targets"`
}

// Languages lists the languages the translator offers.
func (c *Client) Languages(ctx context.Context) ([]Language, error) {
	res, err := c.Fetcher.Get(ctx, c.URL+"/languages")
	if err != nil {
		return nil, c.explain(res, err)
	}
	var out []Language
	if err := json.Unmarshal(res.Body, &out); err != nil {
		return nil, fmt.Errorf("translator: GET /languages answered something other than a list of languages: %w", err)
	}
	return out, nil
}

// aliases are the codes a LibreTranslate server may use for quire's language codes, in the order
// tried: releases differ (Brazilian Portuguese is pt-BR or pb, Chinese zh or zh-Hans, Traditional
// Chinese zh-TW, zh-Hant or zt, Norwegian nb).
var aliases = map[string][]string{
	"pt-br": {"pt-BR", "pb", "pt"},
	"zh":    {"zh", "zh-Hans"},
	"zh-tw": {"zh-TW", "zh-Hant", "zt"},
	"yue":   {"yue", "zh-Hant"},
	"no":    {"nb", "no"},
}

// Resolve maps quire's source and target language codes to the translator's, checking that it
// translates from one into the other.
func Resolve(langs []Language, source, target string) (string, string, error) {
	find := func(code string) *Language {
		cands := aliases[code]
		if cands == nil {
			cands = []string{code}
		}
		for _, cand := range cands {
			for i := range langs {
				if strings.EqualFold(langs[i].Code, cand) {
					return &langs[i]
				}
			}
		}
		return nil
	}
	src, dst := find(source), find(target)
	if src == nil {
		return "", "", fmt.Errorf("the translator does not offer the source language %q", source)
	}
	if dst == nil {
		return "", "", fmt.Errorf("the translator does not offer the language %q", target)
	}
	for _, t := range src.Targets {
		if strings.EqualFold(t, dst.Code) {
			return src.Code, dst.Code, nil
		}
	}
	if src.Targets == nil { // servers that do not list targets translate between all their languages
		return src.Code, dst.Code, nil
	}
	return "", "", fmt.Errorf("the translator does not translate from %q into %q", source, target)
}

type translateRequest struct {
	Q      []string `json:"q"`
	Source string   `json:"source"`
	Target string   `json:"target"`
	Format string   `json:"format"`
	APIKey string   `json:"api_key,omitempty"`
}

// Translate translates plain-text segments (format "text") from source into target, in as few
// requests as the batch limits allow, and answers the translations in the same order.
func (c *Client) Translate(ctx context.Context, segments []string, source, target string) ([]string, error) {
	out := make([]string, 0, len(segments))
	for start := 0; start < len(segments); {
		end, chars := start, 0
		for end < len(segments) && end-start < maxBatchSegments && (end == start || chars+len(segments[end]) <= maxBatchChars) {
			chars += len(segments[end])
			end++
		}
		got, err := c.translateBatch(ctx, segments[start:end], source, target)
		if err != nil {
			return nil, batchError(start, end, len(segments), err)
		}
		out = append(out, got...)
		start = end
	}
	return out, nil
}

func (c *Client) translateBatch(ctx context.Context, q []string, source, target string) ([]string, error) {
	body, err := json.Marshal(translateRequest{Q: q, Source: source, Target: target, Format: "text", APIKey: c.Key})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL+"/translate", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("translator: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	res, err := c.Fetcher.Do(req)
	if err == nil && (res.StatusCode < 200 || res.StatusCode > 299) {
		err = fetch.ErrStatus
	}
	if err != nil {
		return nil, c.explain(res, err)
	}
	var answer struct {
		TranslatedText json.RawMessage `json:"translatedText"`
	}
	var texts []string
	if err := json.Unmarshal(res.Body, &answer); err == nil {
		err = json.Unmarshal(answer.TranslatedText, &texts)
	}
	if texts == nil && len(q) == 1 { // some servers answer a one-element q with a plain string
		var one string
		if json.Unmarshal(answer.TranslatedText, &one) == nil && answer.TranslatedText != nil {
			texts = []string{one}
		}
	}
	if len(texts) != len(q) {
		return nil, fmt.Errorf("translator: POST /translate answered %d translations for %d texts", len(texts), len(q))
	}
	return texts, nil
}

// explain turns a failed request into an error saying what the translator answered.
func (c *Client) explain(res *fetch.Response, err error) error {
	if res != nil && errors.Is(err, fetch.ErrStatus) {
		var e struct {
			Error string `json:"error"`
		}
		msg := strings.TrimSpace(string(res.Body))
		if json.Unmarshal(res.Body, &e) == nil && e.Error != "" {
			msg = e.Error
		}
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return fmt.Errorf("translator: the server answered %d: %s", res.StatusCode, msg)
	}
	return fmt.Errorf("translator: %w", err)
}

// Pair resolves quire's codes against the languages the LibreTranslate server lists.
func (c *Client) Pair(ctx context.Context, source, target string) (string, string, error) {
	langs, err := c.Languages(ctx)
	if err != nil {
		return "", "", err
	}
	return Resolve(langs, source, target)
}
