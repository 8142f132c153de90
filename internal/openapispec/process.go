package openapispec

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/quire-docs/quire/internal/fetch"
	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/store"
)

// DefaultRefresh is how often a URL-sourced specification is fetched again.
const DefaultRefresh = 6 * time.Hour

// Store is what processing reads and writes: the organization's specifications, on the store's
// clock.
type Store interface {
	store.OpenAPISpecs
	store.Clock
}

// Processor turns a specification's source into a version.
type Processor struct {
	Store   Store
	Fetcher *fetch.Fetcher
}

// Register adds the OpenAPI jobs to a runner: processing one specification, and the recurring
// refresh of URL-sourced ones every refresh (0: DefaultRefresh). Call it before the runner starts.
func Register(r *jobs.Runner, p *Processor, refresh time.Duration) {
	if refresh <= 0 {
		refresh = DefaultRefresh
	}
	r.Handlers[store.JobProcessOpenAPISpec] = jobs.Handler{MaxAttempts: 3, Run: p.Process}
	// The refresh job is one row in the jobs table whatever the number of nodes (EnsureJob), and
	// it looks often enough that no specification waits much past its interval.
	r.Handlers[store.JobRefreshOpenAPISpecs] = jobs.Handler{
		Every: min(refresh, 10*time.Minute),
		Run: func(ctx context.Context, _ string) error {
			n, err := p.Store.QueueOpenAPIRefresh(ctx, p.Store.Now().Add(-refresh))
			if err == nil && n > 0 {
				r.Log.Info("queued OpenAPI specifications for refresh", "count", n)
			}
			return err
		},
	}
}

// Process runs one specification's processing: pending → progress → complete. A source changed
// while it ran makes it start over with the new one.
func (p *Processor) Process(ctx context.Context, specID string) error {
	for range 3 {
		w, err := p.Store.StartOpenAPIProcessing(ctx, specID)
		if store.ErrorCode(err) == store.ENOTFOUND {
			return nil // deleted since it was queued
		}
		if err != nil {
			return err
		}
		applied, err := p.Store.FinishOpenAPIProcessing(ctx, specID, w.Generation, p.run(ctx, w.Source))
		if err != nil || applied {
			return err
		}
	}
	return errors.New("openapi: the source kept changing while it was processed")
}

// run fetches and parses a source. Every failure is a result the specification shows.
func (p *Processor) run(ctx context.Context, src store.OpenAPISource) store.OpenAPIResult {
	doc := []byte(src.Text)
	name := ""
	if src.URL != "" {
		res, err := p.Fetcher.Get(ctx, src.URL)
		if err != nil {
			return fetchFailure(err)
		}
		doc = res.Body
		if u, err := url.Parse(res.URL); err == nil {
			name = path.Base(u.Path)
		}
	}
	parsed, errs := Parse(doc)
	if errs != nil {
		return store.OpenAPIResult{ErrorCode: store.OpenAPIParseError, Errors: errs, ErrorCount: len(errs)}
	}
	switch ext := strings.ToLower(path.Ext(name)); {
	case ext == ".json" || ext == ".yaml" || ext == ".yml":
	default:
		name = "openapi." + parsed.Format
	}
	files, err := json.Marshal(map[string]json.RawMessage{name: parsed.JSON})
	if err != nil {
		return store.OpenAPIResult{ErrorCode: store.OpenAPIParseError, Errors: []store.OpenAPIError{parseError(err.Error())}, ErrorCount: 1}
	}
	return store.OpenAPIResult{Document: doc, Filename: name, Format: parsed.Format, Filesystem: files}
}

// fetchFailure is the result of a fetch that failed, with the fetcher's reason as the message.
func fetchFailure(err error) store.OpenAPIResult {
	code, item := store.OpenAPIFetchError, store.OpenAPIFetchError
	switch {
	case errors.Is(err, fetch.ErrTimeout):
		code, item = store.OpenAPIFetchTimeout, store.OpenAPIFetchTimeout
	case errors.Is(err, fetch.ErrTooLarge):
		item = "TOO_LARGE"
	case errors.Is(err, fetch.ErrForbidden):
		item = "FORBIDDEN_ADDRESS"
	}
	return store.OpenAPIResult{ErrorCode: code, Errors: []store.OpenAPIError{{Message: err.Error(), Code: item}}, ErrorCount: 1}
}
