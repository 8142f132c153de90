package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// The versions of an OpenAPI specification and their documents. A version's raw document is
// served outside /v1 at {BaseURL}/openapi/{specId}/{versionId} ("latest" for the current one):
// to anyone when the specification is public, else only through a signed link (signedlinks.go)
// the API hands to members, valid for an hour.

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): GetLatestOpenAPISpecVersion and
// GetOpenAPISpecVersionById call openAPIVersion, GetLatestOpenAPISpecVersionContent and
// GetOpenAPISpecVersionContentById call openAPIContent.

// openAPIDocumentRoute serves the raw documents of versions.
const openAPIDocumentRoute = "/openapi/:specId/:versionId"

// openAPILinks are the signed links of private specifications' documents.
var openAPILinks = linkKind{
	audience: "quire/openapi-links",
	ttl:      pdfLinks.ttl,
	notFound: "No such OpenAPI document.",
	expired:  "This OpenAPI document link has expired: links last an hour; ask the API for a new one.",
}

// openAPIClaims is what a document link grants: one version of one specification.
type openAPIClaims struct {
	Spec    string `json:"s"`
	Version string `json:"v"`
	jwt.RegisteredClaims
}

func (c *openAPIClaims) registered() *jwt.RegisteredClaims { return &c.RegisteredClaims }

// openAPIDocumentURL is where a version's document can be downloaded by whoever holds the URL.
func (s *Server) openAPIDocumentURL(sp *store.OpenAPISpec, versionID string) (string, error) {
	u := s.openAPIDocumentPath(sp.ID, versionID)
	if sp.Visibility == "public" {
		return u, nil
	}
	token, err := s.signLink(openAPILinks, &openAPIClaims{Spec: sp.ID, Version: versionID}, s.Store.Now())
	if err != nil {
		return "", err
	}
	return u + "?token=" + token, nil
}

func (s *Server) toAPIOpenAPIVersion(sp *store.OpenAPISpec, v *store.OpenAPISpecVersion) (gen.OpenAPISpecVersion, error) {
	out := gen.OpenAPISpecVersion{Object: gen.OpenAPISpecVersionObjectOpenapiSpecVersion, Id: v.ID, CreatedAt: v.CreatedAt}
	var err error
	if out.Url, err = s.openAPIDocumentURL(sp, v.ID); err != nil {
		return out, err
	}
	out.Urls.Location = s.apiURL("/orgs/" + sp.OrganizationID + "/openapi/" + sp.Slug + "/versions/" + v.ID)
	return out, nil
}

// latestVersionID is the current version of a specification, or 404 when it has none yet.
func latestVersionID(sp *store.OpenAPISpec) (string, error) {
	if sp.LastVersionID == "" {
		return "", store.Errorf(store.ENOTFOUND, "The OpenAPI specification %q has no version yet: it is %s.", sp.Slug, processingWord(sp))
	}
	return sp.LastVersionID, nil
}

func processingWord(sp *store.OpenAPISpec) string {
	if sp.ProcessingState == store.OpenAPIComplete {
		return "processed but its document has errors (see lastProcessedErrors)"
	}
	return "waiting to be processed"
}

