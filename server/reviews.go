package server

import (
	"context"
	"encoding/json"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Reviews of change requests: who is asked to review, the reviews given (approved or changes
// requested, with an optional comment posted in the change request's thread), and who
// contributed. Asking needs the edit role on the space, reviewing the review role; the store
// refuses the author as a reviewer and merged or archived change requests. The merge rules that
// read reviews are checked by the store when a change request merges.

func (s *Server) toAPIRequestedReviewer(r *store.RequestedReviewer) gen.ChangeRequestRequestedReviewer {
	return gen.ChangeRequestRequestedReviewer{Object: gen.ChangeRequestRequestedReviewerObjectChangeRequestRequestedReviewer,
		Kind: gen.ChangeRequestReviewerKindUser, User: s.toAPIUser(&r.User), RequestedBy: s.toAPIUser(&r.RequestedBy),
		Revision: r.RevisionID, CreatedAt: r.CreatedAt}
}

// reviewThread is the comment thread of a change request, where review comments are posted.
func reviewThread(sp *store.Space, cr *store.ChangeRequest, role store.Role) *thread {
	return &thread{sp: sp, scope: store.CommentScope{SpaceID: sp.ID, ChangeRequestID: &cr.ID}, revision: cr.RevisionID,
		role: role, base: "/spaces/" + sp.ID + "/change-requests/" + cr.ID}
}

func (s *Server) toAPIReview(ctx context.Context, t *thread, rv *store.Review, format *gen.PageFormat) (gen.ChangeRequestReview, error) {
	out := gen.ChangeRequestReview{Object: gen.ChangeRequestReviewObjectChangeRequestReview, Id: rv.ID, Revision: rv.RevisionID,
		Reviewer: s.toAPIUser(&rv.Reviewer), Status: gen.ChangeRequestReviewStatus(rv.Status), Outdated: rv.Outdated,
		CreatedAt: rv.CreatedAt, UpdatedAt: rv.UpdatedAt}
	if rv.RequestedBy != nil {
		by := s.toAPIUser(rv.RequestedBy)
		out.RequestedBy = &by
	}
	if rv.CommentID != nil {
		c, err := s.getComment(ctx, t, *rv.CommentID, format)
		if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
			return out, err
		}
		if err == nil {
			out.Comment = &c
		}
	}
	out.Urls.Location = s.apiURL(t.base + "/reviews/" + rv.ID)
	return out, nil
}

// findReviewable returns a change request with its comment thread, for a caller with at least min.
func (s *Server) findReviewable(ctx context.Context, spaceID, crID string, min store.Role) (*thread, error) {
	sp, role, err := s.Access.FindSpace(ctx, spaceID, min)
	if err != nil {
		return nil, err
	}
	cr, err := s.Store.FindChangeRequest(ctx, sp.ID, crID)
	if err != nil {
		return nil, err
	}
	return reviewThread(sp, cr, role), nil
}

func (s *Server) RequestReviewersForChangeRequest(ctx context.Context, req gen.RequestReviewersForChangeRequestRequestObject) (gen.RequestReviewersForChangeRequestResponseObject, error) {
	t, err := s.findReviewable(ctx, req.SpaceId, req.ChangeRequestId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	upd := store.ChangeRequestUpdate{Subject: req.Body.Subject}
	if req.Body.Description != nil {
		if upd.Description, err = json.Marshal(req.Body.Description); err != nil {
			return nil, err
		}
	}
	list, err := s.Store.RequestReviewers(ctx, t.sp.ID, *t.scope.ChangeRequestID, access.Caller(ctx).ID, req.Body.Users, upd)
	if err != nil {
		return nil, err
	}
	out := gen.RequestReviewersForChangeRequest200JSONResponse{Users: make([]gen.ChangeRequestRequestedReviewer, 0, len(list))}
	for _, r := range list {
		out.Users = append(out.Users, s.toAPIRequestedReviewer(r))
	}
	return out, nil
}

func (s *Server) GetRequestedReviewersByChangeRequestId(ctx context.Context, req gen.GetRequestedReviewersByChangeRequestIdRequestObject) (gen.GetRequestedReviewersByChangeRequestIdResponseObject, error) {
	t, err := s.findReviewable(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindRequestedReviewers(ctx, t.sp.ID, *t.scope.ChangeRequestID, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items, _ := convertItems(list.Items, func(r *store.RequestedReviewer) (gen.ChangeRequestRequestedReviewer, error) {
		return s.toAPIRequestedReviewer(r), nil
	})
	return gen.GetRequestedReviewersByChangeRequestId200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) RemoveRequestedReviewerFromChangeRequest(ctx context.Context, req gen.RemoveRequestedReviewerFromChangeRequestRequestObject) (gen.RemoveRequestedReviewerFromChangeRequestResponseObject, error) {
	t, err := s.findReviewable(ctx, req.SpaceId, req.ChangeRequestId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	removed, err := s.Store.RemoveRequestedReviewer(ctx, t.sp.ID, *t.scope.ChangeRequestID, req.UserId)
	if err != nil {
		return nil, err
	}
	if !removed {
		return gen.RemoveRequestedReviewerFromChangeRequest204Response{}, nil
	}
	return gen.RemoveRequestedReviewerFromChangeRequest205Response{}, nil
}

func (s *Server) SubmitChangeRequestReview(ctx context.Context, req gen.SubmitChangeRequestReviewRequestObject) (gen.SubmitChangeRequestReviewResponseObject, error) {
	t, err := s.findReviewable(ctx, req.SpaceId, req.ChangeRequestId, store.RoleReview)
	if err != nil {
		return nil, err
	}
	nr := store.NewReview{ReviewerID: access.Caller(ctx).ID, Status: string(req.Body.Status)}
	if c := req.Body.Comment; c != nil && c.Markdown != nil {
		nr.Comment = &store.NewComment{Body: *c.Markdown}
	} else if c != nil && c.Document != nil {
		md, err := t.documentMarkdown("comment.document", c.Document)
		if err != nil {
			return nil, err
		}
		nr.Comment = &store.NewComment{Body: md}
	}
	rv, err := s.Store.SubmitReview(ctx, t.sp.ID, *t.scope.ChangeRequestID, nr)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIReview(ctx, t, rv, nil)
	if err != nil {
		return nil, err
	}
	return gen.SubmitChangeRequestReview201JSONResponse{Body: out,
		Headers: gen.SubmitChangeRequestReview201ResponseHeaders{Location: &out.Urls.Location}}, nil
}

func (s *Server) GetReviewsByChangeRequestId(ctx context.Context, req gen.GetReviewsByChangeRequestIdRequestObject) (gen.GetReviewsByChangeRequestIdResponseObject, error) {
	t, err := s.findReviewable(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	p := req.Params
	list, err := s.Store.FindReviews(ctx, t.sp.ID, *t.scope.ChangeRequestID, store.ReviewFilter{Outdated: p.Outdated}, page(p.Page, p.Limit))
	if err != nil {
		return nil, err
	}
	items, err := convertItems(list.Items, func(rv *store.Review) (gen.ChangeRequestReview, error) {
		return s.toAPIReview(ctx, t, rv, p.Format)
	})
	if err != nil {
		return nil, err
	}
	return gen.GetReviewsByChangeRequestId200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) GetChangeRequestReviewById(ctx context.Context, req gen.GetChangeRequestReviewByIdRequestObject) (gen.GetChangeRequestReviewByIdResponseObject, error) {
	t, err := s.findReviewable(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	rv, err := s.Store.FindReview(ctx, t.sp.ID, *t.scope.ChangeRequestID, req.ReviewId)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPIReview(ctx, t, rv, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetChangeRequestReviewById200JSONResponse(out), nil
}

func (s *Server) GetContributorsByChangeRequestId(ctx context.Context, req gen.GetContributorsByChangeRequestIdRequestObject) (gen.GetContributorsByChangeRequestIdResponseObject, error) {
	t, err := s.findReviewable(ctx, req.SpaceId, req.ChangeRequestId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindContributors(ctx, t.sp.ID, *t.scope.ChangeRequestID)
	if err != nil {
		return nil, err
	}
	out := gen.GetContributorsByChangeRequestId200JSONResponse{Items: make([]gen.ChangeRequestUserContributor, 0, len(list)), Count: len(list)}
	for _, c := range list {
		out.Items = append(out.Items, gen.ChangeRequestUserContributor{User: s.toAPIUser(&c.User), Count: c.Count,
			UpdatedAt: c.UpdatedAt, ActionType: gen.ChangeRequestContributorAction(c.Action)})
	}
	return out, nil
}
