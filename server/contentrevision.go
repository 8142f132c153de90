package server

// Which revision a content read addresses: a space's current revision, or a change request's.

import (
	"context"

	"github.com/quire-docs/quire/store"
)

// spaceRevision returns the space and its current revision id, for a caller with read.
func (s *Server) spaceRevision(ctx context.Context, spaceID string) (*store.Space, string, error) {
	sp, _, err := s.Access.FindSpace(ctx, spaceID, store.RoleRead)
	if err != nil {
		return nil, "", err
	}
	return sp, sp.RevisionID, nil
}

// changeRequestRevision returns the space and a change request's revision id, for a caller with read.
func (s *Server) changeRequestRevision(ctx context.Context, spaceID, crID string) (*store.Space, string, error) {
	sp, cr, err := s.findChangeRequest(ctx, spaceID, crID, store.RoleRead)
	if err != nil {
		return nil, "", err
	}
	return sp, cr.RevisionID, nil
}