func (s *Server) ListOpenAPISpecVersions(ctx context.Context, req gen.ListOpenAPISpecVersionsRequestObject) (gen.ListOpenAPISpecVersionsResponseObject, error) {
	_, sp, err := s.findOpenAPISpec(ctx, req.OrganizationId, req.SpecSlug)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindOpenAPISpecVersions(ctx, sp.ID, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items, err := convertItems(list.Items, func(v *store.OpenAPISpecVersion) (gen.OpenAPISpecVersion, error) { return s.toAPIOpenAPIVersion(sp, v) })
	if err != nil {
		return nil, err
	}
	return gen.ListOpenAPISpecVersions200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

// openAPIVersion returns a version the caller can read ("" for the current one).
func (s *Server) openAPIVersion(ctx context.Context, orgID, slug, versionID string) (gen.OpenAPISpecVersion, error) {
	_, sp, err := s.findOpenAPISpec(ctx, orgID, slug)
	if err != nil {
		return gen.OpenAPISpecVersion{}, err
	}
	if versionID == "" {
		if versionID, err = latestVersionID(sp); err != nil {
			return gen.OpenAPISpecVersion{}, err
		}
	}
	v, err := s.Store.FindOpenAPISpecVersion(ctx, sp.ID, versionID)
	if err != nil {
		return gen.OpenAPISpecVersion{}, err
	}
	return s.toAPIOpenAPIVersion(sp, v)
}

func (s *Server) GetLatestOpenAPISpecVersion(ctx context.Context, req gen.GetLatestOpenAPISpecVersionRequestObject) (gen.GetLatestOpenAPISpecVersionResponseObject, error) {
	v, err := s.openAPIVersion(ctx, req.OrganizationId, req.SpecSlug, "")
	if err != nil {
		return nil, err
	}
	return gen.GetLatestOpenAPISpecVersion200JSONResponse(v), nil
}

func (s *Server) GetOpenAPISpecVersionById(ctx context.Context, req gen.GetOpenAPISpecVersionByIdRequestObject) (gen.GetOpenAPISpecVersionByIdResponseObject, error) {
	v, err := s.openAPIVersion(ctx, req.OrganizationId, req.SpecSlug, req.VersionId)
	if err != nil {
		return nil, err
	}
	return gen.GetOpenAPISpecVersionById200JSONResponse(v), nil
}

// openAPIContent returns a version's parsed files and download address ("" for the current one).
func (s *Server) openAPIContent(ctx context.Context, orgID, slug, versionID string) (gen.OpenAPISpecContent, error) {
	var out gen.OpenAPISpecContent
	_, sp, err := s.findOpenAPISpec(ctx, orgID, slug)
	if err != nil {
		return out, err
	}
	if versionID == "" {
		if versionID, err = latestVersionID(sp); err != nil {
			return out, err
		}
	}
	c, err := s.Store.FindOpenAPISpecVersionContent(ctx, sp.ID, versionID)
	if err != nil {
		return out, err
	}
	out.Filesystem = c.Filesystem
	if out.Url, err = s.openAPIDocumentURL(sp, c.ID); err != nil {
		return out, err
	}
	out.Urls.Source = out.Url
	if sp.Visibility == "public" {
		out.Urls.Public.Set(out.Url)
	} else {
		out.Urls.Public.SetNull()
	}
	return out, nil
}

func (s *Server) GetLatestOpenAPISpecVersionContent(ctx context.Context, req gen.GetLatestOpenAPISpecVersionContentRequestObject) (gen.GetLatestOpenAPISpecVersionContentResponseObject, error) {
	c, err := s.openAPIContent(ctx, req.OrganizationId, req.SpecSlug, "")
	if err != nil {
		return nil, err
	}
	return gen.GetLatestOpenAPISpecVersionContent200JSONResponse(c), nil
}

func (s *Server) GetOpenAPISpecVersionContentById(ctx context.Context, req gen.GetOpenAPISpecVersionContentByIdRequestObject) (gen.GetOpenAPISpecVersionContentByIdResponseObject, error) {
	c, err := s.openAPIContent(ctx, req.OrganizationId, req.SpecSlug, req.VersionId)
	if err != nil {
		return nil, err
	}
	return gen.GetOpenAPISpecVersionContentById200JSONResponse(c), nil
}

// serveOpenAPIDocument serves a version's raw document: to anyone for a public specification,
// else to the holder of a signed link naming that version.
func (s *Server) serveOpenAPIDocument(c echo.Context) error {
	ctx := c.Request().Context()
	notFound := &httpError{http.StatusNotFound, openAPILinks.notFound}
	sp, err := s.Store.FindOpenAPISpecByID(ctx, c.Param("specId"))
	if store.ErrorCode(err) == store.ENOTFOUND {
		return notFound
	}
	if err != nil {
		return err
	}
	versionID := c.Param("versionId")
	if sp.Visibility != "public" {
		var claims openAPIClaims
		if err := s.readLink(openAPILinks, c.QueryParam("token"), &claims, s.Store.Now()); err != nil {
			return err
		}
		if claims.Spec != sp.ID || claims.Version != versionID {
			return notFound
		}
	}
	if versionID == "latest" {
		if versionID = sp.LastVersionID; versionID == "" {
			return notFound
		}
	}
	doc, err := s.Store.FindOpenAPISpecVersionContent(ctx, sp.ID, versionID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return notFound
	}
	if err != nil {
		return err
	}
	if s.Web != nil && wantsHTML(c.Request()) {
		return s.Web.ServeOpenAPIReference(c, sp, doc)
	}
	h := c.Response().Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Disposition", contentDisposition(doc.Filename))
	if sp.Visibility == "public" {
		h.Set("Cache-Control", "public, max-age=60")
		h.Set("Access-Control-Allow-Origin", "*") // public documents are read by API explorers
	} else {
		h.Set("Cache-Control", "private, no-store")
	}
	ct := "application/yaml; charset=utf-8"
	if strings.EqualFold(doc.Format, "json") {
		ct = "application/json; charset=utf-8"
	}
	return c.Blob(http.StatusOK, ct, doc.Document)
}

// wantsHTML tells a browser's request for a document (it asks for text/html) from a tool's; raw=1
// asks for the document whatever the Accept header says.
func wantsHTML(req *http.Request) bool {
	return req.URL.Query().Get("raw") != "1" && strings.Contains(req.Header.Get("Accept"), "text/html")
}
