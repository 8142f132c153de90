package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
)

// The comment operations of both families: each resolves its thread and calls the shared code of
// comments.go. They are per-operation wrappers (the generated strict interface gives every
// operation its own method, request and response types, so these stay one thin wrapper each):
// List/Post/Get/Update/DeleteComment, List/Post/Get/Update/DeleteCommentReply and ListCommenters,
// each …InSpace and …InChangeRequest, differ only in the thread they resolve.

func (s *Server) ListCommentsInSpace(ctx context.Context, req gen.ListCommentsInSpaceRequestObject) (gen.ListCommentsInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.listComments(ctx, t, p.Order, p.Status, p.Format, p.TargetPage, p.Authors, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListCommentsInSpace200JSONResponse(out), nil
}

func (s *Server) PostCommentInSpace(ctx context.Context, req gen.PostCommentInSpaceRequestObject) (gen.PostCommentInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	out, err := s.postComment(ctx, t, req.Body)
	if err != nil {
		return nil, err
	}
	return gen.PostCommentInSpace200JSONResponse(out), nil
}

func (s *Server) GetCommentInSpace(ctx context.Context, req gen.GetCommentInSpaceRequestObject) (gen.GetCommentInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	out, err := s.getComment(ctx, t, req.CommentId, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetCommentInSpace200JSONResponse(out), nil
}

func (s *Server) UpdateCommentInSpace(ctx context.Context, req gen.UpdateCommentInSpaceRequestObject) (gen.UpdateCommentInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	out, err := s.updateComment(ctx, t, req.CommentId, req.Body)
	if err != nil {
		return nil, err
	}
	return gen.UpdateCommentInSpace200JSONResponse(out), nil
}

func (s *Server) DeleteCommentInSpace(ctx context.Context, req gen.DeleteCommentInSpaceRequestObject) (gen.DeleteCommentInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	if err := s.deleteComment(ctx, t, req.CommentId); err != nil {
		return nil, err
	}
	return gen.DeleteCommentInSpace204Response{}, nil
}

func (s *Server) ListCommentRepliesInSpace(ctx context.Context, req gen.ListCommentRepliesInSpaceRequestObject) (gen.ListCommentRepliesInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.listReplies(ctx, t, req.CommentId, p.Format, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListCommentRepliesInSpace200JSONResponse(out), nil
}

func (s *Server) PostCommentReplyInSpace(ctx context.Context, req gen.PostCommentReplyInSpaceRequestObject) (gen.PostCommentReplyInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	out, err := s.postReply(ctx, t, req.CommentId, req.Body)
	if err != nil {
		return nil, err
	}
	return gen.PostCommentReplyInSpace200JSONResponse(out), nil
}

func (s *Server) GetCommentReplyInSpace(ctx context.Context, req gen.GetCommentReplyInSpaceRequestObject) (gen.GetCommentReplyInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	out, err := s.getReply(ctx, t, req.CommentId, req.CommentReplyId, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetCommentReplyInSpace200JSONResponse(out), nil
}

func (s *Server) UpdateCommentReplyInSpace(ctx context.Context, req gen.UpdateCommentReplyInSpaceRequestObject) (gen.UpdateCommentReplyInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	b := req.Body
	out, err := s.updateReply(ctx, t, req.CommentId, req.CommentReplyId, nil, b.Body, b.AddedReactions, b.RemovedReactions)
	if err != nil {
		return nil, err
	}
	return gen.UpdateCommentReplyInSpace200JSONResponse(out), nil
}

func (s *Server) DeleteCommentReplyInSpace(ctx context.Context, req gen.DeleteCommentReplyInSpaceRequestObject) (gen.DeleteCommentReplyInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	if err := s.deleteReply(ctx, t, req.CommentId, req.CommentReplyId); err != nil {
		return nil, err
	}
	return gen.DeleteCommentReplyInSpace204Response{}, nil
}

func (s *Server) ListCommentersInSpace(ctx context.Context, req gen.ListCommentersInSpaceRequestObject) (gen.ListCommentersInSpaceResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, nil)
	if err != nil {
		return nil, err
	}
	out, err := s.listCommenters(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListCommentersInSpace200JSONResponse(out), nil
}

func (s *Server) ListCommentsInChangeRequest(ctx context.Context, req gen.ListCommentsInChangeRequestRequestObject) (gen.ListCommentsInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.listComments(ctx, t, p.Order, p.Status, p.Format, p.TargetPage, p.Authors, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListCommentsInChangeRequest200JSONResponse(out), nil
}

func (s *Server) PostCommentInChangeRequest(ctx context.Context, req gen.PostCommentInChangeRequestRequestObject) (gen.PostCommentInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.postComment(ctx, t, req.Body)
	if err != nil {
		return nil, err
	}
	return gen.PostCommentInChangeRequest200JSONResponse(out), nil
}

func (s *Server) GetCommentInChangeRequest(ctx context.Context, req gen.GetCommentInChangeRequestRequestObject) (gen.GetCommentInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.getComment(ctx, t, req.CommentId, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetCommentInChangeRequest200JSONResponse(out), nil
}

func (s *Server) UpdateCommentInChangeRequest(ctx context.Context, req gen.UpdateCommentInChangeRequestRequestObject) (gen.UpdateCommentInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.updateComment(ctx, t, req.CommentId, req.Body)
	if err != nil {
		return nil, err
	}
	return gen.UpdateCommentInChangeRequest200JSONResponse(out), nil
}

func (s *Server) DeleteCommentInChangeRequest(ctx context.Context, req gen.DeleteCommentInChangeRequestRequestObject) (gen.DeleteCommentInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	if err := s.deleteComment(ctx, t, req.CommentId); err != nil {
		return nil, err
	}
	return gen.DeleteCommentInChangeRequest204Response{}, nil
}

func (s *Server) ListCommentRepliesInChangeRequest(ctx context.Context, req gen.ListCommentRepliesInChangeRequestRequestObject) (gen.ListCommentRepliesInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	p := req.Params
	out, err := s.listReplies(ctx, t, req.CommentId, p.Format, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListCommentRepliesInChangeRequest200JSONResponse(out), nil
}

func (s *Server) PostCommentReplyInChangeRequest(ctx context.Context, req gen.PostCommentReplyInChangeRequestRequestObject) (gen.PostCommentReplyInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.postReply(ctx, t, req.CommentId, req.Body)
	if err != nil {
		return nil, err
	}
	return gen.PostCommentReplyInChangeRequest200JSONResponse(out), nil
}

func (s *Server) GetCommentReplyInChangeRequest(ctx context.Context, req gen.GetCommentReplyInChangeRequestRequestObject) (gen.GetCommentReplyInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.getReply(ctx, t, req.CommentId, req.CommentReplyId, req.Params.Format)
	if err != nil {
		return nil, err
	}
	return gen.GetCommentReplyInChangeRequest200JSONResponse(out), nil
}

func (s *Server) UpdateCommentReplyInChangeRequest(ctx context.Context, req gen.UpdateCommentReplyInChangeRequestRequestObject) (gen.UpdateCommentReplyInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	b := req.Body
	out, err := s.updateReply(ctx, t, req.CommentId, req.CommentReplyId, b.Resolved, b.Body, b.AddedReactions, b.RemovedReactions)
	if err != nil {
		return nil, err
	}
	return gen.UpdateCommentReplyInChangeRequest200JSONResponse(out), nil
}

func (s *Server) DeleteCommentReplyInChangeRequest(ctx context.Context, req gen.DeleteCommentReplyInChangeRequestRequestObject) (gen.DeleteCommentReplyInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	if err := s.deleteReply(ctx, t, req.CommentId, req.CommentReplyId); err != nil {
		return nil, err
	}
	return gen.DeleteCommentReplyInChangeRequest204Response{}, nil
}

func (s *Server) ListCommentersInChangeRequest(ctx context.Context, req gen.ListCommentersInChangeRequestRequestObject) (gen.ListCommentersInChangeRequestResponseObject, error) {
	t, err := s.findThread(ctx, req.SpaceId, &req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.listCommenters(ctx, t, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListCommentersInChangeRequest200JSONResponse(out), nil
}
