package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// The SAML providers of organizations (seed §4.4): only admins manage them; the login infos are
// public, as the sign-in page of an organization needs them before anyone has a token.

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each):
// GetOrganizationSAMLProviderById, UpdateOrganizationSAMLProvider and
// DeleteOrganizationSAMLProvider require an admin and make one store call.

func (s *Server) toAPISAMLProvider(p *store.SAMLProvider) gen.SAMLProvider {
	out := gen.SAMLProvider{
		Object:      gen.SamlProvider,
		Id:          p.ID,
		Label:       p.Label,
		SsoURL:      p.SSOURL,
		EntityID:    p.EntityID,
		Certificate: p.Certificate,
		DefaultRole: apiRole(p.DefaultRole),
		CreatedAt:   p.CreatedAt,
		Status:      gen.SAMLProviderStatusActive,
	}
	if p.DefaultTeam != nil {
		// Only admins see providers, and admins manage every team.
		t := toAPITeam(p.DefaultTeam, store.RoleAdmin)
		out.DefaultTeam = &t
	}
	out.Service.AcsURL = s.samlURL(p.ID, "acs")
	out.Service.StartURL = s.samlURL(p.ID, "start")
	out.Service.EntityID = s.samlURL(p.ID, "metadata")
	out.Urls.Location = s.apiURL("/orgs/" + p.OrganizationID + "/saml/" + p.ID)
	return out
}

// checkSSOURL requires an absolute http(s) URL: browsers are sent there.
func checkSSOURL(raw string) error {
	return checkWebURL("ssoURL", raw)
}

func (s *Server) ListSAMLProvidersInOrganizationById(ctx context.Context, req gen.ListSAMLProvidersInOrganizationByIdRequestObject) (gen.ListSAMLProvidersInOrganizationByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	list, err := s.Store.FindSAMLProviders(ctx, req.OrganizationId, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.SAMLProvider, len(list.Items))
	for i, p := range list.Items {
		items[i] = s.toAPISAMLProvider(p)
	}
	return gen.ListSAMLProvidersInOrganizationById200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateOrganizationSAMLProvider(ctx context.Context, req gen.CreateOrganizationSAMLProviderRequestObject) (gen.CreateOrganizationSAMLProviderResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	b := req.Body
	if _, err := parseIdPCertificate(b.Certificate); err != nil {
		return nil, err
	}
	if err := checkSSOURL(b.SsoURL); err != nil {
		return nil, err
	}
	c := store.SAMLProviderCreate{Label: b.Label, EntityID: b.EntityID, Certificate: b.Certificate, SSOURL: b.SsoURL}
	if b.DefaultTeam != nil {
		c.DefaultTeamID = *b.DefaultTeam
	}
	if b.DefaultRole.IsSpecified() {
		r := storeRole(b.DefaultRole)
		c.DefaultRole = &r
	}
	p, err := s.Store.CreateSAMLProvider(ctx, req.OrganizationId, c)
	if err != nil {
		return nil, err
	}
	return gen.CreateOrganizationSAMLProvider201JSONResponse(s.toAPISAMLProvider(p)), nil
}

func (s *Server) GetOrganizationSAMLProviderById(ctx context.Context, req gen.GetOrganizationSAMLProviderByIdRequestObject) (gen.GetOrganizationSAMLProviderByIdResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	p, err := s.Store.FindSAMLProvider(ctx, req.OrganizationId, req.SamlProviderId)
	if err != nil {
		return nil, err
	}
	return gen.GetOrganizationSAMLProviderById200JSONResponse(s.toAPISAMLProvider(p)), nil
}

func (s *Server) UpdateOrganizationSAMLProvider(ctx context.Context, req gen.UpdateOrganizationSAMLProviderRequestObject) (gen.UpdateOrganizationSAMLProviderResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	b := req.Body
	if b.Certificate != nil {
		if _, err := parseIdPCertificate(*b.Certificate); err != nil {
			return nil, err
		}
	}
	if b.SsoURL != nil {
		if err := checkSSOURL(*b.SsoURL); err != nil {
			return nil, err
		}
	}
	upd := store.SAMLProviderUpdate{Label: b.Label, EntityID: b.EntityID, Certificate: b.Certificate, SSOURL: b.SsoURL,
		DefaultTeamID: b.DefaultTeam}
	if b.DefaultRole.IsSpecified() {
		r := storeRole(b.DefaultRole)
		upd.DefaultRole = &r
	}
	p, err := s.Store.UpdateSAMLProvider(ctx, req.OrganizationId, req.SamlProviderId, upd)
	if err != nil {
		return nil, err
	}
	return gen.UpdateOrganizationSAMLProvider200JSONResponse(s.toAPISAMLProvider(p)), nil
}

func (s *Server) DeleteOrganizationSAMLProvider(ctx context.Context, req gen.DeleteOrganizationSAMLProviderRequestObject) (gen.DeleteOrganizationSAMLProviderResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	if err := s.Store.DeleteSAMLProvider(ctx, req.OrganizationId, req.SamlProviderId); err != nil {
		return nil, err
	}
	return gen.DeleteOrganizationSAMLProvider204Response{}, nil
}

func (s *Server) ListSSOProviderLoginsInOrganization(ctx context.Context, req gen.ListSSOProviderLoginsInOrganizationRequestObject) (gen.ListSSOProviderLoginsInOrganizationResponseObject, error) {
	// Public: anyone may see how to sign in to an organization whose id they know. An unknown
	// organization lists no login, as one without providers does: existence is not told.
	out := gen.ListSSOProviderLoginsInOrganization200JSONResponse{Items: []gen.SSOProviderLogin{}}
	p := store.Page{}
	for {
		list, err := s.Store.FindSAMLProviders(ctx, req.OrganizationId, store.Page{Cursor: p.Cursor, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, pr := range list.Items {
			out.Items = append(out.Items, gen.SSOProviderLogin{Id: pr.ID, Label: pr.Label, StartURL: s.samlURL(pr.ID, "start")})
		}
		if list.Next == "" {
			return out, nil
		}
		p.Cursor = list.Next
	}
}
