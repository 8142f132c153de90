package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
	"github.com/quire-docs/quire/internal/openapispec"
	"github.com/quire-docs/quire/store"
)

// Computed content: pages and documents computed from a source instead of written. quire
// computes from the organization's OpenAPI specifications (builtin:openapi, see
// openapispec.Compute); a translation's result is a space of its own, and integrations'
// computations are not run, so those sources are refused by name. getComputedRevision and
// getComputedDocument answer what a source computes now without storing it; createSpace with
// computedSource starts a space with those pages.

// computedSpec is a builtin:openapi source as read: its specification, the reference of the
// specification's latest version, and how to compute pages from it.
type computedSpec struct {
	spec    *store.OpenAPISpec
	ref     *openapispec.Reference
	compute openapispec.Compute
}

// readOpenAPISource reads a source's type and dependencies (field names the source in errors).
func (s *Server) readOpenAPISource(ctx context.Context, orgID, field, typ string, deps *gen.ComputedSourceDependencies) (*computedSpec, error) {
	switch {
	case typ == "builtin:translation":
		return nil, store.FieldErrorf(field+".type", "quire computes no content from a translation: its result is a space of its own, made and kept current by the translation's runs (startTranslation)")
	case strings.HasPrefix(typ, "integration:"):
		return nil, store.FieldErrorf(field+".type", "quire runs no integration's computations (%s); it computes content from OpenAPI specifications (builtin:openapi)", typ)
	}
	if deps == nil {
		return nil, store.FieldErrorf(field+".dependencies.spec", "is required: the OpenAPI specification to compute from, as {\"ref\": {\"kind\": \"openapi\", \"spec\": <slug>}}")
	}
	names := make([]string, 0, len(*deps))
	for name := range *deps {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if name != "spec" {
			return nil, store.FieldErrorf(field+".dependencies."+name, "is not a dependency of builtin:openapi (it has one: spec)")
		}
	}
	dep, ok := (*deps)["spec"]
	if !ok {
		return nil, store.FieldErrorf(field+".dependencies.spec", "is required: the OpenAPI specification to compute from")
	}
	if dep.Ref.Kind != "openapi" || dep.Ref.Spec == nil || *dep.Ref.Spec == "" {
		return nil, store.FieldErrorf(field+".dependencies.spec.ref", "must name an OpenAPI specification: {\"kind\": \"openapi\", \"spec\": <slug>}")
	}
	slug := *dep.Ref.Spec
	spec, err := s.Store.FindOpenAPISpec(ctx, orgID, slug)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil, store.FieldErrorf(field+".dependencies.spec.ref.spec", "the organization has no OpenAPI specification %q", slug)
	}
	if err != nil {
		return nil, err
	}
	if spec.LastVersionID == "" {
		return nil, store.Errorf(store.ECONFLICT, "The OpenAPI specification %q has no processed version yet (it is %s); compute again once it has.", slug, spec.ProcessingState)
	}
	content, err := s.Store.FindOpenAPISpecVersionContent(ctx, spec.ID, spec.LastVersionID)
	if err != nil {
		return nil, err
	}
	ref, err := openapispec.BuildReference(content.Document)
	if err != nil {
		return nil, store.Errorf(store.ECONFLICT, "The latest version of the OpenAPI specification %q cannot be read: %v", slug, err)
	}
	return &computedSpec{spec: spec, ref: ref, compute: openapispec.Compute{Spec: slug}}, nil
}

// computedRevisionSource reads a revision's source: builtin:openapi with its props.
func (s *Server) computedRevisionSource(ctx context.Context, orgID, field string, src gen.ComputedSourceRevision) (*computedSpec, error) {
	o, err := s.readOpenAPISource(ctx, orgID, field, src.Type, src.Dependencies)
	if err != nil {
		return nil, err
	}
	props := src.Props
	if props == nil || props.Models == nil {
		return nil, store.FieldErrorf(field+".props.models", "is required: whether a page shows the specification's models")
	}
	if err := noOtherProps(field+".props", props.AdditionalProperties, "models, downloadLink and grouping"); err != nil {
		return nil, err
	}
	o.compute.Models = *props.Models
	o.compute.ByOperation = props.Grouping != nil && *props.Grouping == gen.ByOperation
	if props.DownloadLink != nil && *props.DownloadLink {
		// The document where it is fetched from, else where quire serves it to anyone: a private
		// specification given as text has no address a reader of the pages could open.
		switch {
		case o.spec.SourceURL != "":
			o.compute.DownloadURL = o.spec.SourceURL
		case o.spec.Visibility == "public":
			if o.compute.DownloadURL, err = s.openAPIDocumentURL(o.spec, o.spec.LastVersionID); err != nil {
				return nil, err
			}
		default:
			return nil, store.FieldErrorf(field+".props.downloadLink", "the OpenAPI specification %q is private and was given as text: its document has no address the pages' readers could open", o.spec.Slug)
		}
	}
	return o, nil
}

