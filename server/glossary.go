package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// The translation glossary (issue 32): an organization's terms by language, which every
// translation run of the organization translates as an entry says (or keeps, when the entry has
// no term in the run's language). Members read it; changing it takes the role that manages
// translations.

func (s *Server) toAPIGlossaryEntry(orgID string, e *store.GlossaryEntry) gen.GlossaryEntry {
	out := gen.GlossaryEntry{Object: gen.GlossaryEntryObjectGlossaryEntry, Id: e.ID, Translations: gen.GlossaryTranslations(e.Translations),
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
	out.Urls.Location = s.apiURL("/orgs/" + orgID + "/translations-glossary/" + e.ID)
	return out
}

func (s *Server) ListGlossaryEntries(ctx context.Context, req gen.ListGlossaryEntriesRequestObject) (gen.ListGlossaryEntriesResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	orderBy := ""
	if req.Params.OrderBy != nil {
		orderBy = string(*req.Params.OrderBy)
	}
	list, err := s.Store.FindGlossaryEntries(ctx, req.OrganizationId, orderBy, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items := make([]gen.GlossaryEntry, len(list.Items))
	for i, e := range list.Items {
		items[i] = s.toAPIGlossaryEntry(req.OrganizationId, e)
	}
	return gen.ListGlossaryEntries200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) GetGlossaryEntry(ctx context.Context, req gen.GetGlossaryEntryRequestObject) (gen.GetGlossaryEntryResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead); err != nil {
		return nil, err
	}
	e, err := s.Store.FindGlossaryEntry(ctx, req.OrganizationId, req.GlossaryEntryId)
	if err != nil {
		return nil, err
	}
	return gen.GetGlossaryEntry200JSONResponse(s.toAPIGlossaryEntry(req.OrganizationId, e)), nil
}

func (s *Server) UpdateGlossaryEntries(ctx context.Context, req gen.UpdateGlossaryEntriesRequestObject) (gen.UpdateGlossaryEntriesResponseObject, error) {
	if _, err := s.manageTranslations(ctx, req.OrganizationId); err != nil {
		return nil, err
	}
	ops := make([]store.GlossaryOperation, len(req.Body.Operations))
	for i, o := range req.Body.Operations {
		op, err := glossaryOperation(i, o)
		if err != nil {
			return nil, err
		}
		ops[i] = op
	}
	if err := s.Store.UpdateGlossary(ctx, req.OrganizationId, ops); err != nil {
		return nil, err
	}
	return gen.UpdateGlossaryEntries204Response{}, nil
}

// glossaryOperation checks one operation of a batch: its fields by its type, its terms' languages.
func glossaryOperation(i int, o gen.GlossaryBatchOperation) (store.GlossaryOperation, error) {
	field := func(name string) string { return fmt.Sprintf("operations[%d].%s", i, name) }
	op := store.GlossaryOperation{Type: string(o.Type)}
	needID, needTerms := o.Type != gen.GlossaryBatchOperationTypeInsert, o.Type != gen.GlossaryBatchOperationTypeDelete
	switch {
	case needID && o.Id == nil:
		return op, store.FieldErrorf(field("id"), "an %s names the entry", o.Type)
	case !needID && o.Id != nil:
		return op, store.FieldErrorf(field("id"), "an insert takes no id: the entry is given one")
	case needTerms && (o.Translations == nil || len(*o.Translations) == 0):
		return op, store.FieldErrorf(field("translations"), "an %s takes at least one term", o.Type)
	case !needTerms && o.Translations != nil:
		return op, store.FieldErrorf(field("translations"), "a delete takes no terms")
	}
	if o.Id != nil {
		op.ID = *o.Id
	}
	if o.Translations != nil {
		op.Translations = map[string]string{}
		for lang, term := range *o.Translations {
			if !gen.Language(lang).Valid() {
				return op, store.FieldErrorf(field("translations"), "%q is not a language code", lang)
			}
			if strings.TrimSpace(term) == "" {
				return op, store.FieldErrorf(field("translations."+lang), "a term has a letter or more")
			}
			op.Translations[lang] = strings.TrimSpace(term)
		}
	}
	return op, nil
}
