package publicspec

import "testing"

// Both published specs load, and Validate tells a JSONDocument from what is not one.
func TestValidate(t *testing.T) {
	good := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
		map[string]any{"object": "block", "type": "paragraph", "data": map[string]any{}, "nodes": []any{
			map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Hi", "marks": []any{}}}},
		}},
	}}
	bad := map[string]any{"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "no-such-block"}}}
	for _, v := range []string{V146, V202} {
		if err := Validate(v, "JSONDocument", good); err != nil {
			t.Errorf("%s: a valid document refused: %v", v, err)
		}
		if err := Validate(v, "JSONDocument", bad); err == nil {
			t.Errorf("%s: an invalid document passed", v)
		}
		if _, err := Schema(v, "NoSuchSchema"); err == nil {
			t.Errorf("%s: an unknown schema was found", v)
		}
	}
	if _, err := Load("9.9.9"); err == nil {
		t.Error("an unknown version loaded")
	}
}
