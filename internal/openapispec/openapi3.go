package openapispec

import (
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

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
