package server

import (
	"context"
	"encoding/json"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Translations (seed §4.13): an organization keeps a space translated into another language. A
// run is a durable job (internal/translate) that needs a translator (--translator-url); the other
// operations work without one. Members read translations; managing and running them takes the
// role that creates spaces, since a first run creates the result space.

// noTranslator is the answer to a run when no translator is configured.
const noTranslator = "no translator is configured (--translator-url)"

func (s *Server) toAPITranslation(t *store.Translation, role store.Role) (gen.Translation, error) {
	out := gen.Translation{
		Object:    gen.TranslationObjectTranslation,
		Id:        t.ID,
		Status:    gen.TranslationStatus(t.Status),
		Source:    gen.TranslationSource{Space: t.SourceSpaceID, Language: gen.Language(t.SourceLanguage)},
		Language:  gen.Language(t.Language),
		CreatedAt: t.CreatedAt,
		UpdatedAt: t.UpdatedAt,
		Stats: gen.TranslationStats{
			Runs:              t.Stats.Runs,
			TotalWords:        t.Stats.TotalWords,
			TotalPages:        t.Stats.TotalPages,
			TotalDuration:     seconds(t.Stats.TotalDurationMS),
			LatestRunDuration: seconds(t.Stats.LatestDurationMS),
			LatestPages:       t.Stats.LatestPages,
			LatestWords:       t.Stats.LatestWords,
		},
	}
	doc := t.Instructions
	if doc == nil {
		doc = emptyDocument
	}
	if err := json.Unmarshal(doc, &out.Instructions); err != nil {
		return out, err
	}
	if t.ResultSpaceID != nil && t.ResultRevision != nil {
		// The result space holds the content in the translation's language (which never changes).
		out.Result = &gen.TranslationResult{Space: *t.ResultSpaceID, Revision: *t.ResultRevision, Language: gen.Language(t.Language)}
	}
	if t.LastError != "" {
		out.LastError = &t.LastError
	}
	out.Permissions.View = role.AtLeast(store.RoleRead)
	out.Permissions.Edit = role.AtLeast(store.RoleCreate)
	out.Urls.Location = s.apiURL("/orgs/" + t.OrganizationID + "/translations/" + t.ID)
	return out, nil
}

// seconds rounds a duration in milliseconds to whole seconds, as the stats are given.
func seconds(ms int64) int { return int((ms + 500) / 1000) }

// manageTranslations returns the caller's role when it may create, change and run translations.
func (s *Server) manageTranslations(ctx context.Context, orgID string) (store.Role, error) {
	role, err := s.Access.MemberRole(ctx, orgID)
	if err != nil {
		return "", err
	}
	if err := s.requireCreateIn(ctx, orgID, nil); err != nil {
		return "", err
	}
	return role, nil
}

func (s *Server) ListTranslations(ctx context.Context, req gen.ListTranslationsRequestObject) (gen.ListTranslationsResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindTranslations(ctx, req.OrganizationId, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	items, err := convertItems(list.Items, func(t *store.Translation) (gen.Translation, error) { return s.toAPITranslation(t, role) })
	if err != nil {
		return nil, err
	}
	return gen.ListTranslations200JSONResponse{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) CreateTranslation(ctx context.Context, req gen.CreateTranslationRequestObject) (gen.CreateTranslationResponseObject, error) {
	role, err := s.manageTranslations(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	b := req.Body
	if b.Language == b.Source.Language {
		return nil, badRequest("language: the translation's language is the source's language (" + string(b.Language) + ").")
	}
	src, _, err := s.Access.FindSpace(ctx, b.Source.Space, store.RoleRead)
	if store.ErrorCode(err) == store.ENOTFOUND || err == nil && (src.OrganizationID != req.OrganizationId || src.DeletedAt != nil) {
		return nil, store.Errorf(store.ENOTFOUND, "source.space: no space %q in this organization.", b.Source.Space)
	}
	if err != nil {
		return nil, err
	}
	var doc json.RawMessage
	if b.Instructions != nil {
		if doc, err = json.Marshal(b.Instructions); err != nil {
			return nil, err
		}
	}
	t, err := s.Store.CreateTranslation(ctx, req.OrganizationId, store.TranslationCreate{
		SourceSpaceID: src.ID, SourceLanguage: string(b.Source.Language), Language: string(b.Language),
		Instructions: doc, CreatedBy: access.Caller(ctx).ID,
	})
	if err != nil {
		return nil, err
	}
	out, err := s.toAPITranslation(t, role)
	if err != nil {
		return nil, err
	}
	return gen.CreateTranslation201JSONResponse(out), nil
}

func (s *Server) GetTranslation(ctx context.Context, req gen.GetTranslationRequestObject) (gen.GetTranslationResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	t, err := s.Store.FindTranslation(ctx, req.OrganizationId, req.TranslationId)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPITranslation(t, role)
	if err != nil {
		return nil, err
	}
	return gen.GetTranslation200JSONResponse(out), nil
}

func (s *Server) UpdateTranslation(ctx context.Context, req gen.UpdateTranslationRequestObject) (gen.UpdateTranslationResponseObject, error) {
	role, err := s.manageTranslations(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	doc, err := json.Marshal(req.Body.Instructions)
	if err != nil {
		return nil, err
	}
	t, err := s.Store.UpdateTranslationInstructions(ctx, req.OrganizationId, req.TranslationId, doc)
	if err != nil {
		return nil, err
	}
	out, err := s.toAPITranslation(t, role)
	if err != nil {
		return nil, err
	}
	return gen.UpdateTranslation200JSONResponse(out), nil
}

func (s *Server) DeleteTranslation(ctx context.Context, req gen.DeleteTranslationRequestObject) (gen.DeleteTranslationResponseObject, error) {
	if _, err := s.manageTranslations(ctx, req.OrganizationId); err != nil {
		return nil, err
	}
	if err := s.Store.DeleteTranslation(ctx, req.OrganizationId, req.TranslationId); err != nil {
		return nil, err
	}
	return gen.DeleteTranslation204Response{}, nil
}

func (s *Server) RunTranslation(ctx context.Context, req gen.RunTranslationRequestObject) (gen.RunTranslationResponseObject, error) {
	if _, err := s.manageTranslations(ctx, req.OrganizationId); err != nil {
		return nil, err
	}
	if _, err := s.Store.FindTranslation(ctx, req.OrganizationId, req.TranslationId); err != nil {
		return nil, err
	}
	if s.Translator == nil {
		return nil, badRequest(noTranslator)
	}
	if err := s.Store.QueueTranslationRun(ctx, req.OrganizationId, req.TranslationId, access.Caller(ctx).ID); err != nil {
		return nil, err
	}
	if s.WakeJobs != nil {
		s.WakeJobs(0)
	}
	return gen.RunTranslation204Response{}, nil
}
