package server

import (
	"context"
	"net/url"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Installations on spaces and sites: an installation of an organization set up on some of its
// spaces or sites (installIntegrationOnSpace, installIntegrationOnSite, and their lists).

func (s *Server) contentInstallationURLs(c *store.ContentInstallation) gen.IntegrationContentInstallationURLs {
	path := s.installationPath(c.IntegrationName, c.InstallationID) + "/" + c.Kind + "s/" + url.PathEscape(c.TargetID)
	return gen.IntegrationContentInstallationURLs{Location: s.apiURL(path), PublicEndpoint: s.BaseURL + path,
		PublicContentEndpoint: s.BaseURL + path}
}

// spaceTarget and siteTarget answer the space or site of a content installation: its id, or with extended
// the object (with the caller's role on it; none for content of organizations the caller is not
// in, which only the integration's authors list).
func (s *Server) spaceTarget(ctx context.Context, c *store.ContentInstallation, extended bool) (gen.IntegrationSpaceInstallationSpace, error) {
	var out gen.IntegrationSpaceInstallationSpace
	if !extended {
		return out, out.FromIntegrationSpaceInstallationSpace0(c.TargetID)
	}
	sp, orgRole, member, err := s.Store.FindSpaceForUser(ctx, c.TargetID, access.Caller(ctx).ID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		// The space was purged since: its installation is answered by id.
		return out, out.FromIntegrationSpaceInstallationSpace0(c.TargetID)
	}
	if err != nil {
		return out, err
	}
	role := store.RoleGuest
	if member {
		roles := s.Access.ContentRolesFor(sp.OrganizationID, access.Caller(ctx).ID, orgRole)
		if role, err = roles.Of(ctx, sp.ID, sp.DefaultLevel, sp.ParentID); err != nil {
			return out, err
		}
	}
	return out, out.FromSpace(s.toAPISpace(sp, role))
}

func (s *Server) siteTarget(ctx context.Context, c *store.ContentInstallation, extended bool) (gen.IntegrationSiteInstallationSite, error) {
	var out gen.IntegrationSiteInstallationSite
	if !extended {
		return out, out.FromIntegrationSiteInstallationSite0(c.TargetID)
	}
	site, err := s.Store.FindSite(ctx, c.TargetID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		// The site was deleted since: its installation is answered by id.
		return out, out.FromIntegrationSiteInstallationSite0(c.TargetID)
	}
	if err != nil {
		return out, err
	}
	role, err := s.Store.FindMemberRole(ctx, site.OrganizationID, access.Caller(ctx).ID)
	if err != nil {
		role = store.RoleGuest
	}
	return out, out.FromSite(s.toAPISite(site, role))
}

func (s *Server) toAPISpaceInstallation(ctx context.Context, c *store.ContentInstallation, extended bool) (gen.IntegrationSpaceInstallation, error) {
	target, err := s.spaceTarget(ctx, c, extended)
	return gen.IntegrationSpaceInstallation{Integration: c.IntegrationName, Installation: c.InstallationID,
		Status: gen.IntegrationInstallationStatus(c.Status), Configuration: configMap(c.Configuration),
		ExternalIds: nonNil(c.ExternalIDs), Urls: s.contentInstallationURLs(c), Space: target}, err
}

func (s *Server) toAPISiteInstallation(ctx context.Context, c *store.ContentInstallation, extended bool) (gen.IntegrationSiteInstallation, error) {
	target, err := s.siteTarget(ctx, c, extended)
	return gen.IntegrationSiteInstallation{Integration: c.IntegrationName, Installation: c.InstallationID,
		Status: gen.IntegrationInstallationStatus(c.Status), Configuration: configMap(c.Configuration),
		ExternalIds: nonNil(c.ExternalIDs), Urls: s.contentInstallationURLs(c), Site: target}, err
}

// installOnContent sets an installation up on a space or site: the integration's target must
// allow that kind, the caller administers the installation's organization, and the content is
// that organization's (404 otherwise: "installing on an unknown target").
func (s *Server) installOnContent(ctx context.Context, name, installationID, kind, targetID string) (*store.ContentInstallation, error) {
	in, n, err := s.findInstallation(ctx, name, installationID)
	if err != nil {
		return nil, err
	}
	if in.Target != "all" && in.Target != kind {
		return nil, badRequest("The integration " + in.Name + " cannot be installed on a " + kind + " (its target is " + in.Target + ").")
	}
	schema, err := integrationSchema(in, kind)
	if err != nil {
		return nil, err
	}
	status, err := checkConfiguration(kind, schema, nil)
	if err != nil {
		return nil, err
	}
	c, err := s.Store.InstallOnContent(ctx, n.ID, kind, targetID, string(status))
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil, store.Errorf(store.ENOTFOUND, "No %s %q in the installation's organization to install on.", kind, targetID)
	}
	return c, err
}

