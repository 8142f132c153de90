package server

import (
	"context"
	"errors"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// templatePages makes the batch of pages a built-in template (store/templates) adds, and the files
// its params name (name to file id). The request validator has checked each ref's shape (kind
// "file", a file id); the store checks that each file is one of the content's current files. An
// unknown template is a 400 naming field.
func templatePages(field string, id string, params *gen.SpaceTemplateParams) ([]store.PageChange, map[string]string, error) {
	files := map[string]string{}
	if params != nil && params.ContentRefs != nil {
		for name, ref := range *params.ContentRefs {
			files[name] = ref.File
		}
	}
	changes, err := store.TemplateChanges(id, files)
	return changes, files, underField(field, err)
}

// underField puts an input error about a field of a template under the request field holding the
// template ("template"): the store names the template's own fields ("params.contentRefs.logo").
func underField(field string, err error) error {
	var e *store.Error
	if field != "" && errors.As(err, &e) && e.Field != "" {
		e.Field = field + "." + e.Field
	}
	return err
}

// ApplyTemplateToSpace adds a built-in template's pages after the top-level pages of the space's
// content, or of an open change request's with changeRequestId, as a new revision. It takes edit
// rights; a locked space refuses it, and so does a change request that takes no more changes.
func (s *Server) ApplyTemplateToSpace(ctx context.Context, req gen.ApplyTemplateToSpaceRequestObject) (gen.ApplyTemplateToSpaceResponseObject, error) {
	if req.Body == nil {
		return nil, badRequest("A body with the template's id is required.")
	}
	sp, _, err := s.Access.FindSpace(ctx, req.SpaceId, store.RoleEdit)
	if err != nil {
		return nil, err
	}
	crID := ""
	if req.Body.ChangeRequestId != nil {
		cr, err := s.Store.FindChangeRequest(ctx, sp.ID, *req.Body.ChangeRequestId)
		if store.ErrorCode(err) == store.ENOTFOUND {
			return nil, store.FieldErrorf("changeRequestId", "the space has no change request %q", *req.Body.ChangeRequestId)
		}
		if err != nil {
			return nil, err
		}
		crID = cr.ID
	}
	changes, files, err := templatePages("", req.Body.Id, req.Body.Params)
	if err != nil {
		return nil, err
	}
	if _, err := s.Store.ApplyTemplate(ctx, sp.ID, crID, changes, files); err != nil {
		return nil, err
	}
	if crID == "" {
		// The space's content changed: a linked space pushes it.
		if err := s.pushContent(ctx, sp.ID, access.Caller(ctx).ID, "Apply the template "+req.Body.Id); err != nil {
			s.Log.ErrorContext(ctx, "queueing the push of a template", "space", sp.ID, "err", err)
		}
	}
	return gen.ApplyTemplateToSpace204Response{}, nil
}
