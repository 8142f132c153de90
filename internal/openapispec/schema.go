package openapispec

import (
	"encoding/json"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// fields flattens a schema: the schema's own row, then its properties (and its items' or
// allOf parts' properties) one level deeper.
func fields(out []RefField, name string, s *base.Schema, required bool, depth int, n *int, path map[*base.Schema]bool) []RefField {
	if s == nil || *n >= maxFields {
		return out
	}
	*n++
	f := RefField{Depth: depth, Name: name, Type: typeOf(s), Description: s.Description, Required: required,
		Deprecated: s.Deprecated != nil && *s.Deprecated}
	for _, e := range s.Enum {
		if e != nil {
			f.Enum = append(f.Enum, e.Value)
		}
	}
	out = append(out, f)
	if depth >= maxDepth || path[s] {
		return out
	}
	path[s] = true
	defer delete(path, s)
	for _, part := range s.AllOf {
		if ps := part.Schema(); ps != nil {
			out = properties(out, ps, depth, n, path)
		}
	}
	out = properties(out, s, depth, n, path)
	if s.Items != nil && s.Items.IsA() && s.Items.A != nil {
		if is := s.Items.A.Schema(); is != nil {
			out = properties(out, is, depth, n, path)
		}
	}
	return out
}

func properties(out []RefField, s *base.Schema, depth int, n *int, path map[*base.Schema]bool) []RefField {
	if s.Properties == nil {
		return out
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	for name, p := range s.Properties.FromOldest() {
		out = fields(out, name, p.Schema(), req[name], depth+1, n, path)
	}
	return out
}

// typeOf names a schema's type for people: "string (date-time)", "array of object", "one of …".
func typeOf(s *base.Schema) string { return typeName(s, 0) }

// typeName bounds its nesting: a schema may be an array of itself.
func typeName(s *base.Schema, depth int) string {
	if s == nil {
		return ""
	}
	if depth > 3 {
		return "…"
	}
	t := strings.Join(s.Type, " | ")
	switch {
	case t == "array" && s.Items != nil && s.Items.IsA() && s.Items.A != nil:
		t = "array of " + typeName(s.Items.A.Schema(), depth+1)
	case t == "" && len(s.OneOf) > 0:
		t = "one of " + joinTypes(s.OneOf, depth)
	case t == "" && len(s.AnyOf) > 0:
		t = "any of " + joinTypes(s.AnyOf, depth)
	case t == "" && (len(s.AllOf) > 0 || s.Properties != nil):
		t = "object"
	}
	if s.Format != "" {
		t += " (" + s.Format + ")"
	}
	if s.Nullable != nil && *s.Nullable {
		t += ", nullable"
	}
	return t
}

func joinTypes(list []*base.SchemaProxy, depth int) string {
	var names []string
	for _, p := range list {
		if name := p.GetReference(); name != "" {
			names = append(names, name[strings.LastIndex(name, "/")+1:])
		} else {
			names = append(names, typeName(p.Schema(), depth+1))
		}
	}
	return strings.Join(names, ", ")
}

// exampleText is an example value as indented JSON (or as written when it is not JSON-shaped).
func exampleText(n *yaml.Node) string {
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.MarshalIndent(normalize(v), "", "  ")
	if err != nil {
		return n.Value
	}
	return string(b)
}

// normalize turns YAML's map[any]any into JSON-friendly maps.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[toString(k)] = normalize(e)
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
		return x
	}
	return v
}

func toString(k any) string {
	if s, ok := k.(string); ok {
		return s
	}
	b, _ := json.Marshal(k)
	return string(b)
}

// sampleText is an example made from a schema, as indented JSON ("" when none can be made).
func sampleText(s *base.Schema) string {
	budget := maxFields
	v := sample(s, 0, &budget)
	if v == nil {
		return ""
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// sample makes an example value from a schema: its example, its first enum value, or a value of
// its type; budget bounds the values made (wide schemas nest).
func sample(s *base.Schema, depth int, budget *int) any {
	if s == nil || depth > 4 || *budget <= 0 {
		return nil
	}
	*budget--
	if s.Example != nil {
		var v any
		if s.Example.Decode(&v) == nil {
			return normalize(v)
		}
	}
	if len(s.Enum) > 0 && s.Enum[0] != nil {
		var v any
		if s.Enum[0].Decode(&v) == nil {
			return normalize(v)
		}
	}
	t := ""
	if len(s.Type) > 0 {
		t = s.Type[0]
	}
	switch {
	case t == "array":
		if s.Items != nil && s.Items.IsA() && s.Items.A != nil {
			if v := sample(s.Items.A.Schema(), depth+1, budget); v != nil {
				return []any{v}
			}
		}
		return []any{}
	case t == "object" || t == "" && (s.Properties != nil || len(s.AllOf) > 0):
		obj := map[string]any{}
		for _, part := range s.AllOf {
			if m, ok := sample(part.Schema(), depth+1, budget).(map[string]any); ok {
				for k, v := range m {
					obj[k] = v
				}
			}
		}
		if s.Properties != nil {
			for name, p := range s.Properties.FromOldest() {
				obj[name] = sample(p.Schema(), depth+1, budget)
			}
		}
		return obj
	case t == "" && len(s.OneOf) > 0:
		return sample(s.OneOf[0].Schema(), depth+1, budget)
	case t == "" && len(s.AnyOf) > 0:
		return sample(s.AnyOf[0].Schema(), depth+1, budget)
	case t == "string":
		switch s.Format {
		case "date-time":
			return "2024-01-01T00:00:00Z"
		case "date":
			return "2024-01-01"
		case "email":
			return "name@example.com"
		case "uri", "url":
			return "https://example.com"
		}
		return "text"
	case t == "integer":
		return 0
	case t == "number":
		return 0.0
	case t == "boolean":
		return true
	}
	return nil
}

// maxFields bounds the rows of one schema, maxDepth its nesting (schemas may be recursive).
const (
	maxFields = 200
	maxDepth  = 6
)
