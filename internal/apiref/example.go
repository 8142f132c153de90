package apiref

import (
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// example makes a JSON value that follows a schema: its example or default where it has one,
// else the first enum value or a placeholder of its type. Depth is bounded: recursive schemas
// (documents, page trees) stop after a few levels.
func example(ref *openapi3.SchemaRef, depth int) any {
	if ref == nil || ref.Value == nil || depth > 4 {
		return nil
	}
	s := ref.Value
	switch {
	case s.Example != nil:
		return s.Example
	case s.Default != nil:
		return s.Default
	case len(s.Enum) > 0:
		return s.Enum[0]
	case len(s.OneOf) > 0:
		return example(s.OneOf[0], depth+1)
	case len(s.AnyOf) > 0:
		return example(s.AnyOf[0], depth+1)
	case len(s.AllOf) > 0:
		out := map[string]any{}
		for _, part := range s.AllOf {
			if m, ok := example(part, depth+1).(map[string]any); ok {
				for k, v := range m {
					out[k] = v
				}
			}
		}
		return out
	}
	if s.Type == nil {
		return nil
	}
	switch {
	case s.Type.Is("object"):
		out := map[string]any{}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		for name, p := range s.Properties {
			// Past the top level only required properties, so examples stay readable.
			if depth == 0 || required[name] {
				out[name] = example(p, depth+1)
			}
		}
		return out
	case s.Type.Is("array"):
		if item := example(s.Items, depth+1); item != nil {
			return []any{item}
		}
		return []any{}
	case s.Type.Is("string"):
		switch s.Format {
		case "date-time":
			return "2026-01-02T03:04:05Z"
		case "uri":
			return "https://example.com/"
		case "email":
			return "ada@example.com"
		}
		return "string"
	case s.Type.Is("integer"):
		if s.Min != nil {
			return int(*s.Min)
		}
		return 0
	case s.Type.Is("number"):
		return 0.0
	case s.Type.Is("boolean"):
		return false
	}
	return nil
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

func ftoa(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(f, 'f', 3, 64), "0"), ".")
}
