package translate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/quire-docs/quire/internal/fetch"
)

// APy is a client of Apertium's HTTP service (apertium-apy): GET /listPairs lists the installed
// pairs in ISO 639-3 codes, POST /translate translates one text (form fields langpair "eng|spa",
// q, format, markUnknown, key). Every request goes through the guarded fetcher.
type APy struct {
	URL     string // the service's base URL, without a trailing slash
	Key     string // key (APy's --api-keys), "" when the service needs none
	Fetcher *fetch.Fetcher
}

// NewAPy returns a client of the APy service at url.
func NewAPy(url, key string, f *fetch.Fetcher) *APy {
	return &APy{URL: strings.TrimRight(url, "/"), Key: key, Fetcher: f}
}

// apyAnswer is the envelope of APy's answers.
type apyAnswer struct {
	ResponseData    json.RawMessage `json:"responseData"`
	ResponseDetails any             `json:"responseDetails"`
	ResponseStatus  int             `json:"responseStatus"`
	Explanation     string          `json:"explanation"` // on errors
	Message         string          `json:"message"`
}

// APyPair is one installed pair of /listPairs.
type APyPair struct {
	Source string `json:"sourceLanguage"`
	Target string `json:"targetLanguage"`
}

// Pairs lists the installed translation pairs.
func (a *APy) Pairs(ctx context.Context) ([]APyPair, error) {
	res, err := a.Fetcher.Get(ctx, a.URL+"/listPairs")
	if err != nil {
		return nil, a.explain(res, err)
	}
	var ans apyAnswer
	var pairs []APyPair
	if err := json.Unmarshal(res.Body, &ans); err != nil || ans.ResponseStatus != http.StatusOK ||
		json.Unmarshal(ans.ResponseData, &pairs) != nil {
		return nil, fmt.Errorf("translator: GET /listPairs answered something other than APy's list of pairs")
	}
	return pairs, nil
}

// Pair maps quire's codes to the installed pair's (ISO 639-3, with a variant such as por_BR when
// one matches the region).
func (a *APy) Pair(ctx context.Context, source, target string) (string, string, error) {
	pairs, err := a.Pairs(ctx)
	if err != nil {
		return "", "", err
	}
	return ResolveAPy(pairs, source, target)
}

// ResolveAPy finds the pair translating quire's source into target: the candidates of each code
// (Apertium639_3) in order, a pair code matching exactly or as its base before "_".
func ResolveAPy(pairs []APyPair, source, target string) (string, string, error) {
	srcCands, dstCands := Apertium639_3(source), Apertium639_3(target)
	has := func(cands []string, side func(APyPair) string) bool {
		for _, p := range pairs {
			for _, c := range cands {
				if codeMatches(side(p), c) {
					return true
				}
			}
		}
		return false
	}
	src := func(p APyPair) string { return p.Source }
	dst := func(p APyPair) string { return p.Target }
	// Exact codes before bases: "eng" → "spa" before "eng" → "spa_ES".
	for _, exact := range []bool{true, false} {
		for _, sc := range srcCands {
			for _, dc := range dstCands {
				for _, p := range pairs {
					if exact && p.Source == sc && p.Target == dc ||
						!exact && codeMatches(p.Source, sc) && codeMatches(p.Target, dc) {
						return p.Source, p.Target, nil
					}
				}
			}
		}
	}
	switch {
	case !has(srcCands, src):
		return "", "", fmt.Errorf("the translator does not offer the source language %q (Apertium %s)", source, strings.Join(srcCands, ", "))
	case !has(dstCands, dst):
		return "", "", fmt.Errorf("the translator does not offer the language %q (Apertium %s)", target, strings.Join(dstCands, ", "))
	}
	return "", "", fmt.Errorf("the translator does not translate from %q into %q (no Apertium pair %s-%s installed)",
		source, target, srcCands[0], dstCands[0])
}

// codeMatches tells whether a pair's code is cand, or cand with a variant ("eng_US" for "eng").
func codeMatches(code, cand string) bool {
	return code == cand || strings.HasPrefix(code, cand+"_")
}

// apySeparator joins a batch's segments into one text: a blank line is a paragraph break that
// Apertium keeps as it is (segments have no line breaks of their own).
const apySeparator = "\n\n"

// Translate translates segments, many per request joined by blank lines; a batch whose answer
// does not split back into as many texts is sent again one segment per request.
func (a *APy) Translate(ctx context.Context, segments []string, from, to string) ([]string, error) {
	out := make([]string, 0, len(segments))
	for start := 0; start < len(segments); {
		end, chars := start, 0
		for end < len(segments) && end-start < maxBatchSegments && (end == start || chars+len(segments[end]) <= maxBatchChars) {
			chars += len(segments[end]) + len(apySeparator)
			end++
		}
		batch := segments[start:end]
		text, err := a.translate(ctx, strings.Join(batch, apySeparator), from, to)
		if err != nil {
			return nil, batchError(start, end, len(segments), err)
		}
		got := strings.Split(text, apySeparator)
		if len(got) != len(batch) {
			got = got[:0]
			for _, s := range batch {
				one, err := a.translate(ctx, s, from, to)
				if err != nil {
					return nil, batchError(start, end, len(segments), err)
				}
				got = append(got, one)
			}
		}
		out = append(out, got...)
		start = end
	}
	return out, nil
}

func (a *APy) translate(ctx context.Context, q, from, to string) (string, error) {
	form := url.Values{"langpair": {from + "|" + to}, "q": {q}, "format": {"txt"}, "markUnknown": {"no"}}
	if a.Key != "" {
		form.Set("key", a.Key)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.URL+"/translate", strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("translator: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := a.Fetcher.Do(req)
	if err == nil && (res.StatusCode < 200 || res.StatusCode > 299) {
		err = fetch.ErrStatus
	}
	if err != nil {
		return "", a.explain(res, err)
	}
	var ans apyAnswer
	var data struct {
		TranslatedText *string `json:"translatedText"`
	}
	if json.Unmarshal(res.Body, &ans) != nil || json.Unmarshal(ans.ResponseData, &data) != nil || data.TranslatedText == nil {
		return "", fmt.Errorf("translator: POST /translate answered no translatedText")
	}
	return *data.TranslatedText, nil
}

// explain turns a failed request into an error saying what APy answered.
func (a *APy) explain(res *fetch.Response, err error) error {
	if res != nil && res.StatusCode >= 400 {
		var ans apyAnswer
		msg := strings.TrimSpace(string(res.Body))
		if json.Unmarshal(res.Body, &ans) == nil && (ans.Explanation != "" || ans.Message != "") {
			msg = strings.TrimSpace(ans.Message + ": " + ans.Explanation)
		}
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		return fmt.Errorf("translator: the server answered %d: %s", res.StatusCode, msg)
	}
	return fmt.Errorf("translator: %w", err)
}
