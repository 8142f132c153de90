package openapispec

import (
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/pb33f/libopenapi/orderedmap"
)

// Reference is a whole specification.
type Reference struct {
	Title, Version, Description string
	Servers                     []string
	Tags                        []RefTag
	Schemas                     []string // the names of the document's schemas (models), in its order
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
