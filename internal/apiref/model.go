// Package apiref renders an OpenAPI document as one self-contained HTML reference page:
// operations grouped by tag with their parameters, request and response bodies (schemas and a
// generated example), and the component schemas they refer to. quire serves its own contract
// with it at /docs; the model is neutral so other documents can be rendered the same way.
package apiref

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Reference is what the page shows.
type Reference struct {
	Title, Version, Description string
	Groups                      []Group
	Schemas                     []Schema
}

// Group is the operations of one tag, in the document's order.
type Group struct {
	Name, Description string
	Operations        []Operation
}

// Operation is one method on one path.
type Operation struct {
	ID, Method, Path, Summary, Description string
	Deprecated, Public                     bool
	Parameters                             []Parameter
	Request                                *Body
	Responses                              []Response
}

// Parameter is a path, query or header parameter.
type Parameter struct {
	Name, In, Type, Description string
	Required                    bool
}

// Body is a request or response body: the schema it follows and an example of it.
type Body struct {
	ContentType, Example string
	Schema               Field
}

// Response is one status an operation declares.
type Response struct {
	Status, Description string
	Body                *Body
}

// Schema is a named component schema with its properties.
type Schema struct {
	Name, Description, Type string
	Fields                  []Field
	Variants                []Field // oneOf / anyOf branches
}

// Field is a property, or a schema seen from where it is used: its type in words and, for a named
// schema, the anchor of its definition.
type Field struct {
	Name, Type, Ref, Description, Constraints string
	Required, Nullable                        bool
}

// FromKin builds the reference of a document loaded by kin-openapi.
func FromKin(doc *openapi3.T) Reference {
	ref := Reference{Title: doc.Info.Title, Version: doc.Info.Version, Description: doc.Info.Description}
	groups := map[string]*Group{}
	var order []string
	group := func(name string) *Group {
		if g, ok := groups[name]; ok {
			return g
		}
		g := &Group{Name: name}
		if t := doc.Tags.Get(name); t != nil {
			g.Description = t.Description
		}
		groups[name] = g
		order = append(order, name)
		return g
	}
	for _, t := range doc.Tags {
		group(t.Name)
	}
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, path := range paths {
		item := doc.Paths.Value(path)
		for _, method := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			tag := "other"
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			g := group(tag)
			g.Operations = append(g.Operations, fromOperation(method, path, item, op))
		}
	}
	for _, name := range order {
		if g := groups[name]; len(g.Operations) > 0 {
			ref.Groups = append(ref.Groups, *g)
		}
	}
	names := make([]string, 0, len(doc.Components.Schemas))
	for name := range doc.Components.Schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ref.Schemas = append(ref.Schemas, fromSchema(name, doc.Components.Schemas[name]))
	}
	return ref
}

func fromOperation(method, path string, item *openapi3.PathItem, op *openapi3.Operation) Operation {
	out := Operation{ID: op.OperationID, Method: method, Path: path, Summary: op.Summary,
		Description: op.Description, Deprecated: op.Deprecated, Public: op.Security != nil && len(*op.Security) == 0}
	params := append(openapi3.Parameters{}, item.Parameters...)
	params = append(params, op.Parameters...)
	for _, p := range params {
		if p.Value == nil {
			continue
		}
		out.Parameters = append(out.Parameters, Parameter{Name: p.Value.Name, In: p.Value.In,
			Type: typeOf(p.Value.Schema).Type, Description: p.Value.Description, Required: p.Value.Required})
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		out.Request = fromContent(op.RequestBody.Value.Content)
	}
	if op.Responses != nil {
		statuses := make([]string, 0, op.Responses.Len())
		for status := range op.Responses.Map() {
			statuses = append(statuses, status)
		}
		sort.Strings(statuses)
		for _, status := range statuses {
			r := op.Responses.Value(status)
			if r == nil || r.Value == nil {
				continue
			}
			res := Response{Status: status, Body: fromContent(r.Value.Content)}
			if r.Value.Description != nil {
				res.Description = *r.Value.Description
			}
			out.Responses = append(out.Responses, res)
		}
	}
	return out
}

