// Package openapispec processes OpenAPI specifications: it fetches a source through the guarded
// fetcher, parses the document (Swagger 2.0, OpenAPI 3.0 or 3.1) with pb33f/libopenapi, and
// records the outcome as a version or as errors. Processing runs as a durable job.
package openapispec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/quire-docs/quire/store"
)

// Parsed is a document that parsed: its format (json or yaml) and its content as a JSON object.
type Parsed struct {
	Format string
	JSON   []byte
}

// collector is libopenapi's logger for one parse: what it reports at error level (a reference
// that cannot be found, with the line it is on) comes back as processing errors.
type collector struct {
	slog.Handler
	msgs *[]string
}

func newCollector() (*slog.Logger, *[]string) {
	msgs := &[]string{}
	return slog.New(collector{Handler: slog.NewTextHandler(io.Discard, nil), msgs: msgs}), msgs
}

func (c collector) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }

func (c collector) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "reference" || a.Key == "file" {
			msg += " (" + a.Key + " " + a.Value.String() + ")"
		}
		return true
	})
	*c.msgs = append(*c.msgs, msg)
	return nil
}

func (c collector) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c collector) WithGroup(string) slog.Handler      { return c }

// lineCol is how the YAML parser names a place ("L4.C11"), rewritten for people.
var lineCol = regexp.MustCompile(`\bL(\d+)\.C(\d+)\b`)

func parseError(msg string) store.OpenAPIError {
	msg = lineCol.ReplaceAllString(strings.TrimSpace(msg), "line $1, column $2")
	return store.OpenAPIError{Message: msg, Code: store.OpenAPIParseError}
}

// Parse reads a document as Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1. References to other files
// or hosts are not followed: such a reference is reported like a missing one.
func Parse(doc []byte) (*Parsed, []store.OpenAPIError) {
	if !utf8.Valid(doc) {
		return nil, []store.OpenAPIError{parseError("The document is not UTF-8 text.")}
	}
	logger, logged := newCollector()
	d, err := libopenapi.NewDocumentWithConfiguration(doc, &datamodel.DocumentConfiguration{Logger: logger})
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "spec type not supported") {
			msg = `The document is not an OpenAPI specification: it has no "openapi" or "swagger" version field at the top.`
		}
		return nil, []store.OpenAPIError{parseError(msg)}
	}
	info := d.GetSpecInfo()
	switch {
	case info.SpecType == "swagger" && strings.HasPrefix(info.Version, "2.0"):
		_, err = d.BuildV2Model()
	case info.SpecType == "openapi" && (strings.HasPrefix(info.Version, "3.0") || strings.HasPrefix(info.Version, "3.1")):
		_, err = d.BuildV3Model()
	default:
		return nil, []store.OpenAPIError{parseError(fmt.Sprintf(
			`Version %q of %q is not supported: quire reads Swagger 2.0, OpenAPI 3.0 and OpenAPI 3.1.`, info.Version, info.SpecType))}
	}
	if err != nil {
		var errs []store.OpenAPIError
		seen := map[string]bool{}
		add := func(msg string) {
			if !seen[msg] {
				seen[msg] = true
				errs = append(errs, parseError(msg))
			}
		}
		for _, e := range flatten(err) {
			add(e.Error())
		}
		for _, m := range *logged {
			add(m)
		}
		return nil, errs
	}
	js := info.GetSpecJSONBytes()
	if err := info.GetSpecJSONError(); err != nil || js == nil || !json.Valid(*js) {
		msg := "The document cannot be represented as JSON"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, []store.OpenAPIError{parseError(msg + ".")}
	}
	format := "yaml"
	if info.SpecFileType == datamodel.JSONFileType {
		format = "json"
	}
	return &Parsed{Format: format, JSON: *js}, nil
}

// flatten lists the errors an errors.Join (nested or not) holds.
func flatten(err error) []error {
	var j interface{ Unwrap() []error }
	if !errors.As(err, &j) {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, flatten(e)...)
	}
	return out
}
