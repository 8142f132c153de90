package server

import (
	"context"
	"slices"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// GetIntegrationInstallationById reads one installation. It is visible to whom the installation
// list shows it: the integration's authors (admins of its owning organization), admins of the
// organization it is installed on, and the installation itself (its tokens); 404 for anyone else.
func (s *Server) GetIntegrationInstallationById(ctx context.Context, req gen.GetIntegrationInstallationByIdRequestObject) (gen.GetIntegrationInstallationByIdResponseObject, error) {
	in, owner, err := s.findIntegration(ctx, req.IntegrationName, false)
	if err != nil {
		return nil, err
	}
	f, err := s.installationFilter(ctx, owner, nil)
	if err != nil {
		return nil, err
	}
	n, err := s.Store.FindInstallation(ctx, in.ID, req.InstallationId)
	if err != nil {
		return nil, err
	}
	if (f.InstallationID != nil && *f.InstallationID != n.ID) || (f.OrgIDs != nil && !slices.Contains(f.OrgIDs, n.OrganizationID)) {
		return nil, store.NotFound("Installation")
	}
	return gen.GetIntegrationInstallationById200JSONResponse(s.toAPIInstallation(n)), nil
}

// DisableIntegrationDevelopmentMode clears the development tunnel (admins of the owning
// organization): events are no longer delivered anywhere. Clearing it when unset is no error.
func (s *Server) DisableIntegrationDevelopmentMode(ctx context.Context, req gen.DisableIntegrationDevelopmentModeRequestObject) (gen.DisableIntegrationDevelopmentModeResponseObject, error) {
	if _, _, err := s.findIntegration(ctx, req.IntegrationName, true); err != nil {
		return nil, err
	}
	if err := s.Store.SetIntegrationDevMode(ctx, req.IntegrationName, nil, false); err != nil {
		return nil, err
	}
	return gen.DisableIntegrationDevelopmentMode205Response{}, nil
}
