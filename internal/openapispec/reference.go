package openapispec

import (
	"encoding/json"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// A reference is a specification read for people: its operations grouped by tag, each with its
// parameters, request and response schemas flattened to rows, and examples as JSON text. It is
// plain data (strings, no HTML): the web pages escape it as they render it.

// Reference is a whole specification.
type Reference struct {
	Title, Version, Description string
	Servers                     []string
	Tags                        []RefTag
}

// RefTag is a tag and its operations, in the order of the document ("default" for untagged ones).
type RefTag struct {
	Name, Description string
	Operations        []*RefOperation
}

// RefOperation is one operation.
type RefOperation struct {
	Method, Path, ID, Summary, Description string
	Deprecated                             bool
	Parameters                             []RefParam
	Request                                *RefBody
	Responses                              []RefResponse
}

// Anchor is the operation's id on a reference page.
func (o *RefOperation) Anchor() string {
	if o.ID != "" {
		return "op-" + anchorText(o.ID)
	}
	return "op-" + anchorText(o.Method+"-"+o.Path)
}

func anchorText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

// RefParam is a parameter of an operation.
type RefParam struct {
	Name, In, Type, Description string
	Required, Deprecated        bool
}

// RefBody is a request body or a response's content.
type RefBody struct {
	Description string
	Required    bool
	Contents    []RefContent
}

// RefContent is a media type with its schema as rows and an example.
type RefContent struct {
	MediaType string
	Fields    []RefField
	Example   string
}

// RefField is a row of a flattened schema: a property at a depth, or the schema itself (Name "").
type RefField struct {
	Depth                   int
	Name, Type, Description string
	Required, Deprecated    bool
	Enum                    []string
}

// RefResponse is a response of an operation by status code.
type RefResponse struct {
	Code string
	Body RefBody
}

// maxFields bounds the rows of one schema, maxDepth its nesting (schemas may be recursive).
const (
	maxFields = 200
	maxDepth  = 6
)

// BuildReference reads a document (Swagger 2.0, OpenAPI 3.0 or 3.1) as a reference.
func BuildReference(doc []byte) (*Reference, error) {
	logger, _ := newCollector()
	d, err := libopenapi.NewDocumentWithConfiguration(doc, &datamodel.DocumentConfiguration{Logger: logger})
	if err != nil {
		return nil, err
	}
	if d.GetSpecInfo().SpecType == "swagger" {
		return buildV2(d)
	}
	m, err := d.BuildV3Model()
	if err != nil && (m == nil || m.Model.Paths == nil) {
		return nil, err
	}
	model := &m.Model
	ref := newReference(model.Info)
	for _, sv := range model.Servers {
		ref.Servers = append(ref.Servers, sv.URL)
	}
	var items *orderedmap.Map[string, *v3.PathItem]
	if model.Paths != nil {
		items = model.Paths.PathItems
	}
	addOperations(ref, model.Tags, items, func(method, path string, item *v3.PathItem, op *v3.Operation) ([]string, *RefOperation) {
		return op.Tags, operation(method, path, item, op)
	})
	return ref, nil
}

// newReference starts a reference with a document's info.
func newReference(info *base.Info) *Reference {
	ref := &Reference{}
	if info != nil {
		ref.Title, ref.Version, ref.Description = info.Title, info.Version, info.Description
	}
	return ref
}

// addOperations adds the operations of every path of a document (either model: items may be
// nil), in document order, under the tags it declares; build reads one operation with its tags.
func addOperations[O any, I interface {
	GetOperations() *orderedmap.Map[string, O]
}](ref *Reference, declared []*base.Tag,
	items *orderedmap.Map[string, I], build func(method, path string, item I, op O) ([]string, *RefOperation)) {
	tags := ref.declare(declared)
	if items != nil {
		for path, item := range items.FromOldest() {
			for method, op := range item.GetOperations().FromOldest() {
				names, o := build(strings.ToUpper(method), path, item, op)
				ref.add(tags, names, o)
			}
		}
	}
	ref.prune()
}

// declare starts the tag groups with the tags the document declares, in its order.
func (r *Reference) declare(list []*base.Tag) map[string]int {
	tags := map[string]int{}
	for _, t := range list {
		if _, ok := tags[t.Name]; !ok {
			tags[t.Name] = len(r.Tags)
			r.Tags = append(r.Tags, RefTag{Name: t.Name, Description: t.Description})
		}
	}
	return tags
}

// add puts an operation in the groups of its tags ("default" for none).
func (r *Reference) add(tags map[string]int, names []string, o *RefOperation) {
	if len(names) == 0 {
		names = []string{"default"}
	}
	for _, name := range names {
		i, ok := tags[name]
		if !ok {
			i = len(r.Tags)
			tags[name] = i
			r.Tags = append(r.Tags, RefTag{Name: name})
		}
		r.Tags[i].Operations = append(r.Tags[i].Operations, o)
	}
}

// prune drops the declared tags no operation has.
func (r *Reference) prune() {
	kept := r.Tags[:0]
	for _, t := range r.Tags {
		if len(t.Operations) > 0 {
			kept = append(kept, t)
		}
	}
	r.Tags = kept
}

// Find returns the operation at a path with a method (any case), nil when there is none.
func (r *Reference) Find(path, method string) *RefOperation {
	for _, t := range r.Tags {
		for _, o := range t.Operations {
			if o.Path == path && strings.EqualFold(o.Method, method) {
				return o
			}
		}
	}
	return nil
}

func operation(method, path string, item *v3.PathItem, op *v3.Operation) *RefOperation {
	o := &RefOperation{Method: method, Path: path, ID: op.OperationId, Summary: op.Summary, Description: op.Description,
		Deprecated: op.Deprecated != nil && *op.Deprecated}
	seen := map[string]bool{}
	for _, list := range [][]*v3.Parameter{op.Parameters, item.Parameters} {
		for _, p := range list {
			if p == nil || seen[p.In+" "+p.Name] {
				continue
			}
			seen[p.In+" "+p.Name] = true
			rp := RefParam{Name: p.Name, In: p.In, Description: p.Description, Required: p.Required != nil && *p.Required,
				Deprecated: p.Deprecated}
			if p.Schema != nil {
				rp.Type = typeOf(p.Schema.Schema())
			}
			o.Parameters = append(o.Parameters, rp)
		}
	}
	if rb := op.RequestBody; rb != nil {
		o.Request = &RefBody{Description: rb.Description, Required: rb.Required != nil && *rb.Required, Contents: contents(rb.Content)}
	}
	if op.Responses != nil {
		if op.Responses.Codes != nil {
			for code, r := range op.Responses.Codes.FromOldest() {
				o.Responses = append(o.Responses, RefResponse{Code: code, Body: RefBody{Description: r.Description, Contents: contents(r.Content)}})
			}
		}
		if r := op.Responses.Default; r != nil {
			o.Responses = append(o.Responses, RefResponse{Code: "default", Body: RefBody{Description: r.Description, Contents: contents(r.Content)}})
		}
	}
	return o
}

func contents(m *orderedmap.Map[string, *v3.MediaType]) []RefContent {
	if m == nil {
		return nil
	}
	var out []RefContent
	for mt, media := range m.FromOldest() {
		c := RefContent{MediaType: mt}
		var s *base.Schema
		if media.Schema != nil {
			s = media.Schema.Schema()
			n := 0
			c.Fields = fields(nil, "", s, false, 0, &n, map[*base.Schema]bool{})
		}
		switch {
		case media.Example != nil:
			c.Example = exampleText(media.Example)
		case media.Examples != nil && media.Examples.Len() > 0:
			if ex := media.Examples.First().Value(); ex != nil && ex.Value != nil {
				c.Example = exampleText(ex.Value)
			}
		case s != nil:
			c.Example = sampleText(s)
		}
		out = append(out, c)
	}
	return out
}

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
