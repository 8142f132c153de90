package server

import (
	"context"
	"strconv"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Reusable contents: read in the space's current revision, a change request's, or any revision
// of the space; their document is their markdown as a rich-text document, its page links
// resolved in the same revision. (metadata and computed: quire keeps no git metadata nor computed
// reusable contents, so there is nothing for them to leave out.)

func toAPIReusableContent(r *store.ReusableContent) gen.RevisionReusableContent {
	doc := strconv.FormatInt(r.BodyID, 10)
	return gen.RevisionReusableContent{Id: r.ID, Title: r.Title, Document: &doc}
}

func (s *Server) GetReusableContentById(ctx context.Context, req gen.GetReusableContentByIdRequestObject) (gen.GetReusableContentByIdResponseObject, error) {
	_, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	r, err := s.Store.FindReusableContent(ctx, rev, req.ReusableContentId)
	if err != nil {
		return nil, err
	}
	return gen.GetReusableContentById200JSONResponse(toAPIReusableContent(r)), nil
}

func (s *Server) GetReusableContentInChangeRequestById(ctx context.Context, req gen.GetReusableContentInChangeRequestByIdRequestObject) (gen.GetReusableContentInChangeRequestByIdResponseObject, error) {
	_, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	r, err := s.Store.FindReusableContent(ctx, rev, req.ReusableContentId)
	if err != nil {
		return nil, err
	}
	return gen.GetReusableContentInChangeRequestById200JSONResponse(toAPIReusableContent(r)), nil
}

func (s *Server) GetReusableContentInRevisionById(ctx context.Context, req gen.GetReusableContentInRevisionByIdRequestObject) (gen.GetReusableContentInRevisionByIdResponseObject, error) {
	_, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	r, err := s.Store.FindReusableContent(ctx, rev, req.ReusableContentId)
	if err != nil {
		return nil, err
	}
	return gen.GetReusableContentInRevisionById200JSONResponse(toAPIReusableContent(r)), nil
}

func (s *Server) GetReusableContentDocumentInRevisionById(ctx context.Context, req gen.GetReusableContentDocumentInRevisionByIdRequestObject) (gen.GetReusableContentDocumentInRevisionByIdResponseObject, error) {
	sp, rev, err := s.revisionOfSpace(ctx, req.SpaceId, req.RevisionId)
	if err != nil {
		return nil, err
	}
	r, err := s.Store.FindReusableContent(ctx, rev, req.ReusableContentId)
	if err != nil {
		return nil, err
	}
	doc := pageDocument(sp, &store.RevisionPage{Markdown: r.Markdown}, s.pageResolver(ctx, rev))
	return gen.GetReusableContentDocumentInRevisionById200JSONResponse(*doc), nil
}
