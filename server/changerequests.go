package server

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): GetChangeRequestById,
// MergeChangeRequest and UpdateChangeRequest (from main) find the change request and make one store
// call; ListChangeRequestsForSpace and …ForOrganization share changeRequestFilter.

func (s *Server) toAPIChangeRequest(cr *store.ChangeRequest) (gen.ChangeRequest, error) {
	out := gen.ChangeRequest{
		Object:                     gen.ChangeRequestObjectChangeRequest,
		Id:                         cr.ID,
		Number:                     cr.Number,
		Status:                     gen.ChangeRequestStatus(cr.Status),
		Subject:                    cr.Subject,
		CreatedBy:                  s.toAPIUser(&cr.CreatedBy),
		CreatedAt:                  cr.CreatedAt,
		UpdatedAt:                  cr.UpdatedAt,
		Space:                      cr.SpaceID,
		Revision:                   cr.RevisionID,
		RevisionInitial:            cr.RevisionInitial,
		RevisionMergedAncestor:     cr.RevisionMergedAncestor,
		RevisionMerged:             cr.RevisionMerged,
		Comments:                   cr.Comments,
		Outdated:                   cr.Outdated,
		ConversationsIssuesCluster: cr.ConversationsCluster,
	}
	out.MergedAt = cr.MergedAt
	if cr.MergedBy != nil {
		by := s.toAPIUser(cr.MergedBy)
		out.MergedBy = &by
	}
	if cr.Description != nil {
		var doc gen.JSONDocument
		if err := json.Unmarshal(cr.Description, &doc); err != nil {
			return out, err
		}
		out.Description = &doc
	}
	if len(cr.Links) > 0 {
		links := make([]gen.ChangeRequestLink, 0, len(cr.Links))
		for _, l := range cr.Links {
			links = append(links, gen.ChangeRequestLink{Id: l.ID, Title: l.Title,
				Ref: gen.ChangeRequestLinkRef{Kind: gen.ChangeRequestLinkURLKindUrl, Url: l.URL}})
		}
		out.Links = &links
	}
	out.Urls.Location = s.apiURL("/spaces/" + cr.SpaceID + "/change-requests/" + cr.ID)
	out.Urls.App = s.appURL("/s/" + cr.SpaceID + "/change-requests/" + strconv.Itoa(cr.Number))
	return out, nil
}

