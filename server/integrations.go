package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// integrationManifest is what a publish gives beyond the listed fields, stored as one JSON value
// and answered as it was given.
type integrationManifest struct {
	Blocks         []gen.IntegrationBlock         `json:"blocks"`
	ContentSources []gen.IntegrationContentSource `json:"contentSources"`
	Configurations gen.IntegrationConfigurations  `json:"configurations"`
	ExternalLinks  []gen.IntegrationExternalLink  `json:"externalLinks"`
	// ContentSecurityPolicy is the policy as published (a header value or its directives), to
	// answer it as given; the store's column holds its header value.
	ContentSecurityPolicy *gen.IntegrationContentSecurityPolicy `json:"contentSecurityPolicy,omitempty"`
}

// integrationAssetRoute serves an integration's images, without a token (they are public).
const integrationAssetRoute = "/integrations/:integrationName/assets/:asset"

func (s *Server) integrationBase(name string) string {
	return s.BaseURL + "/integrations/" + url.PathEscape(name)
}

func (s *Server) toAPIIntegration(in *store.Integration, owner *store.Organization) (gen.Integration, error) {
	var m integrationManifest
	if err := json.Unmarshal(in.Manifest, &m); err != nil {
		return gen.Integration{}, fmt.Errorf("server: integration %s manifest: %w", in.Name, err)
	}
	base := s.integrationBase(in.Name)
	version := strconv.Itoa(in.Version)
	out := gen.Integration{
		Object:         gen.IntegrationObjectIntegration,
		Name:           in.Name,
		Version:        in.Version,
		Title:          in.Title,
		Description:    in.Description,
		Target:         gen.IntegrationTarget(in.Target),
		Visibility:     gen.IntegrationVisibility(in.Visibility),
		Scopes:         make([]gen.IntegrationScope, 0, len(in.Scopes)),
		Categories:     make([]gen.IntegrationCategory, 0, len(in.Categories)),
		PreviewImages:  []string{},
		Blocks:         nonNil(m.Blocks),
		ContentSources: nonNil(m.ContentSources),
		Configurations: m.Configurations,
		ExternalLinks:  nonNil(m.ExternalLinks),
		Owner:          s.toAPIOrganization(owner),
		Permissions:    gen.IntegrationPermissions{Admin: owner.CallerRole == store.RoleAdmin},
	}
	if in.Summary != "" {
		out.Summary = &in.Summary
	}
	switch {
	case m.ContentSecurityPolicy != nil:
		out.ContentSecurityPolicy = m.ContentSecurityPolicy
	case in.ContentSecurityPolicy != "":
		var csp gen.IntegrationContentSecurityPolicy
		if err := csp.FromIntegrationContentSecurityPolicy0(in.ContentSecurityPolicy); err != nil {
			return gen.Integration{}, err
		}
		out.ContentSecurityPolicy = &csp
	}
	for _, sc := range in.Scopes {
		out.Scopes = append(out.Scopes, gen.IntegrationScope(sc))
	}
	for _, c := range in.Categories {
		out.Categories = append(out.Categories, gen.IntegrationCategory(c))
	}
	for i := 0; i < in.PreviewImages; i++ {
		out.PreviewImages = append(out.PreviewImages, base+"/assets/preview-"+strconv.Itoa(i)+"?v="+version)
	}
	out.Urls.Location = s.apiURL("/integrations/" + url.PathEscape(in.Name))
	out.Urls.App = s.appURL("/integrations/" + url.PathEscape(in.Name))
	out.Urls.Assets = base + "/assets/"
	out.Urls.PublicEndpoint = base
	out.Urls.PublicContentEndpoint = base
	if in.HasIcon {
		icon := base + "/assets/icon?v=" + version
		out.Urls.Icon = &icon
	}
	return out, nil
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// integrationOwner returns the organization owning an integration, with the caller's membership
// when the caller has one (permissions.admin comes from it).
func (s *Server) integrationOwner(ctx context.Context, orgID string) (*store.Organization, error) {
	o, err := s.Store.FindOrganizationForMember(ctx, orgID, access.Caller(ctx).ID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return s.Store.FindOrganizationByID(ctx, orgID)
	}
	return o, err
}

// findIntegration returns an integration the caller may see: public and unlisted ones to
// everyone, private ones to members of the owning organization; 404 otherwise. With admin, the
// caller must be an admin of the owning organization (403 otherwise).
func (s *Server) findIntegration(ctx context.Context, name string, admin bool) (*store.Integration, *store.Organization, error) {
	in, err := s.Store.FindIntegrationByName(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	owner, err := s.integrationOwner(ctx, in.OrganizationID)
	if err != nil {
		return nil, nil, err
	}
	// An installation token sees its own integration, whatever its visibility.
	own := access.Grant(ctx) != nil && access.Grant(ctx).IntegrationName == in.Name
	if in.Visibility == "private" && !owner.CallerIsMember && !own {
		return nil, nil, store.Errorf(store.ENOTFOUND, "Integration %q not found.", name)
	}
	if admin && owner.CallerRole != store.RoleAdmin {
		return nil, nil, forbidden("This needs the admin role in the organization that owns the integration.")
	}
	return in, owner, nil
}

// callerOrgIDs lists the organizations the caller is a member of.
func (s *Server) callerOrgIDs(ctx context.Context) ([]string, error) {
	ids := []string{}
	p := store.Page{Limit: 1000}
	for {
		list, err := s.Store.FindOrganizationsForUser(ctx, access.Caller(ctx).ID, p)
		if err != nil {
			return nil, err
		}
		for _, o := range list.Items {
			ids = append(ids, o.ID)
		}
		if list.Next == "" {
			return ids, nil
		}
		p.Cursor = list.Next
	}
}

func (s *Server) ListIntegrations(ctx context.Context, req gen.ListIntegrationsRequestObject) (gen.ListIntegrationsResponseObject, error) {
	orgs, err := s.callerOrgIDs(ctx)
	if err != nil {
		return nil, err
	}
	q := req.Params
	f := store.IntegrationFilter{Search: q.Search, BlockDomain: q.BlockDomain, HasBlocks: q.Blocks,
		HasContentSources: q.ContentSources, Owner: q.Owner, MemberOf: orgs}
	if q.Category != nil {
		f.Category = (*string)(q.Category)
	}
	if q.Scope != nil {
		f.Scope = (*string)(q.Scope)
	}
	if q.Target != nil {
		f.Target = (*string)(q.Target)
	}
	list, err := s.Store.FindIntegrations(ctx, f, page(q.Page, q.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListIntegrations200JSONResponse{Count: list.Count, Next: listNext(list.Next), Items: []gen.Integration{}}
	owners := map[string]*store.Organization{}
	for _, in := range list.Items {
		owner, ok := owners[in.OrganizationID]
		if !ok {
			if owner, err = s.integrationOwner(ctx, in.OrganizationID); err != nil {
				return nil, err
			}
			owners[in.OrganizationID] = owner
		}
		item, err := s.toAPIIntegration(in, owner)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func (s *Server) GetIntegrationByName(ctx context.Context, req gen.GetIntegrationByNameRequestObject) (gen.GetIntegrationByNameResponseObject, error) {
	in, owner, err := s.findIntegration(ctx, req.IntegrationName, false)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIIntegration(in, owner)
	if err != nil {
		return nil, err
	}
	return gen.GetIntegrationByName200JSONResponse(out), nil
}

// publishOrganization resolves the `organization` of a publish (an id or a hostname) to an
// organization the caller administers.
func (s *Server) publishOrganization(ctx context.Context, ref string) (*store.Organization, error) {
	o, err := s.Store.FindOrganizationForMember(ctx, ref, access.Caller(ctx).ID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		id, herr := s.Store.FindOrganizationIDByHostname(ctx, ref)
		if herr != nil {
			return nil, store.Errorf(store.ENOTFOUND, "Organization %q not found (give its id or hostname).", ref)
		}
		o, err = s.Store.FindOrganizationForMember(ctx, id, access.Caller(ctx).ID)
	}
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil, store.Errorf(store.ENOTFOUND, "Organization %q not found (give its id or hostname).", ref)
	}
	if err != nil {
		return nil, err
	}
	if o.CallerRole != store.RoleAdmin {
		return nil, forbidden("Publishing an integration needs the admin role in its organization.")
	}
	return o, nil
}

func (s *Server) PublishIntegration(ctx context.Context, req gen.PublishIntegrationRequestObject) (gen.PublishIntegrationResponseObject, error) {
	b := req.Body
	org, err := s.publishOrganization(ctx, b.Organization)
	if err != nil {
		return nil, err
	}
	existing, err := s.Store.FindIntegrationByName(ctx, req.IntegrationName)
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return nil, err
	}
	if existing != nil && existing.OrganizationID != org.ID {
		return nil, store.Errorf(store.ECONFLICT, "The integration name %q belongs to another organization.", req.IntegrationName)
	}
	p, err := s.integrationPublish(req.IntegrationName, org.ID, b)
	if err != nil {
		return nil, err
	}
	if existing == nil {
		secret := make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
		if p.SealedSigningSecret, err = s.seal([]byte(hex.EncodeToString(secret))); err != nil {
			return nil, err
		}
	}
	in, err := s.Store.PublishIntegration(ctx, p)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIIntegration(in, org)
	if err != nil {
		return nil, err
	}
	return gen.PublishIntegration200JSONResponse(out), nil
}

func (s *Server) UnpublishIntegration(ctx context.Context, req gen.UnpublishIntegrationRequestObject) (gen.UnpublishIntegrationResponseObject, error) {
	if _, _, err := s.findIntegration(ctx, req.IntegrationName, true); err != nil {
		if store.ErrorCode(err) == store.ENOTFOUND {
			return gen.UnpublishIntegration204Response{}, nil
		}
		return nil, err
	}
	if err := s.Store.DeleteIntegration(ctx, req.IntegrationName); err != nil {
		return nil, err
	}
	return gen.UnpublishIntegration204Response{}, nil
}

func (s *Server) SetIntegrationDevelopmentMode(ctx context.Context, req gen.SetIntegrationDevelopmentModeRequestObject) (gen.SetIntegrationDevelopmentModeResponseObject, error) {
	if _, _, err := s.findIntegration(ctx, req.IntegrationName, true); err != nil {
		return nil, err
	}
	if err := checkWebURL("tunnelUrl", req.Body.TunnelUrl); err != nil {
		return nil, err
	}
	all := req.Body.All != nil && *req.Body.All
	if err := s.Store.SetIntegrationDevMode(ctx, req.IntegrationName, &req.Body.TunnelUrl, all); err != nil {
		return nil, err
	}
	return gen.SetIntegrationDevelopmentMode204Response{}, nil
}

// serveIntegrationAsset answers an integration's icon or preview image. Only raster images are
// ever stored, and they are sent with nosniff, so an upload cannot become a page.
func (s *Server) serveIntegrationAsset(c echo.Context) error {
	a, err := s.Store.FindIntegrationAsset(c.Request().Context(), c.Param("integrationName"), c.Param("asset"))
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Content-Security-Policy", "default-src 'none'")
	return c.Blob(http.StatusOK, a.ContentType, a.Data)
}

// imageAsset checks that uploaded bytes are a raster image.
func imageAsset(data []byte, field string) (*store.IntegrationAsset, error) {
	ct := http.DetectContentType(data)
	switch ct {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return &store.IntegrationAsset{ContentType: ct, Data: data}, nil
	}
	return nil, badRequest(fmt.Sprintf(`Invalid body field %q: a PNG, JPEG, GIF or WebP image (base64) is needed.`, field))
}

// integrationPublish checks a publish beyond what the spec enforces and turns it into the store's form.
func (s *Server) integrationPublish(name, orgID string, b *gen.PublishIntegrationRequest) (*store.IntegrationPublish, error) {
	p := &store.IntegrationPublish{Integration: store.Integration{Name: name, OrganizationID: orgID,
		Title: b.Title, Description: b.Description, Script: b.Script,
		Visibility: "public", Target: "all", Runtime: "v1"}}
	if b.Summary != nil {
		p.Summary = *b.Summary
	}
	if b.Visibility != nil {
		p.Visibility = string(*b.Visibility)
	}
	if b.Target != nil {
		p.Target = string(*b.Target)
	}
	if b.Runtime != nil {
		p.Runtime = string(*b.Runtime)
	}
	seen := map[string]bool{}
	p.Scopes = []string{}
	for _, sc := range b.Scopes {
		if !seen[string(sc)] {
			seen[string(sc)] = true
			p.Scopes = append(p.Scopes, string(sc))
		}
	}
	p.Categories = []string{}
	if b.Categories != nil {
		for _, c := range *b.Categories {
			if !seen["c:"+string(c)] {
				seen["c:"+string(c)] = true
				p.Categories = append(p.Categories, string(c))
			}
		}
	}
	if b.Icon != nil {
		icon, err := imageAsset(*b.Icon, "icon")
		if err != nil {
			return nil, err
		}
		p.Icon = icon
	}
	if b.PreviewImages != nil {
		for i, img := range *b.PreviewImages {
			a, err := imageAsset(img, "previewImages."+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			p.Previews = append(p.Previews, *a)
		}
	}
	var m integrationManifest
	if b.ContentSecurityPolicy != nil {
		header, err := cspHeader(*b.ContentSecurityPolicy)
		if err != nil {
			return nil, err
		}
		p.ContentSecurityPolicy, m.ContentSecurityPolicy = header, b.ContentSecurityPolicy
	}
	if b.Blocks != nil {
		m.Blocks = *b.Blocks
	}
	if b.ContentSources != nil {
		m.ContentSources = *b.ContentSources
	}
	if b.ExternalLinks != nil {
		m.ExternalLinks = *b.ExternalLinks
	}
	if b.Configurations != nil {
		m.Configurations = *b.Configurations
		for _, c := range []struct {
			name string
			conf *gen.IntegrationConfiguration
		}{{"account", m.Configurations.Account}, {"space", m.Configurations.Space}, {"site", m.Configurations.Site}} {
			lc, err := toLevelConfiguration(c.conf)
			if err != nil {
				return nil, err
			}
			if err := checkConfigurationSchema("configurations."+c.name, lc.schema); err != nil {
				return nil, err
			}
		}
	}
	domains := map[string]bool{}
	for i, bl := range m.Blocks {
		if bl.UrlUnfurl == nil {
			continue
		}
		for j, raw := range *bl.UrlUnfurl {
			u, err := url.Parse(raw)
			host := ""
			if err == nil {
				host = strings.ToLower(u.Hostname())
			}
			if host == "" {
				return nil, badRequest(fmt.Sprintf(`Invalid body field "blocks.%d.urlUnfurl.%d": an absolute URL is needed.`, i, j))
			}
			if !domains[host] {
				domains[host] = true
				p.BlockDomains = append(p.BlockDomains, host)
			}
		}
	}
	p.HasBlocks, p.HasContentSources = len(m.Blocks) > 0, len(m.ContentSources) > 0
	manifest, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	p.Manifest = manifest
	secrets := map[string]string{}
	if b.Secrets != nil {
		secrets = *b.Secrets
	}
	plain, _ := json.Marshal(secrets)
	if p.SealedSecrets, err = s.seal(plain); err != nil {
		return nil, err
	}
	return p, nil
}
