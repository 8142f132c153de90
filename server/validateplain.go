package server

import (
	"github.com/getkin/kin-openapi/openapi3"
)

// What request validation can settle once, from the spec alone, instead of per request.

// withoutMetSecurity returns op, or a copy of it without security requirements when the
// validator's check of them passes for every request. The validator's AuthenticationFunc accepts
// every scheme (authenticate checked the token before), so kin-openapi's check only asks whether
// some requirement names declared schemes alone — and, per request, reads the whole body into
// memory and puts it back, for authentication functions that would look at it.
func withoutMetSecurity(doc *openapi3.T, op *openapi3.Operation) *openapi3.Operation {
	reqs := op.Security
	if reqs == nil {
		reqs = &doc.Security
	}
	if len(*reqs) == 0 {
		return op
	}
	var schemes openapi3.SecuritySchemes
	if doc.Components != nil {
		schemes = doc.Components.SecuritySchemes
	}
	met := false
	for _, req := range *reqs {
		declared := true
		for name := range req {
			if ref := schemes[name]; ref == nil || ref.Value == nil {
				declared = false
			}
		}
		met = met || declared
	}
	if !met {
		return op
	}
	bare := *op
	bare.Security = &openapi3.SecurityRequirements{}
	return &bare
}

// takesAnyPlainRequest tells whether an operation's request validation passes for every request
// without a query string, a body or an empty path parameter: it takes no body, and its parameters
// are path parameters whose schema takes any string and optional query parameters without a
// default (kin-openapi would write a default into the query). Security is not looked at: see
// withoutMetSecurity. TestPlainRequestsNeedNoValidation holds kin-openapi to it.
func takesAnyPlainRequest(item *openapi3.PathItem, op *openapi3.Operation) bool {
	if op.RequestBody != nil {
		return false
	}
	for _, params := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, ref := range params {
			p := ref.Value
			if p == nil || p.Content != nil || p.Schema == nil || p.Schema.Value == nil {
				return false
			}
			switch p.In {
			case openapi3.ParameterInPath:
				if p.Style != "" && p.Style != openapi3.SerializationSimple || !anyString(p.Schema.Value) {
					return false
				}
			case openapi3.ParameterInQuery:
				if p.Required || hasDefault(p.Schema.Value) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// anyString tells whether a schema takes every string.
func anyString(s *openapi3.Schema) bool {
	return s.Type != nil && len(*s.Type) == 1 && s.Type.Is(openapi3.TypeString) &&
		s.Format == "" && s.Pattern == "" && s.MinLength == 0 && s.MaxLength == nil && len(s.Enum) == 0 &&
		len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.Not == nil
}

// hasDefault tells whether kin-openapi finds a default for a parameter of this schema.
func hasDefault(s *openapi3.Schema) bool {
	if s.Default != nil {
		return true
	}
	for _, sub := range s.AllOf {
		if sub.Value != nil && sub.Value.Default != nil {
			return true
		}
	}
	return false
}
