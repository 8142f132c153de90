package sqlstore

// A space's row as every read selects it, and finding one (live or not).

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

const spaceColumns = `s.id, s.organization_id, s.parent_id, s.title, s.emoji, s.visibility, s.edit_mode,
	s.default_level, s.language, s.merge_rules, s.revision_id, s.comments, s.change_requests,
	s.change_requests_open, s.change_requests_draft, s.created_at, s.updated_at, s.deleted_at, s.icon`

func scanSpace(sc interface{ Scan(...any) error }, s *store.Space) error {
	var parent, level, lang, deleted, icon sql.NullString
	var merge, created, updated string
	if err := sc.Scan(&s.ID, &s.OrganizationID, &parent, &s.Title, &s.Emoji, &s.Visibility, &s.EditMode,
		&level, &lang, &merge, &s.RevisionID, &s.Comments, &s.ChangeRequests,
		&s.ChangeRequestsOpen, &s.ChangeRequestsDraft, &created, &updated, &deleted, &icon); err != nil {
		return err
	}
	s.ParentID, s.Language, s.Icon = stringPtr(parent), stringPtr(lang), stringPtr(icon)
	s.DefaultLevel = store.Role(level.String)
	s.CreatedAt, s.UpdatedAt, s.DeletedAt = parseTime(created), parseTime(updated), parseNullTime(deleted)
	if err := json.Unmarshal([]byte(merge), &s.MergeRules); err != nil {
		return fmt.Errorf("store: bad merge rules of space %s: %w", s.ID, err)
	}
	return nil
}

func findLiveSpace(ctx context.Context, tx *Tx, id string) (*store.Space, error) {
	sp, err := findSpace(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if sp.DeletedAt != nil {
		return nil, store.Errorf(store.ENOTFOUND, "Space not found: it is deleted (restore it first).")
	}
	return sp, nil
}

func findSpace(ctx context.Context, q querier, id string) (*store.Space, error) {
	var sp store.Space
	err := scanSpace(q.QueryRowContext(ctx, `SELECT `+spaceColumns+` FROM spaces s WHERE s.id = ?`, id), &sp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Space")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find space: %w", err)
	}
	return &sp, nil
}
