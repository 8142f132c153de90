package server

import (
	"context"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// ApplyTemplateToSpace adds a built-in template's pages (store/templates) after the space's
// top-level pages, as a new revision of the space. It takes edit rights; a locked space refuses it.
func (s *Server) ApplyTemplateToSpace(ctx context.Context, req gen.ApplyTemplateToSpaceRequestObject) (gen.ApplyTemplateToSpaceResponseObject, error) {
	if req.Body == nil {
		return nil, badRequest("A body with the template's id is required.")
	}
	sp, _, err := s.findSpace(ctx, req.SpaceId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	if p := req.Body.Params; p != nil && p.ContentRefs != nil {
		for name, ref := range *p.ContentRefs {
			files[name] = ref.File
		}
	}
	// The request validator has checked each ref's shape (kind "file", a file id); the store
	// checks that the file is one of the space's current files.
	changes, err := store.TemplateChanges(req.Body.Id, files)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.ApplyTemplate(ctx, sp.ID, changes, files); err != nil {
		return nil, err
	}
	return gen.ApplyTemplateToSpace204Response{}, nil
}