func fromContent(content openapi3.Content) *Body {
	for _, ct := range []string{"application/json", "application/pdf", "application/octet-stream"} {
		if mt := content.Get(ct); mt != nil {
			b := &Body{ContentType: ct}
			if mt.Schema != nil {
				b.Schema = typeOf(mt.Schema)
				if ct == "application/json" {
					ex, _ := json.MarshalIndent(example(mt.Schema, 0), "", "  ")
					b.Example = string(ex)
				}
			}
			return b
		}
	}
	return nil
}

func fromSchema(name string, ref *openapi3.SchemaRef) Schema {
	out := Schema{Name: name}
	s := ref.Value
	if s == nil {
		return out
	}
	out.Description = s.Description
	out.Type = typeOf(&openapi3.SchemaRef{Value: s}).Type
	out.Fields = fields(s)
	for _, branches := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, b := range branches {
			out.Variants = append(out.Variants, typeOf(b))
		}
	}
	return out
}

// fields lists an object schema's properties, those of allOf parts included, required first.
func fields(s *openapi3.Schema) []Field {
	var out []Field
	required := map[string]bool{}
	var collect func(s *openapi3.Schema)
	collect = func(s *openapi3.Schema) {
		for _, r := range s.Required {
			required[r] = true
		}
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			f := typeOf(s.Properties[n])
			f.Name = n
			out = append(out, f)
		}
		for _, part := range s.AllOf {
			if part.Value != nil {
				collect(part.Value)
			}
		}
	}
	collect(s)
	for i := range out {
		out[i].Required = required[out[i].Name]
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Required && !out[j].Required })
	return out
}

// typeOf says in words what a schema is where it is used.
func typeOf(ref *openapi3.SchemaRef) Field {
	if ref == nil || ref.Value == nil {
		return Field{Type: "any"}
	}
	s := ref.Value
	f := Field{Description: s.Description, Nullable: s.Nullable, Constraints: constraints(s)}
	if ref.Ref != "" {
		name := ref.Ref[strings.LastIndex(ref.Ref, "/")+1:]
		f.Type, f.Ref = name, name
		return f
	}
	switch {
	case s.Type != nil && s.Type.Is("array"):
		item := typeOf(s.Items)
		f.Type, f.Ref = "array of "+item.Type, item.Ref
	case len(s.OneOf) > 0 || len(s.AnyOf) > 0:
		var names []string
		for _, b := range append(append(openapi3.SchemaRefs{}, s.OneOf...), s.AnyOf...) {
			names = append(names, typeOf(b).Type)
		}
		f.Type = "one of " + strings.Join(names, ", ")
	case len(s.AllOf) > 0:
		var names []string
		for _, b := range s.AllOf {
			names = append(names, typeOf(b).Type)
		}
		f.Type = strings.Join(names, " and ")
	case s.Type != nil && len(s.Type.Slice()) > 0:
		f.Type = strings.Join(s.Type.Slice(), " or ")
		if s.Format != "" {
			f.Type += " (" + s.Format + ")"
		}
	default:
		f.Type = "any"
	}
	return f
}

func constraints(s *openapi3.Schema) string {
	var c []string
	if len(s.Enum) > 0 {
		var vals []string
		for _, v := range s.Enum {
			b, _ := json.Marshal(v)
			vals = append(vals, string(b))
		}
		c = append(c, "one of "+strings.Join(vals, ", "))
	}
	if s.MinLength > 0 {
		c = append(c, "at least "+itoa(s.MinLength)+" characters")
	}
	if s.MaxLength != nil {
		c = append(c, "at most "+itoa(*s.MaxLength)+" characters")
	}
	if s.Pattern != "" {
		c = append(c, "matching "+s.Pattern)
	}
	if s.Min != nil {
		c = append(c, "≥ "+ftoa(*s.Min))
	}
	if s.Max != nil {
		c = append(c, "≤ "+ftoa(*s.Max))
	}
	if s.MaxItems != nil {
		c = append(c, "at most "+itoa(*s.MaxItems)+" items")
	}
	return strings.Join(c, "; ")
}