func (s *Server) InstallIntegrationOnSpace(ctx context.Context, req gen.InstallIntegrationOnSpaceRequestObject) (gen.InstallIntegrationOnSpaceResponseObject, error) {
	c, err := s.installOnContent(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSpace, req.Body.Space)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPISpaceInstallation(ctx, c, req.Params.Extended != nil && *req.Params.Extended)
	if err != nil {
		return nil, err
	}
	return gen.InstallIntegrationOnSpace201JSONResponse{Body: out,
		Headers: gen.InstallIntegrationOnSpace201ResponseHeaders{Location: out.Urls.Location}}, nil
}

func (s *Server) InstallIntegrationOnSite(ctx context.Context, req gen.InstallIntegrationOnSiteRequestObject) (gen.InstallIntegrationOnSiteResponseObject, error) {
	c, err := s.installOnContent(ctx, req.IntegrationName, req.InstallationId, store.InstallOnSite, req.Body.SiteId)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPISiteInstallation(ctx, c, req.Params.Extended != nil && *req.Params.Extended)
	if err != nil {
		return nil, err
	}
	return gen.InstallIntegrationOnSite201JSONResponse{Body: out,
		Headers: gen.InstallIntegrationOnSite201ResponseHeaders{Location: out.Urls.Location}}, nil
}

// contentInstallations lists an integration's space or site installations the caller may see.
func (s *Server) contentInstallations(ctx context.Context, name, kind string, externalID *string, p store.Page) (store.List[*store.ContentInstallation], error) {
	in, owner, err := s.findIntegration(ctx, name, false)
	if err != nil {
		return store.List[*store.ContentInstallation]{}, err
	}
	f, err := s.installationFilter(ctx, owner, externalID)
	if err != nil {
		return store.List[*store.ContentInstallation]{}, err
	}
	return s.Store.FindContentInstallations(ctx, in.ID, kind, f, p)
}

func (s *Server) ListIntegrationSpaceInstallations(ctx context.Context, req gen.ListIntegrationSpaceInstallationsRequestObject) (gen.ListIntegrationSpaceInstallationsResponseObject, error) {
	q := req.Params
	list, err := s.contentInstallations(ctx, req.IntegrationName, store.InstallOnSpace, q.ExternalId, page(q.Page, q.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListIntegrationSpaceInstallations200JSONResponse{Count: list.Count, Next: listNext(list.Next),
		Items: make([]gen.IntegrationSpaceInstallation, 0, len(list.Items))}
	for _, c := range list.Items {
		item, err := s.toAPISpaceInstallation(ctx, c, q.Extended != nil && *q.Extended)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func (s *Server) ListIntegrationSiteInstallations(ctx context.Context, req gen.ListIntegrationSiteInstallationsRequestObject) (gen.ListIntegrationSiteInstallationsResponseObject, error) {
	q := req.Params
	list, err := s.contentInstallations(ctx, req.IntegrationName, store.InstallOnSite, q.ExternalId, page(q.Page, q.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListIntegrationSiteInstallations200JSONResponse{Count: list.Count, Next: listNext(list.Next),
		Items: make([]gen.IntegrationSiteInstallation, 0, len(list.Items))}
	for _, c := range list.Items {
		item, err := s.toAPISiteInstallation(ctx, c, q.Extended != nil && *q.Extended)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}
