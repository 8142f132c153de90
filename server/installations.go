package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

func (s *Server) installationPath(name, id string) string {
	return "/integrations/" + url.PathEscape(name) + "/installations/" + url.PathEscape(id)
}

func configMap(raw json.RawMessage) map[string]any {
	m := map[string]any{}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &m)
	}
	return m
}

func (s *Server) toAPIInstallation(n *store.IntegrationInstallation) gen.IntegrationInstallation {
	path := s.installationPath(n.IntegrationName, n.ID)
	out := gen.IntegrationInstallation{
		Id:             n.ID,
		Status:         gen.IntegrationInstallationStatus(n.Status),
		SpaceSelection: gen.IntegrationInstallationSelection(n.SpaceSelection),
		SiteSelection:  gen.IntegrationInstallationSelection(n.SiteSelection),
		Spaces:         n.Spaces,
		Configuration:  configMap(n.Configuration),
		ExternalIds:    nonNil(n.ExternalIDs),
		CreatedAt:      n.CreatedAt,
		UpdatedAt:      n.UpdatedAt,
		Target:         gen.IntegrationInstallationTarget{Organization: n.OrganizationID},
	}
	out.Urls.Location = s.apiURL(path)
	out.Urls.App = s.appURL("/o/" + n.OrganizationID + "/integrations/" + url.PathEscape(n.IntegrationName))
	out.Urls.PublicEndpoint = s.BaseURL + path
	out.Urls.PublicContentEndpoint = out.Urls.PublicEndpoint
	return out
}

// installationFilter narrows installation lists to what the caller may see: every installation
// for the owning organization's admins (the integration's authors), the caller's own one for an
// installation token, and otherwise those of the organizations the caller administers.
func (s *Server) installationFilter(ctx context.Context, owner *store.Organization, externalID *string) (store.InstallationFilter, error) {
	f := store.InstallationFilter{ExternalID: externalID}
	u := access.Caller(ctx)
	switch {
	case u.InstallationID != "":
		f.InstallationID = &u.InstallationID
	case owner.CallerRole == store.RoleAdmin:
	default:
		ids, err := s.callerOrgIDs(ctx)
		if err != nil {
			return f, err
		}
		f.OrgIDs = []string{}
		for _, id := range ids {
			if role, err := s.Store.FindMemberRole(ctx, id, u.ID); err == nil && role == store.RoleAdmin {
				f.OrgIDs = append(f.OrgIDs, id)
			}
		}
	}
	return f, nil
}

