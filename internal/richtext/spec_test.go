package richtext

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// The documents richtext produces are checked against GitBook's published schema itself, as
// shipped in the compat suite's npm packages: 0.146.0 (the seed's) always, 0.202.0 when the
// suite has it.
var publicSpecs = []struct {
	name, path string
	required   bool
}{
	{"@gitbook/api 0.146.0", "../../testdata/compat/node_modules/@gitbook/api/spec/openapi.json", true},
	{"@gitbook/api 0.202.0", "../../testdata/compat/node_modules/gitbook-api-latest/spec/openapi.json", false},
}

// publicJSONDocument loads the JSONDocument schema of a public spec. It is validated directly:
// the spec's Document "Empty" branch (additionalProperties: false) can never match inside
// RevisionPageDocument's allOf, a modelling bug of the public spec.
func publicJSONDocument(t *testing.T, path string, required bool) *openapi3.Schema {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if required {
			abs, _ := filepath.Abs(path)
			t.Fatalf("%s is missing: run `npm ci` in testdata/compat/ (make test does it)", abs)
		}
		return nil
	}
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromFile(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	ref := spec.Components.Schemas["JSONDocument"]
	if ref == nil || ref.Value == nil {
		t.Fatalf("%s has no JSONDocument schema", path)
	}
	return ref.Value
}

// validatePublic checks a document against every public JSONDocument schema there is.
func validatePublic(t *testing.T, doc *Document) {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, s := range publicSpecs {
		schema := publicSchema(t, s.path, s.required)
		if schema == nil {
			continue
		}
		if err := schema.VisitJSON(v); err != nil {
			t.Fatalf("%s: the document does not validate against JSONDocument: %v\n%s", s.name, err, b)
		}
	}
}

var schemaCache = map[string]*openapi3.Schema{}

func publicSchema(t *testing.T, path string, required bool) *openapi3.Schema {
	t.Helper()
	if s, ok := schemaCache[path]; ok {
		return s
	}
	s := publicJSONDocument(t, path, required)
	schemaCache[path] = s
	return s
}

func TestRichtextPublicSchema(t *testing.T) {
	for _, name := range goldenNames(t) {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", name+".md"))
			if err != nil {
				t.Fatal(err)
			}
			doc := FromMarkdown(string(src))
			validatePublic(t, doc)
			// What the document reads back as validates too.
			validatePublic(t, FromMarkdown(ToMarkdown(doc)))
		})
	}
}
