package server

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// OpenAPI specifications (seed 4.11). Every write of a source queues its processing as a durable
// job (internal/openapispec) and answers at once with the specification pending; a member reads
// them, members with the create role manage them.

func (s *Server) toAPIOpenAPISpec(sp *store.OpenAPISpec, role store.Role) gen.OpenAPISpec {
	out := gen.OpenAPISpec{
		Object:                  gen.OpenAPISpecObjectOpenapiSpec,
		Id:                      sp.ID,
		CreatedAt:               sp.CreatedAt,
		UpdatedAt:               sp.UpdatedAt,
		Slug:                    sp.Slug,
		ProcessingState:         gen.OpenAPISpecProcessingState(sp.ProcessingState),
		Visibility:              gen.OpenAPISpecVisibility(sp.Visibility),
		LastProcessedAt:         sp.LastProcessedAt,
		LastProcessedErrors:     make([]gen.OpenAPIErrorObject, len(sp.LastErrors)),
		LastProcessedErrorCount: sp.LastErrorCount,
	}
	if sp.SourceURL != "" {
		out.SourceURL = &sp.SourceURL
	}
	if sp.LastVersionID != "" {
		out.LastVersion = &sp.LastVersionID
	}
	if sp.LastErrorCode != "" {
		code := gen.OpenAPISpecProcessingErrorCode(sp.LastErrorCode)
		out.LastProcessErrorCode = &code
	}
	for i, e := range sp.LastErrors {
		out.LastProcessedErrors[i] = gen.OpenAPIErrorObject{Message: e.Message, Code: e.Code}
	}
	out.Permissions.View = role.AtLeast(store.RoleRead)
	out.Permissions.Edit = role.AtLeast(access.OpenAPIEditRole)
	out.Urls.Location = s.apiURL("/orgs/" + sp.OrganizationID + "/openapi/" + sp.Slug)
	out.Urls.App = s.appURL("/o/" + sp.OrganizationID + "/openapi/" + sp.Slug)
	if sp.Visibility == "public" {
		published := s.openAPIDocumentPath(sp.ID, "latest")
		out.Urls.Published = &published
	}
	return out
}

// openAPISource reads a source from the request: the validator let exactly one of the two forms
// through, with exactly its own key.
func openAPISource(src gen.OpenAPISpecSource) (store.OpenAPISource, error) {
	raw, err := src.MarshalJSON()
	if err != nil {
		return store.OpenAPISource{}, err
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		return store.OpenAPISource{}, badRequest(`Invalid field "source": give {"url": …} or {"text": …}.`)
	}
	if u, ok := m["url"]; ok {
		if err := checkWebURL("source.url", u); err != nil {
			return store.OpenAPISource{}, err
		}
		return store.OpenAPISource{URL: u}, nil
	}
	text, ok := m["text"]
	if !ok || strings.TrimSpace(text) == "" {
		return store.OpenAPISource{}, badRequest(`Invalid field "source.text": the document is empty.`)
	}
	return store.OpenAPISource{Text: text}, nil
}

// wakeJobs tells the job runner that work was queued.
func (s *Server) wakeJobs() {
	if s.WakeJobs != nil {
		s.WakeJobs(0)
	}
}

func (s *Server) ListOpenAPISpecs(ctx context.Context, req gen.ListOpenAPISpecsRequestObject) (gen.ListOpenAPISpecsResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindOpenAPISpecs(ctx, req.OrganizationId, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.OpenAPISpec, len(list.Items))
	for i, sp := range list.Items {
		items[i] = s.toAPIOpenAPISpec(sp, role)
	}
	return gen.ListOpenAPISpecs200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateOpenAPISpec(ctx context.Context, req gen.CreateOpenAPISpecRequestObject) (gen.CreateOpenAPISpecResponseObject, error) {
	role, src, err := s.openAPIWrite(ctx, req.OrganizationId, req.Body.Source)
	if err != nil {
		return nil, err
	}
	sp, err := s.Store.CreateOpenAPISpec(ctx, req.OrganizationId, req.Body.Slug, src)
	if err != nil {
		return nil, err
	}
	s.wakeJobs()
	return gen.CreateOpenAPISpec201JSONResponse(s.toAPIOpenAPISpec(sp, role)), nil
}

func (s *Server) GetOpenAPISpecBySlug(ctx context.Context, req gen.GetOpenAPISpecBySlugRequestObject) (gen.GetOpenAPISpecBySlugResponseObject, error) {
	role, sp, err := s.findOpenAPISpec(ctx, req.OrganizationId, req.SpecSlug)
	if err != nil {
		return nil, err
	}
	return gen.GetOpenAPISpecBySlug200JSONResponse(s.toAPIOpenAPISpec(sp, role)), nil
}

func (s *Server) CreateOrUpdateOpenAPISpecBySlug(ctx context.Context, req gen.CreateOrUpdateOpenAPISpecBySlugRequestObject) (gen.CreateOrUpdateOpenAPISpecBySlugResponseObject, error) {
	role, src, err := s.openAPIWrite(ctx, req.OrganizationId, req.Body.Source)
	if err != nil {
		return nil, err
	}
	sp, _, err := s.Store.PutOpenAPISpec(ctx, req.OrganizationId, req.SpecSlug, src)
	if err != nil {
		return nil, err
	}
	s.wakeJobs()
	return gen.CreateOrUpdateOpenAPISpecBySlug200JSONResponse(s.toAPIOpenAPISpec(sp, role)), nil
}

func (s *Server) UpdateOpenAPISpecBySlug(ctx context.Context, req gen.UpdateOpenAPISpecBySlugRequestObject) (gen.UpdateOpenAPISpecBySlugResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, access.OpenAPIEditRole)
	if err != nil {
		return nil, err
	}
	sp, err := s.Store.UpdateOpenAPISpecVisibility(ctx, req.OrganizationId, req.SpecSlug, string(req.Body.Visibility))
	if err != nil {
		return nil, err
	}
	return gen.UpdateOpenAPISpecBySlug200JSONResponse(s.toAPIOpenAPISpec(sp, role)), nil
}

func (s *Server) DeleteOpenAPISpecBySlug(ctx context.Context, req gen.DeleteOpenAPISpecBySlugRequestObject) (gen.DeleteOpenAPISpecBySlugResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, access.OpenAPIEditRole); err != nil {
		return nil, err
	}
	if err := s.Store.DeleteOpenAPISpec(ctx, req.OrganizationId, req.SpecSlug); err != nil {
		return nil, err
	}
	return gen.DeleteOpenAPISpecBySlug204Response{}, nil
}

// findOpenAPISpec returns a specification the caller can read, with the caller's role.
// openAPIWrite checks that the caller may write the organization's specifications and reads
// the source a request gives.
func (s *Server) openAPIWrite(ctx context.Context, orgID string, source gen.OpenAPISpecSource) (store.Role, store.OpenAPISource, error) {
	role, err := s.Access.RequireOrgRole(ctx, orgID, access.OpenAPIEditRole)
	if err != nil {
		return "", store.OpenAPISource{}, err
	}
	src, err := openAPISource(source)
	return role, src, err
}

func (s *Server) findOpenAPISpec(ctx context.Context, orgID, slug string) (store.Role, *store.OpenAPISpec, error) {
	role, err := s.Access.RequireOrgRole(ctx, orgID, store.RoleRead)
	if err != nil {
		return "", nil, err
	}
	sp, err := s.Store.FindOpenAPISpec(ctx, orgID, slug)
	return role, sp, err
}

func (s *Server) openAPIDocumentPath(specID, versionID string) string {
	return s.BaseURL + "/openapi/" + specID + "/" + versionID
}
