package openapispec

import (
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v2 "github.com/pb33f/libopenapi/datamodel/high/v2"
	"github.com/pb33f/libopenapi/orderedmap"
)

// buildV2 reads a Swagger 2.0 document as a reference: a body parameter becomes the request
// body (of the operation's consumes, else the document's), a response's schema its content (of
// produces).
func buildV2(d libopenapi.Document) (*Reference, error) {
	m, err := d.BuildV2Model()
	if err != nil && (m == nil || m.Model.Paths == nil) {
		return nil, err
	}
	model := &m.Model
	ref := newReference(model.Info)
	if model.Host != "" {
		scheme := "https"
		if len(model.Schemes) > 0 {
			scheme = model.Schemes[0]
		}
		ref.Servers = append(ref.Servers, scheme+"://"+model.Host+model.BasePath)
	}
	var items *orderedmap.Map[string, *v2.PathItem]
	if model.Paths != nil {
		items = model.Paths.PathItems
	}
	addOperations(ref, model.Tags, items, func(method, path string, item *v2.PathItem, op *v2.Operation) ([]string, *RefOperation) {
		return op.Tags, operationV2(method, path, item, op, model)
	})
	if model.Definitions != nil {
		for name := range model.Definitions.Definitions.KeysFromOldest() {
			ref.Schemas = append(ref.Schemas, name)
		}
	}
	return ref, nil
}

func operationV2(method, path string, item *v2.PathItem, op *v2.Operation, doc *v2.Swagger) *RefOperation {
	o := &RefOperation{Method: method, Path: path, ID: op.OperationId, Summary: op.Summary, Description: op.Description,
		Deprecated: op.Deprecated}
	consumes, produces := op.Consumes, op.Produces
	if len(consumes) == 0 {
		consumes = doc.Consumes
	}
	if len(produces) == 0 {
		produces = doc.Produces
	}
	mediaType := func(list []string) string {
		if len(list) > 0 {
			return list[0]
		}
		return "application/json"
	}
	seen := map[string]bool{}
	for _, list := range [][]*v2.Parameter{op.Parameters, item.Parameters} {
		for _, p := range list {
			if p == nil || seen[p.In+" "+p.Name] {
				continue
			}
			seen[p.In+" "+p.Name] = true
			required := p.Required != nil && *p.Required
			if p.In == "body" {
				o.Request = &RefBody{Description: p.Description, Required: required,
					Contents: []RefContent{schemaContent(mediaType(consumes), p.Schema)}}
				continue
			}
			t := p.Type
			if p.Format != "" {
				t += " (" + p.Format + ")"
			}
			o.Parameters = append(o.Parameters, RefParam{Name: p.Name, In: p.In, Type: t, Description: p.Description, Required: required})
		}
	}
	response := func(code string, r *v2.Response) {
		body := RefBody{Description: r.Description}
		if r.Schema != nil {
			body.Contents = []RefContent{schemaContent(mediaType(produces), r.Schema)}
		}
		o.Responses = append(o.Responses, RefResponse{Code: code, Body: body})
	}
	if op.Responses != nil {
		if op.Responses.Codes != nil {
			for code, r := range op.Responses.Codes.FromOldest() {
				response(code, r)
			}
		}
		if op.Responses.Default != nil {
			response("default", op.Responses.Default)
		}
	}
	return o
}

// schemaContent is a media type's rows and made example from a schema.
func schemaContent(mediaType string, sp *base.SchemaProxy) RefContent {
	c := RefContent{MediaType: mediaType}
	if sp == nil {
		return c
	}
	s := sp.Schema()
	n := 0
	c.Fields = fields(nil, "", s, false, 0, &n, map[*base.Schema]bool{})
	c.Example = sampleText(s)
	return c
}