func (s *Server) toAPIChangeRequests(list []*store.ChangeRequest) ([]gen.ChangeRequest, error) {
	out := make([]gen.ChangeRequest, 0, len(list))
	for _, cr := range list {
		c, err := s.toAPIChangeRequest(cr)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// findChangeRequest returns a change request of a space the caller has at least min on.
func (s *Server) findChangeRequest(ctx context.Context, spaceID, crID string, min store.Role) (*store.Space, *store.ChangeRequest, error) {
	sp, _, err := s.Access.FindSpace(ctx, spaceID, min)
	if err != nil {
		return nil, nil, err
	}
	cr, err := s.Store.FindChangeRequest(ctx, sp.ID, crID)
	if err != nil {
		return nil, nil, err
	}
	return sp, cr, nil
}

// changeRequestFilter reads the filters both change request lists take.
func changeRequestFilter(status *gen.ChangeRequestStatus, creator, contributor, reviewer, cluster *string) store.ChangeRequestFilter {
	f := store.ChangeRequestFilter{Status: "open", Creator: creator, Contributor: contributor, RequestedReviewer: reviewer, IssuesCluster: cluster}
	if status != nil {
		f.Status = string(*status)
	}
	return f
}

func (s *Server) ListChangeRequestsForSpace(ctx context.Context, req gen.ListChangeRequestsForSpaceRequestObject) (gen.ListChangeRequestsForSpaceResponseObject, error) {
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	p := req.Params
	f := changeRequestFilter(p.Status, p.Creator, p.Contributor, p.RequestedReviewer, p.ConversationsIssuesCluster)
	f.SpaceID = sp.ID
	list, err := s.Store.FindChangeRequests(ctx, f, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	items, err := s.toAPIChangeRequests(list.Items)
	if err != nil {
		return nil, err
	}
	return gen.ListChangeRequestsForSpace200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) ListChangeRequestsForOrganization(ctx context.Context, req gen.ListChangeRequestsForOrganizationRequestObject) (gen.ListChangeRequestsForOrganizationResponseObject, error) {
	roles, err := s.Access.ContentRoles(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	out := gen.ListChangeRequestsForOrganization200JSONResponse{Items: []gen.ChangeRequest{}}
	p := req.Params
	f := changeRequestFilter(p.Status, p.Creator, p.Contributor, p.RequestedReviewer, p.ConversationsIssuesCluster)
	f.OrganizationID = req.OrganizationId
	if f.Visible, err = roles.Visible(ctx); err != nil {
		return nil, err
	}
	list, err := s.Store.FindChangeRequests(ctx, f, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	if out.Items, err = s.toAPIChangeRequests(list.Items); err != nil {
		return nil, err
	}
	out.Count, out.Next = list.Count, listNext(list.Next)
	return out, nil
}

func (s *Server) CreateChangeRequest(ctx context.Context, req gen.CreateChangeRequestRequestObject) (gen.CreateChangeRequestResponseObject, error) {
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	subject := ""
	if req.Body != nil && req.Body.Subject != nil {
		subject = *req.Body.Subject
	}
	var cr *store.ChangeRequest
	if req.Body != nil && req.Body.Template != nil {
		changes, files, err := templatePages("template", req.Body.Template.Id, req.Body.Template.Params)
		if err != nil {
			return nil, err
		}
		cr, err = s.Store.CreateChangeRequestFromTemplate(ctx, sp.ID, access.Caller(ctx).ID, subject, changes, files)
		if err = underField("template", err); err != nil {
			return nil, err
		}
	} else if cr, err = s.Store.CreateChangeRequest(ctx, sp.ID, access.Caller(ctx).ID, subject); err != nil {
		return nil, err
	}
	out, err := s.toAPIChangeRequest(cr)
	if err != nil {
		return nil, err
	}
	return gen.CreateChangeRequest201JSONResponse(out), nil
}

func (s *Server) GetChangeRequestById(ctx context.Context, req gen.GetChangeRequestByIdRequestObject) (gen.GetChangeRequestByIdResponseObject, error) {
	_, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIChangeRequest(cr)
	if err != nil {
		return nil, err
	}
	return gen.GetChangeRequestById200JSONResponse(out), nil
}

func (s *Server) UpdateChangeRequestById(ctx context.Context, req gen.UpdateChangeRequestByIdRequestObject) (gen.UpdateChangeRequestByIdResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	upd := store.ChangeRequestUpdate{Subject: req.Body.Subject}
	if req.Body.Status != nil {
		st := string(*req.Body.Status)
		upd.Status = &st
	}
	if req.Body.Description != nil {
		if upd.Description, err = json.Marshal(req.Body.Description); err != nil {
			return nil, err
		}
	}
	if req.Body.Links != nil {
		links := make([]store.ChangeRequestLink, 0, len(*req.Body.Links))
		for i, l := range *req.Body.Links {
			if err := checkWebURL("links["+strconv.Itoa(i)+"].ref.url", l.Ref.Url); err != nil {
				return nil, err
			}
			link := store.ChangeRequestLink{URL: l.Ref.Url, Title: l.Title}
			if l.Id != nil {
				link.ID = *l.Id
			}
			links = append(links, link)
		}
		upd.Links = &links
	}
	cr, err = s.Store.UpdateChangeRequest(ctx, sp.ID, cr.ID, upd)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIChangeRequest(cr)
	if err != nil {
		return nil, err
	}
	return gen.UpdateChangeRequestById200JSONResponse(out), nil
}

func (s *Server) MergeChangeRequest(ctx context.Context, req gen.MergeChangeRequestRequestObject) (gen.MergeChangeRequestResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	revision, conflicts, err := s.Store.MergeChangeRequestByRules(ctx, sp.ID, cr.ID, access.Caller(ctx).ID)
	if err != nil {
		return nil, err
	}
	result := gen.MergeResultMerge
	if conflicts {
		result = gen.MergeResultConflicts
	} else if err := s.pushMerge(ctx, sp, cr, access.Caller(ctx).ID); err != nil {
		// The merge stands; the space's git state shows no run for it.
		s.Log.ErrorContext(ctx, "queueing the push of a merge", "space", sp.ID, "err", err)
	}
	return gen.MergeChangeRequest200JSONResponse{Revision: revision, Result: result}, nil
}

func (s *Server) UpdateChangeRequest(ctx context.Context, req gen.UpdateChangeRequestRequestObject) (gen.UpdateChangeRequestResponseObject, error) {
	sp, cr, err := s.findChangeRequest(ctx, req.SpaceId, req.ChangeRequestId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	revision, err := s.Store.UpdateChangeRequestFromMain(ctx, sp.ID, cr.ID)
	if err != nil {
		return nil, err
	}
	return gen.UpdateChangeRequest200JSONResponse{Revision: revision, Result: gen.UpdateResultUpdate}, nil
}
