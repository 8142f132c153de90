package store

import (
	"reflect"
	"testing"
)

// A schema stored before claims had to be described reads in the public shape, and its claims
// still parse.
func TestLegacyAdaptiveSchemaReadsInThePublicShape(t *testing.T) {
	site := &Site{ID: "s", AdaptiveSchema: []byte(`{"type":"object","description":"Visitors","additionalProperties":false,
		"properties":{"admin":{"type":"boolean"},"beta":{"type":"boolean","description":"Beta testers"},
		"unsigned":{"type":"object","description":"Claims the visitor sets","additionalProperties":false,
			"properties":{"dark":{"type":"boolean"}}}}}`)}
	m, err := site.AdaptiveSchemaObject()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
		"admin": map[string]any{"type": "boolean", "description": "admin"},
		"beta":  map[string]any{"type": "boolean", "description": "Beta testers"},
		"unsigned": map[string]any{"type": "object", "description": UnsignedDescription, "additionalProperties": false,
			"properties": map[string]any{"dark": map[string]any{"type": "boolean", "description": "dark"}}},
	}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("read %+v", m)
	}
	claims, err := site.AdaptiveClaims()
	if err != nil {
		t.Fatal(err)
	}
	var paths [][]string
	for _, c := range claims {
		paths = append(paths, c.Path)
	}
	if !reflect.DeepEqual(paths, [][]string{{"admin"}, {"beta"}, {"unsigned", "dark"}}) {
		t.Fatalf("claims %v", paths)
	}
}