func (s *Server) ListIntegrationInstallations(ctx context.Context, req gen.ListIntegrationInstallationsRequestObject) (gen.ListIntegrationInstallationsResponseObject, error) {
	in, owner, err := s.findIntegration(ctx, req.IntegrationName, false)
	if err != nil {
		return nil, err
	}
	f, err := s.installationFilter(ctx, owner, req.Params.ExternalId)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindInstallations(ctx, in.ID, f, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListIntegrationInstallations200JSONResponse{Count: list.Count, Next: listNext(list.Next),
		Items: make([]gen.IntegrationInstallation, 0, len(list.Items))}
	for _, n := range list.Items {
		out.Items = append(out.Items, s.toAPIInstallation(n))
	}
	return out, nil
}

// integrationSchema returns how the integration configures a level.
func integrationSchema(in *store.Integration, level string) (levelConfiguration, error) {
	var m integrationManifest
	if err := json.Unmarshal(in.Manifest, &m); err != nil {
		return levelConfiguration{}, fmt.Errorf("server: integration %s manifest: %w", in.Name, err)
	}
	switch level {
	case "account":
		return toLevelConfiguration(m.Configurations.Account)
	case "space":
		return toLevelConfiguration(m.Configurations.Space)
	default:
		return toLevelConfiguration(m.Configurations.Site)
	}
}

func (s *Server) InstallIntegration(ctx context.Context, req gen.InstallIntegrationRequestObject) (gen.InstallIntegrationResponseObject, error) {
	in, _, err := s.findIntegration(ctx, req.IntegrationName, false)
	if err != nil {
		return nil, err
	}
	org, err := s.Store.FindOrganizationForMember(ctx, req.Body.Organization, access.Caller(ctx).ID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil, store.Errorf(store.ENOTFOUND, "Organization %q not found: nothing to install the integration on.", req.Body.Organization)
	}
	if err != nil {
		return nil, err
	}
	if org.CallerRole != store.RoleAdmin {
		return nil, forbidden("Installing an integration needs the admin role in the organization.")
	}
	schema, err := integrationSchema(in, "account")
	if err != nil {
		return nil, err
	}
	status, err := checkConfiguration("account", schema, nil)
	if err != nil {
		return nil, err
	}
	n, err := s.Store.InstallIntegration(ctx, in.ID, org.ID, string(status), access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	return gen.InstallIntegration201JSONResponse{Body: s.toAPIInstallation(n),
		Headers: gen.InstallIntegration201ResponseHeaders{Location: s.apiURL(s.installationPath(in.Name, n.ID))}}, nil
}

// findInstallation returns an installation of a visible integration, with the caller an admin of
// the installation's organization (403 otherwise; 404 when the caller is not a member of it).
func (s *Server) findInstallation(ctx context.Context, name, id string) (*store.Integration, *store.IntegrationInstallation, error) {
	in, _, err := s.findIntegration(ctx, name, false)
	if err != nil {
		return nil, nil, err
	}
	n, err := s.Store.FindInstallation(ctx, in.ID, id)
	if err != nil {
		return nil, nil, err
	}
	if _, err := s.Access.RequireOrgRole(ctx, n.OrganizationID, store.RoleAdmin); err != nil {
		return nil, nil, access.NotFoundAs(err, "Installation")
	}
	return in, n, nil
}

func (s *Server) UpdateIntegrationInstallation(ctx context.Context, req gen.UpdateIntegrationInstallationRequestObject) (gen.UpdateIntegrationInstallationResponseObject, error) {
	in, n, err := s.findInstallation(ctx, req.IntegrationName, req.InstallationId)
	if err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.InstallationUpdate{ExternalIDs: b.ExternalIds}
	config := configMap(n.Configuration)
	if b.Configuration != nil {
		config = *b.Configuration
		if upd.Configuration, err = json.Marshal(config); err != nil {
			return nil, err
		}
	}
	schema, err := integrationSchema(in, "account")
	if err != nil {
		return nil, err
	}
	status, err := checkConfiguration("account", schema, config)
	if err != nil {
		return nil, err
	}
	upd.Status = string(status)
	if b.SpaceSelection != nil {
		v := string(*b.SpaceSelection)
		upd.SpaceSelection = &v
	}
	if b.SiteSelection != nil {
		v := string(*b.SiteSelection)
		upd.SiteSelection = &v
	}
	n, err = s.Store.UpdateInstallation(ctx, in.ID, n.ID, upd)
	if err != nil {
		return nil, err
	}
	return gen.UpdateIntegrationInstallation200JSONResponse(s.toAPIInstallation(n)), nil
}

func (s *Server) CreateIntegrationInstallationToken(ctx context.Context, req gen.CreateIntegrationInstallationTokenRequestObject) (gen.CreateIntegrationInstallationTokenResponseObject, error) {
	// The integration's authors act for its installations: the owning organization's admins.
	in, _, err := s.findIntegration(ctx, req.IntegrationName, true)
	if err != nil {
		return nil, err
	}
	n, err := s.Store.FindInstallation(ctx, in.ID, req.InstallationId)
	if err != nil {
		return nil, err
	}
	token, err := s.Store.CreateInstallationToken(ctx, n.ID)
	if err != nil {
		return nil, err
	}
	return gen.CreateIntegrationInstallationToken200JSONResponse{Token: token}, nil
}
