package server

import (
	"context"
	"fmt"
	"net/url"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Import runs: startImportRun records a pending run and queues its job (importrun.go), which
// imports a website or uploaded files into a space, a change request or under a page through
// internal/gitsync's importer. quire imports without AI: `enhance` is recorded and answered only.

func (s *Server) StartImportRun(ctx context.Context, req gen.StartImportRunRequestObject) (gen.StartImportRunResponseObject, error) {
	b := req.Body
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	sp, _, err := s.Access.FindSpace(ctx, b.Target.Space, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	if sp.OrganizationID != req.OrganizationId {
		return nil, store.FieldErrorf("target.space", "is not a space of organization %s", req.OrganizationId)
	}
	if sp.EditMode == "locked" {
		return nil, store.Errorf(store.ECONFLICT, "The space is locked: its content cannot change.")
	}
	run := &store.ImportRun{OrganizationID: sp.OrganizationID, SpaceID: sp.ID, Source: string(b.Source.Type),
		Enhance: b.Enhance == nil || *b.Enhance, CreatedBy: access.Caller(ctx).ID}
	if err := s.importSource(ctx, sp.OrganizationID, b.Source, run); err != nil {
		return nil, err
	}
	revision := sp.RevisionID
	if cr := deref(b.Target.ChangeRequest); cr != "" {
		c, err := s.Store.FindChangeRequest(ctx, sp.ID, cr)
		if store.ErrorCode(err) == store.ENOTFOUND {
			return nil, store.FieldErrorf("target.changeRequest", "is not a change request of the space")
		} else if err != nil {
			return nil, err
		}
		if c.Status != "open" && c.Status != "draft" {
			return nil, store.FieldErrorf("target.changeRequest", "is %s: only an open change request can be imported into", c.Status)
		}
		run.ChangeRequest, revision = c.ID, c.RevisionID
	}
	if page := deref(b.Target.Page); page != "" {
		rev, err := s.Store.FindRevision(ctx, sp.ID, revision)
		if err != nil {
			return nil, err
		}
		found := false
		for _, p := range rev.Pages {
			found = found || p.ID == page
		}
		if !found {
			return nil, store.FieldErrorf("target.page", "is not a page of the space")
		}
		run.Page = page
	}
	if site := deref(b.Site); site != "" {
		if _, _, err := s.Access.FindSite(ctx, sp.OrganizationID, site, store.RoleRead); store.ErrorCode(err) == store.ENOTFOUND {
			return nil, store.FieldErrorf("site", "is not a site of the organization")
		} else if err != nil {
			return nil, err
		}
		run.Site = site
	}
	out, err := s.Store.CreateImportRun(ctx, run)
	if err != nil {
		return nil, err
	}
	if s.WakeJobs != nil {
		s.WakeJobs(0)
	}
	return gen.StartImportRun201JSONResponse(s.toAPIImportRun(out)), nil
}

// importSource checks a run's source: a website's http(s) URL, or uploaded files of the
// organization (uploaded, for imports).
func (s *Server) importSource(ctx context.Context, orgID string, src gen.ContentImportSource, run *store.ImportRun) error {
	switch src.Type {
	case gen.ContentImportSourceTypeWebsite:
		if src.Files != nil {
			return store.FieldErrorf("source.files", "goes with a source of type file, not website")
		}
		u, err := url.Parse(deref(src.Url))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return store.FieldErrorf("source.url", "must be an http(s) URL")
		}
		run.URL = u.String()
	case gen.ContentImportSourceTypeFile:
		if src.Url != nil {
			return store.FieldErrorf("source.url", "goes with a source of type website, not file")
		}
		if src.Files == nil || len(*src.Files) == 0 {
			return store.FieldErrorf("source.files", "must name at least one uploaded file")
		}
		for i, key := range *src.Files {
			u, _, err := s.Store.FindStorageUpload(ctx, orgID, key)
			if store.ErrorCode(err) == store.ENOTFOUND {
				return store.FieldErrorf(fmt.Sprintf("source.files[%d]", i), "is not a file uploaded to the organization")
			} else if err != nil {
				return err
			}
			if !u.Uploaded {
				return store.FieldErrorf(fmt.Sprintf("source.files[%d]", i), "has not been uploaded yet (PUT it to its upload URL)")
			}
		}
		run.Files = *src.Files
	}
	return nil
}

func (s *Server) ListImportRuns(ctx context.Context, req gen.ListImportRunsRequestObject) (gen.ListImportRunsResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	p := req.Params
	f := store.ImportRunFilter{Space: deref(p.Space), ChangeRequest: deref(p.ChangeRequest), Site: deref(p.Site)}
	if p.Status != nil {
		f.Status = string(*p.Status)
	}
	list, err := s.Store.FindImportRuns(ctx, req.OrganizationId, f, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.ContentImportRun, 0, len(list.Items))
	for _, r := range list.Items {
		// A run is seen by who can read its space.
		if _, _, err := s.Access.FindSpace(ctx, r.SpaceID, store.RoleRead); err == nil {
			items = append(items, s.toAPIImportRun(r))
		} else if c := store.ErrorCode(err); c != store.ENOTFOUND && c != store.EFORBIDDEN {
			return nil, err
		}
	}
	return gen.ListImportRuns200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

// findImportRun is a run of the organization whose space the caller has min on.
func (s *Server) findImportRun(ctx context.Context, orgID, id string, min store.Role) (*store.ImportRun, error) {
	if _, err := s.Access.RequireOrgRole(ctx, orgID, store.RoleRead); err != nil {
		return nil, err
	}
	r, err := s.Store.FindImportRun(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	if _, _, err := s.Access.FindSpace(ctx, r.SpaceID, store.RoleRead); err != nil {
		return nil, store.NotFound("Import run")
	}
	if _, _, err := s.Access.FindSpace(ctx, r.SpaceID, min); err != nil {
		return nil, err
	}
	return r, nil
}

func (s *Server) GetImportRun(ctx context.Context, req gen.GetImportRunRequestObject) (gen.GetImportRunResponseObject, error) {
	r, err := s.findImportRun(ctx, req.OrganizationId, req.ImportRunId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	return gen.GetImportRun200JSONResponse(s.toAPIImportRun(r)), nil
}

func (s *Server) CancelImportRun(ctx context.Context, req gen.CancelImportRunRequestObject) (gen.CancelImportRunResponseObject, error) {
	if _, err := s.findImportRun(ctx, req.OrganizationId, req.ImportRunId, store.RoleEdit); err != nil {
		return nil, err
	}
	r, err := s.Store.CancelImportRun(ctx, req.OrganizationId, req.ImportRunId)
	if err != nil {
		return nil, err
	}
	return gen.CancelImportRun200JSONResponse(s.toAPIImportRun(r)), nil
}

func (s *Server) toAPIImportRun(r *store.ImportRun) gen.ContentImportRun {
	out := gen.ContentImportRun{Object: gen.ImportRun, Id: r.ID, Status: gen.ContentImportRunStatus(r.Status),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, StartedAt: r.StartedAt, CompletedAt: r.CompletedAt,
		CreatedBy: r.CreatedBy, Enhance: &r.Enhance, Source: gen.ContentImportSource{Type: gen.ContentImportSourceType(r.Source)},
		Target: gen.ContentImportTarget{Space: r.SpaceID}}
	out.Urls.Location = s.apiURL("/org/" + r.OrganizationID + "/imports/" + r.ID)
	if r.Source == store.ImportFromWebsite {
		out.Source.Url = &r.URL
	} else {
		files := append([]string{}, r.Files...)
		out.Source.Files = &files
	}
	if r.ChangeRequest != "" {
		out.Target.ChangeRequest = &r.ChangeRequest
	}
	if r.Page != "" {
		out.Target.Page = &r.Page
	}
	if r.Site != "" {
		out.Site = &r.Site
	}
	if r.Reason != "" {
		out.Reason = &r.Reason
	}
	out.Pages = make([]struct {
		Id        string                          `json:"id"`
		SourceURL *string                         `json:"sourceURL,omitempty"`
		Status    gen.ContentImportRunPagesStatus `json:"status"`
		Type      gen.ContentImportRunPagesType   `json:"type"`
	}, len(r.Pages))
	for i, p := range r.Pages {
		out.Pages[i].Id, out.Pages[i].Status, out.Pages[i].Type = p.ID, gen.ContentImportRunPagesStatus(p.Status), gen.ContentImportRunPagesType(p.Type)
		if p.SourceURL != "" {
			out.Pages[i].SourceURL = &p.SourceURL
		}
	}
	return out
}
