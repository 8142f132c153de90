// Package publicspec loads GitBook's published OpenAPI documents — @gitbook/api 0.146.0 (the
// seed's operations) and 0.202.0 (the current client) — from the compat suite's npm packages, for
// the tests that check quire's answers against them. make test installs the packages first
// (npm ci in testdata/compat); QUIRE_GITBOOK_SPEC_146 and QUIRE_GITBOOK_SPEC_202 name other files.
package publicspec

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// The published versions.
const (
	V146 = "0.146.0"
	V202 = "0.202.0"
)

var sources = map[string]struct{ env, pkg string }{
	V146: {"QUIRE_GITBOOK_SPEC_146", "@gitbook/api"},
	V202: {"QUIRE_GITBOOK_SPEC_202", "gitbook-api-latest"},
}

type loaded struct {
	once sync.Once
	doc  *openapi3.T
	err  error
}

var cache = map[string]*loaded{V146: {}, V202: {}}

// Load returns a published spec, loaded once per process.
func Load(version string) (*openapi3.T, error) {
	l, ok := cache[version]
	if !ok {
		return nil, fmt.Errorf("publicspec: no version %q (%s or %s)", version, V146, V202)
	}
	l.once.Do(func() {
		path, err := specPath(version)
		if err == nil {
			l.doc, err = openapi3.NewLoader().LoadFromFile(path)
		}
		if err == nil {
			mendDocument(l.doc)
			mendEditedAttributes(l.doc)
		}
		if err != nil {
			l.err = fmt.Errorf("GitBook's %s spec: %w (run `npm ci` in testdata/compat/; make test does it)", version, err)
		}
	})
	return l.doc, l.err
}

func specPath(version string) (string, error) {
	src := sources[version]
	if p := os.Getenv(src.env); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "compat", "node_modules", filepath.FromSlash(src.pkg), "spec", "openapi.json"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// mendDocument mends a modelling bug of both published specs, as the compat suite does
// (testdata/compat/validate.mjs, MENDS): Document's "Empty" branch is closed
// (additionalProperties: false), so inside RevisionPageDocument's allOf it can never match next
// to the page's own properties, and a page answered without markdown or document fails. Its
// intent is "neither markdown nor document".
func mendDocument(doc *openapi3.T) {
	ref := doc.Components.Schemas["Document"]
	if ref == nil || ref.Value == nil {
		return
	}
	for i, branch := range ref.Value.OneOf {
		b := branch.Value
		if b == nil || b.AdditionalProperties.Has == nil || *b.AdditionalProperties.Has ||
			b.Properties["markdown"] != nil || b.Properties["document"] != nil {
			continue
		}
		neither := openapi3.NewSchema()
		neither.Not = openapi3.NewSchemaRef("", openapi3.NewAnyOfSchema(
			&openapi3.Schema{Required: []string{"markdown"}}, &openapi3.Schema{Required: []string{"document"}}))
		ref.Value.OneOf[i] = openapi3.NewSchemaRef("", neither)
	}
}

// mendEditedAttributes mends a second modelling bug, as the compat suite does: a page_edited
// change's attributes are a oneOf of the document, group and link attribute objects, none of them
// closed and each taking any one attribute, so every attributes object matches two or three of
// them and no page_edited change validates. Its intent is "one of these shapes": anyOf.
func mendEditedAttributes(doc *openapi3.T) {
	ref := doc.Components.Schemas["RevisionSemanticChangePageEdited"]
	if ref == nil || ref.Value == nil || ref.Value.Properties["attributes"] == nil {
		return
	}
	attrs := ref.Value.Properties["attributes"].Value
	if attrs != nil && len(attrs.OneOf) > 0 {
		attrs.AnyOf, attrs.OneOf = attrs.OneOf, nil
	}
}

// Schema returns a component schema of a published spec.
func Schema(version, name string) (*openapi3.Schema, error) {
	doc, err := Load(version)
	if err != nil {
		return nil, err
	}
	ref := doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		return nil, fmt.Errorf("GitBook's %s spec has no schema %s", version, name)
	}
	return ref.Value, nil
}

// Validate checks a Go value, as it marshals to JSON, against a component schema of a published
// spec.
func Validate(version, schema string, value any) error {
	s, err := Schema(version, schema)
	if err != nil {
		return err
	}
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if err := s.VisitJSON(v); err != nil {
		return fmt.Errorf("not a %s of GitBook's %s spec: %w\n%s", schema, version, err, b)
	}
	return nil
}
