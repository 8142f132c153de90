package openapispec

import (
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// A reference is a specification read for people: its operations grouped by tag, each with its
// parameters, request and response schemas flattened to rows, and examples as JSON text. It is
// plain data (strings, no HTML): the web pages escape it as they render it.

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
	if model.Components != nil && model.Components.Schemas != nil {
		for name := range model.Components.Schemas.KeysFromOldest() {
			ref.Schemas = append(ref.Schemas, name)
		}
	}
	return ref, nil
}
