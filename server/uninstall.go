package server

import (
	"context"
	"encoding/json"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// The rest of an installation's life: reading, configuring and removing its space and site
// installations one by one, uninstalling it, and the organization's list of what is installed.
// Changes are made by admins of the installation's organization (as installing is); an
// installation token may read and configure its own space and site installations.

// readableInstallation returns an installation of an integration for reading its space and site
// installations: the integration's authors (admins of its owning organization) and the
// installation itself read it; anyone else must be an admin of the organization it is installed
// on (404 outside it, 403 for another role). An installation of another integration is a 404.
func (s *Server) readableInstallation(ctx context.Context, name, id string) (*store.Integration, *store.IntegrationInstallation, error) {
	in, owner, err := s.findIntegration(ctx, name, false)
	if err != nil {
		return nil, nil, err
	}
	n, err := s.Store.FindInstallation(ctx, in.ID, id)
	if err != nil {
		return nil, nil, access.NotFoundAs(err, "Installation")
	}
	if u := access.Caller(ctx); u.InstallationID != "" {
		// The gate lets a token reach its own installation only; this holds without it too.
		if u.InstallationID != n.ID {
			return nil, nil, store.NotFound("Installation")
		}
		return in, n, nil
	}
	if owner.CallerRole == store.RoleAdmin {
		return in, n, nil
	}
	if _, err := s.Access.RequireOrgRole(ctx, n.OrganizationID, store.RoleAdmin); err != nil {
		return nil, nil, access.NotFoundAs(err, "Installation")
	}
	return in, n, nil
}

// extendedParam is the `extended` query parameter: the space or site object instead of its id.
func extendedParam(v *bool) bool { return v != nil && *v }

func (s *Server) installationContent(ctx context.Context, name, id, kind string, p store.Page) (store.List[*store.ContentInstallation], error) {
	in, n, err := s.readableInstallation(ctx, name, id)
	if err != nil {
		return store.List[*store.ContentInstallation]{}, err
	}
	return s.Store.FindContentInstallations(ctx, in.ID, kind, store.InstallationFilter{InstallationID: &n.ID}, p)
}

func (s *Server) ListIntegrationInstallationSpaces(ctx context.Context, req gen.ListIntegrationInstallationSpacesRequestObject) (gen.ListIntegrationInstallationSpacesResponseObject, error) {
	q := req.Params
	list, err := s.installationContent(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSpace, page(q.Page, q.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListIntegrationInstallationSpaces200JSONResponse{Count: list.Count, Next: listNext(list.Next),
		Items: make([]gen.IntegrationSpaceInstallation, 0, len(list.Items))}
	for _, c := range list.Items {
		item, err := s.toAPISpaceInstallation(ctx, c, extendedParam(q.Extended))
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func (s *Server) ListIntegrationInstallationSites(ctx context.Context, req gen.ListIntegrationInstallationSitesRequestObject) (gen.ListIntegrationInstallationSitesResponseObject, error) {
	q := req.Params
	list, err := s.installationContent(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSite, page(q.Page, q.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListIntegrationInstallationSites200JSONResponse{Count: list.Count, Next: listNext(list.Next),
		Items: make([]gen.IntegrationSiteInstallation, 0, len(list.Items))}
	for _, c := range list.Items {
		item, err := s.toAPISiteInstallation(ctx, c, extendedParam(q.Extended))
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

// contentInstallation reads one space or site installation of a readable installation.
func (s *Server) contentInstallation(ctx context.Context, name, id, kind, targetID string) (*store.ContentInstallation, error) {
	_, n, err := s.readableInstallation(ctx, name, id)
	if err != nil {
		return nil, err
	}
	return s.Store.FindContentInstallation(ctx, n.ID, kind, targetID)
}

func (s *Server) GetIntegrationSpaceInstallation(ctx context.Context, req gen.GetIntegrationSpaceInstallationRequestObject) (gen.GetIntegrationSpaceInstallationResponseObject, error) {
	c, err := s.contentInstallation(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSpace, req.SpaceId)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPISpaceInstallation(ctx, c, extendedParam(req.Params.Extended))
	if err != nil {
		return nil, err
	}
	return gen.GetIntegrationSpaceInstallation200JSONResponse(out), nil
}

func (s *Server) GetIntegrationSiteInstallation(ctx context.Context, req gen.GetIntegrationSiteInstallationRequestObject) (gen.GetIntegrationSiteInstallationResponseObject, error) {
	c, err := s.contentInstallation(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSite, req.SiteId)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPISiteInstallation(ctx, c, extendedParam(req.Params.Extended))
	if err != nil {
		return nil, err
	}
	return gen.GetIntegrationSiteInstallation200JSONResponse(out), nil
}

// updateContentInstallation sets a space or site installation's configuration (checked against
// the integration's space or site schema: a 400 names the property; without one in the body the
// current configuration is checked again, as the schema may have changed since) and external ids.
func (s *Server) updateContentInstallation(ctx context.Context, name, id, kind, targetID string, b *gen.UpdateIntegrationContentInstallationRequest) (*store.ContentInstallation, error) {
	in, n, err := s.findInstallation(ctx, name, id)
	if err != nil {
		return nil, err
	}
	c, err := s.Store.FindContentInstallation(ctx, n.ID, kind, targetID)
	if err != nil {
		return nil, err
	}
	upd := store.ContentInstallationUpdate{ExternalIDs: b.ExternalIds}
	config := configMap(c.Configuration)
	if b.Configuration != nil {
		config = *b.Configuration
		if upd.Configuration, err = json.Marshal(config); err != nil {
			return nil, err
		}
	}
	schema, err := integrationSchema(in, kind)
	if err != nil {
		return nil, err
	}
	status, err := checkConfiguration(kind, schema, config)
	if err != nil {
		return nil, err
	}
	upd.Status = string(status)
	return s.Store.UpdateContentInstallation(ctx, n.ID, kind, targetID, upd)
}

func (s *Server) UpdateIntegrationSpaceInstallation(ctx context.Context, req gen.UpdateIntegrationSpaceInstallationRequestObject) (gen.UpdateIntegrationSpaceInstallationResponseObject, error) {
	c, err := s.updateContentInstallation(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSpace, req.SpaceId, req.Body)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPISpaceInstallation(ctx, c, extendedParam(req.Params.Extended))
	if err != nil {
		return nil, err
	}
	return gen.UpdateIntegrationSpaceInstallation200JSONResponse(out), nil
}

func (s *Server) UpdateIntegrationSiteInstallation(ctx context.Context, req gen.UpdateIntegrationSiteInstallationRequestObject) (gen.UpdateIntegrationSiteInstallationResponseObject, error) {
	c, err := s.updateContentInstallation(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSite, req.SiteId, req.Body)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPISiteInstallation(ctx, c, extendedParam(req.Params.Extended))
	if err != nil {
		return nil, err
	}
	return gen.UpdateIntegrationSiteInstallation200JSONResponse(out), nil
}

// uninstallFromContent removes an installation from a space or site: false when it was not set
// up there (the installation itself must exist and be the caller's to administer).
func (s *Server) uninstallFromContent(ctx context.Context, name, id, kind, targetID string) (bool, error) {
	_, n, err := s.findInstallation(ctx, name, id)
	if err != nil {
		return false, err
	}
	err = s.Store.UninstallFromContent(ctx, n.ID, kind, targetID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return false, nil
	}
	return err == nil, err
}

func (s *Server) UninstallIntegrationFromSpace(ctx context.Context, req gen.UninstallIntegrationFromSpaceRequestObject) (gen.UninstallIntegrationFromSpaceResponseObject, error) {
	removed, err := s.uninstallFromContent(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSpace, req.SpaceId)
	if err != nil {
		return nil, err
	}
	if !removed {
		return gen.UninstallIntegrationFromSpace204Response{}, nil
	}
	return gen.UninstallIntegrationFromSpace205Response{}, nil
}

func (s *Server) UninstallIntegrationFromSite(ctx context.Context, req gen.UninstallIntegrationFromSiteRequestObject) (gen.UninstallIntegrationFromSiteResponseObject, error) {
	removed, err := s.uninstallFromContent(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSite, req.SiteId)
	if err != nil {
		return nil, err
	}
	if !removed {
		return gen.UninstallIntegrationFromSite204Response{}, nil
	}
	return gen.UninstallIntegrationFromSite205Response{}, nil
}

// UninstallIntegration removes an installation from its organization (its admins): 205, or 204
// when there is no such installation at all. An installation of another integration, or of an
// organization the caller is not a member of, is a 404 as everywhere else.
func (s *Server) UninstallIntegration(ctx context.Context, req gen.UninstallIntegrationRequestObject) (gen.UninstallIntegrationResponseObject, error) {
	in, _, err := s.findIntegration(ctx, req.IntegrationName, false)
	if err != nil {
		return nil, err
	}
	n, err := s.Store.FindInstallation(ctx, "", req.InstallationId)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return gen.UninstallIntegration204Response{}, nil
	}
	if err != nil {
		return nil, err
	}
	if n.IntegrationID != in.ID {
		return nil, store.NotFound("Installation")
	}
	if _, err := s.Access.RequireOrgRole(ctx, n.OrganizationID, store.RoleAdmin); err != nil {
		return nil, access.NotFoundAs(err, "Installation")
	}
	err = s.Store.UninstallIntegration(ctx, in.ID, n.ID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return gen.UninstallIntegration204Response{}, nil // uninstalled by a concurrent call
	}
	if err != nil {
		return nil, err
	}
	return gen.UninstallIntegration205Response{}, nil
}

// ListOrganizationInstallations lists what is installed on an organization, each installation
// with its integration (the organization's admins).
func (s *Server) ListOrganizationInstallations(ctx context.Context, req gen.ListOrganizationInstallationsRequestObject) (gen.ListOrganizationInstallationsResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleAdmin); err != nil {
		return nil, err
	}
	q := req.Params
	list, err := s.Store.FindOrganizationInstallations(ctx, req.OrganizationId, q.Search, page(q.Page, q.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListOrganizationInstallations200JSONResponse{Count: list.Count, Next: listNext(list.Next),
		Items: make([]gen.OrganizationInstallation, 0, len(list.Items))}
	owners := map[string]*store.Organization{}
	for _, it := range list.Items {
		owner, ok := owners[it.Integration.OrganizationID]
		if !ok {
			if owner, err = s.integrationOwner(ctx, it.Integration.OrganizationID); err != nil {
				return nil, err
			}
			owners[it.Integration.OrganizationID] = owner
		}
		integration, err := s.toAPIIntegration(it.Integration, owner)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, gen.OrganizationInstallation{Installation: s.toAPIInstallation(it.Installation),
			Integration: integration})
	}
	return out, nil
}