func noOtherProps(field string, extra map[string]any, known string) error {
	if len(extra) == 0 {
		return nil
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	return store.FieldErrorf(field+"."+names[0], "is not a property of builtin:openapi (it takes %s)", known)
}

// computedPageChanges writes computed pages as the insert_page changes of a new space's content.
func computedPageChanges(pages []openapispec.ComputedPage) []store.PageChange {
	var out []store.PageChange
	n := 0
	var add func(list []openapispec.ComputedPage, parent *string)
	add = func(list []openapispec.ComputedPage, parent *string) {
		for _, p := range list {
			n++
			ref, title, md, desc := "computed-"+strconv.Itoa(n), p.Title, p.Markdown, p.Description
			out = append(out, store.PageChange{Type: "insert_page", Ref: &ref, Title: &title, Description: &desc,
				Markdown: &md, SetInto: true, Into: parent})
			add(p.Pages, &ref)
		}
	}
	add(pages, nil)
	return out
}

// computedID derives a computed page's id from the seed and what the page shows.
func computedID(seed, key string) string {
	sum := sha256.Sum256([]byte(seed + "\x00" + key))
	return "c" + hex.EncodeToString(sum[:10])
}

// GetComputedRevision answers the pages a source computes now, without storing them.
func (s *Server) GetComputedRevision(ctx context.Context, req gen.GetComputedRevisionRequestObject) (gen.GetComputedRevisionResponseObject, error) {
	if req.Body == nil {
		return nil, badRequest("A body with the source and the seed is required.")
	}
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	src, err := s.computedRevisionSource(ctx, sp.OrganizationID, "source", req.Body.Source)
	if err != nil {
		return nil, err
	}
	var build func(list []openapispec.ComputedPage, parent *store.RevisionPage) ([]gen.RevisionPage, error)
	build = func(list []openapispec.ComputedPage, parent *store.RevisionPage) ([]gen.RevisionPage, error) {
		out := []gen.RevisionPage{}
		taken := map[string]int{}
		for i, cp := range list {
			p := &store.RevisionPage{ID: computedID(req.Body.Seed, cp.Key), Title: cp.Title, Description: cp.Description,
				Markdown: cp.Markdown, Position: float64(i)}
			p.Slug = store.Slugify(cp.Title)
			if taken[p.Slug]++; taken[p.Slug] > 1 {
				p.Slug += "-" + strconv.Itoa(taken[p.Slug])
			}
			p.Path = p.Slug
			if parent != nil {
				p.ParentID, p.Path = &parent.ID, parent.Path+"/"+p.Slug
			}
			ap, err := s.toAPIPage(sp, p, nil, true)
			if err != nil {
				return nil, err
			}
			if ap.Pages, err = build(cp.Pages, p); err != nil {
				return nil, err
			}
			out = append(out, ap)
		}
		return out, nil
	}
	pages, err := build(src.compute.Pages(src.ref), nil)
	if err != nil {
		return nil, err
	}
	return gen.GetComputedRevision200JSONResponse{Pages: pages, Files: []gen.RevisionFile{}, ReusableContents: []map[string]any{}}, nil
}

// GetComputedDocument answers one document a source computes now.
func (s *Server) GetComputedDocument(ctx context.Context, req gen.GetComputedDocumentRequestObject) (gen.GetComputedDocumentResponseObject, error) {
	if req.Body == nil {
		return nil, badRequest("A body with the source and the seed is required.")
	}
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	src := req.Body.Source
	o, err := s.readOpenAPISource(ctx, sp.OrganizationID, "source", src.Type, src.Dependencies)
	if err != nil {
		return nil, err
	}
	props := src.Props
	if props == nil || props.Doc == nil {
		return nil, store.FieldErrorf("source.props.doc", "is required: models, operations, info, operation or tag")
	}
	if err := noOtherProps("source.props", props.AdditionalProperties, "doc, page, method and deprecated"); err != nil {
		return nil, err
	}
	page := ""
	if props.Page != nil {
		page = *props.Page
	}
	if *props.Doc != gen.ComputedSourceDocumentPropsDocModels && page == "" {
		return nil, store.FieldErrorf("source.props.page", "is required with doc %q", *props.Doc)
	}
	var md string
	switch *props.Doc {
	case gen.ComputedSourceDocumentPropsDocModels:
		if len(o.ref.Schemas) > 0 {
			md = openapispec.SchemasTag(o.compute.Spec, o.ref.Schemas)
		}
	case gen.ComputedSourceDocumentPropsDocOperation:
		if props.Method == nil {
			return nil, store.FieldErrorf("source.props.method", "is required with doc \"operation\"")
		}
		op := o.ref.Find(page, string(*props.Method))
		if op == nil {
			return nil, store.FieldErrorf("source.props.page", "the specification %q has no operation %s %s", o.compute.Spec,
				strings.ToUpper(string(*props.Method)), page)
		}
		md = openapispec.OperationTag(o.compute.Spec, op, true)
	default:
		tag := o.ref.Tag(page)
		if tag == nil {
			return nil, store.FieldErrorf("source.props.page", "the specification %q has no tag %q", o.compute.Spec, page)
		}
		switch *props.Doc {
		case gen.ComputedSourceDocumentPropsDocInfo:
			md = tag.Description
		case gen.ComputedSourceDocumentPropsDocOperations:
			md = o.compute.TagMarkdown(*tag, false)
		default:
			md = o.compute.TagMarkdown(*tag, true)
		}
	}
	doc := markdown.Options{SpaceID: sp.ID}.FromMarkdown(md)
	return gen.GetComputedDocument200JSONResponse(*doc), nil
}
