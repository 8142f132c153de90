package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/quire-docs/quire/store"
)

// CreateSpace creates a space at the end of its parent collection (or of the top level).
func (s *Store) CreateSpace(ctx context.Context, orgID, creatorID string, c store.SpaceCreate) (*store.Space, error) {
	var sp *store.Space
	err := s.write(ctx, func(tx *Tx) error {
		id, err := insertSpace(ctx, tx, orgID, creatorID, c)
		if err != nil {
			return err
		}
		sp, err = findSpace(ctx, tx, id)
		return err
	})
	return sp, err
}

// insertSpace creates a space inside a write and returns its id: an empty first revision, then
// the template's pages (c.Pages) as its current one.
func insertSpace(ctx context.Context, tx *Tx, orgID, creatorID string, c store.SpaceCreate) (string, error) {
	id := store.NewID()
	if c.Title == "" {
		c.Title = "Untitled"
	}
	if c.EditMode == "" {
		c.EditMode = "live"
	}
	if err := checkParent(ctx, tx, orgID, c.ParentID); err != nil {
		return "", err
	}
	pos, err := nextPosition(ctx, tx, orgID, c.ParentID)
	if err != nil {
		return "", err
	}
	now := formatTime(tx.now)
	if _, err := tx.ExecContext(ctx, `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, edit_mode,
		language, revision_id, position, created_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?)`,
		id, orgID, nullString(c.ParentID), c.Title, c.Emoji, c.EditMode, nullString(c.Language),
		pos, creatorID, now, now); err != nil {
		return "", fmt.Errorf("store: unable to create space: %w", err)
	}
	if err := setFirstRevision(ctx, tx, id, ""); err != nil || len(c.Pages) == 0 {
		return id, err
	}
	sp, err := findSpace(ctx, tx, id)
	if err != nil {
		return "", err
	}
	// A new space has no files: its template's pages can name none (nil files).
	_, err = applyTemplateToMain(ctx, tx, sp, c.Pages, nil)
	return id, err
}

// setFirstRevision writes a space's first revision with the pages of revision from ("": none)
// and makes it current. The revision forks from from's line: it shares every page, writing none.
func setFirstRevision(ctx context.Context, tx *Tx, spaceID, from string) error {
	rev, err := writeRevision(ctx, tx, revisionWrite{spaceID: spaceID, typ: "edits", parents: []string{}, from: from})
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE spaces SET revision_id = ? WHERE id = ?`, rev, spaceID); err != nil {
		return fmt.Errorf("store: unable to set the first revision: %w", err)
	}
	if from == "" {
		return nil
	}
	// The search index is per space: a copy's pages are indexed for it.
	return reindexSpace(ctx, tx, spaceID)
}

// FindSpace returns a space, deleted or not, whatever its organization: the caller checks access.
func (s *Store) FindSpace(ctx context.Context, id string) (*store.Space, error) {
	return findSpace(pointRead(ctx), s.reader, id)
}

// FindSpaceForUser returns a space with the user's membership of its organization, in one
// query: the hot path of every space request. member is false when the user is not a member.
func (s *Store) FindSpaceForUser(ctx context.Context, id, userID string) (*store.Space, store.Role, bool, error) {
	c, err := cachedRead(ctx, s, &s.spaceCache, id+"\x00"+userID, func() (spaceForUser, error) {
		return findSpaceForUser(ctx, s.reader, id, userID)
	})
	if err != nil {
		return nil, "", false, err
	}
	sp := c.space
	return &sp, c.role, c.member, nil
}

func findSpaceForUser(ctx context.Context, q querier, id, userID string) (spaceForUser, error) {
	var c spaceForUser
	var r sql.NullString
	err := scanSpace(scanWith{extra: []any{&c.member, &r}, row: q.QueryRowContext(pointRead(ctx), `SELECT `+spaceColumns+`,
		EXISTS (SELECT 1 FROM members m WHERE m.organization_id = s.organization_id AND m.user_id = ?1),
		(SELECT m.role FROM members m WHERE m.organization_id = s.organization_id AND m.user_id = ?1)
		FROM spaces s WHERE s.id = ?2`, userID, id)}, &c.space)
	if errors.Is(err, sql.ErrNoRows) {
		return c, store.NotFound("Space")
	}
	if err != nil {
		return c, fmt.Errorf("store: unable to find space: %w", err)
	}
	c.role = store.Role(r.String)
	return c, nil
}

// FindSpaces lists an organization's spaces that are not deleted, oldest first (newest first when
// desc).
func (s *Store) FindSpaces(ctx context.Context, orgID string, desc bool, vis *store.Visible, p store.Page) (store.List[*store.Space], error) {
	q := &listQuery{cols: spaceColumns, from: `spaces s`, order: byKeys(`s.created_at`, `s.id`), desc: desc}
	q.and(`s.organization_id = ?`, orgID)
	q.andVisible("s", vis)
	q.and(`s.deleted_at IS NULL`)
	return findList(ctx, s.reader, q, p, "spaces", fill(scanSpace))
}

// FindSpacesInCollection lists the spaces directly in a collection, in their order.
func (s *Store) FindSpacesInCollection(ctx context.Context, collectionID string, vis *store.Visible, p store.Page) (store.List[*store.Space], error) {
	// The position is an integer; cursors written before it was compared as one held it
	// zero-padded, which reads as the same number.
	q := &listQuery{cols: spaceColumns, from: `spaces s`, order: []sortKey{{expr: `s.position`, integer: true}, {expr: `s.id`}}}
	q.and(`s.parent_id = ?`, collectionID)
	q.and(`s.deleted_at IS NULL`)
	q.andVisible("s", vis)
	return findList(ctx, s.reader, q, p, "spaces", fill(scanSpace))
}

// UpdateSpace applies an update to a space that is not deleted.
func (s *Store) UpdateSpace(ctx context.Context, id string, upd store.SpaceUpdate) (*store.Space, error) {
	var sp *store.Space
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findLiveSpace(ctx, tx, id); err != nil {
			return err
		}
		set := func(col string, v any) error {
			if _, err := tx.ExecContext(ctx, `UPDATE spaces SET `+col+` = ? WHERE id = ?`, v, id); err != nil {
				return fmt.Errorf("store: unable to update space: %w", err)
			}
			return nil
		}
		var errs []error
		if upd.Title != nil {
			errs = append(errs, set("title", *upd.Title))
		}
		if upd.Emoji != nil {
			errs = append(errs, set("emoji", *upd.Emoji))
		}
		if upd.SetIcon {
			errs = append(errs, set("icon", nullString(upd.Icon)))
		}
		if upd.EditMode != nil {
			errs = append(errs, set("edit_mode", *upd.EditMode))
		}
		if upd.Language != nil {
			errs = append(errs, set("language", *upd.Language))
		}
		if upd.MergeRules != nil {
			b, _ := json.Marshal(upd.MergeRules)
			errs = append(errs, set("merge_rules", string(b)))
		}
		if upd.SetDefaultLevel {
			errs = append(errs, set("default_level", nullRole(upd.DefaultLevel)))
		}
		errs = append(errs, set("updated_at", formatTime(tx.now)))
		if err := errors.Join(errs...); err != nil {
			return err
		}
		var err error
		sp, err = findSpace(ctx, tx, id)
		return err
	})
	return sp, err
}

// DeleteSpace soft-deletes a space: hidden from lists, restorable for RestoreWindow, then purged.
// Deleting a missing or already deleted space is no error.
func (s *Store) DeleteSpace(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `UPDATE spaces SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`,
			now, now, id); err != nil {
			return fmt.Errorf("store: unable to delete space: %w", err)
		}
		if err := deleteSiteSpacesOfSpace(ctx, tx, id); err != nil {
			return err
		}
		return unindexSpace(ctx, tx, id)
	})
}

// RestoreSpace brings back a space deleted less than RestoreWindow ago, at the end of its parent.
func (s *Store) RestoreSpace(ctx context.Context, id string) (*store.Space, error) {
	var sp *store.Space
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findSpace(ctx, tx, id)
		if err != nil {
			return err
		}
		if cur.DeletedAt == nil {
			return store.Errorf(store.EINVALID, "The space is not deleted.")
		}
		if tx.now.Sub(*cur.DeletedAt) > store.RestoreWindow {
			return store.Errorf(store.EINVALID, "The space was deleted more than 7 days ago and cannot be restored.")
		}
		pos, err := nextPosition(ctx, tx, cur.OrganizationID, cur.ParentID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE spaces SET deleted_at = NULL, position = ?, updated_at = ? WHERE id = ?`,
			pos, formatTime(tx.now), id); err != nil {
			return fmt.Errorf("store: unable to restore space: %w", err)
		}
		if err := reindexSpace(ctx, tx, id); err != nil {
			return err
		}
		sp, err = findSpace(ctx, tx, id)
		return err
	})
	return sp, err
}

// DuplicateSpace copies a space's settings into a new space placed right after it.
func (s *Store) DuplicateSpace(ctx context.Context, id, creatorID string) (*store.Space, error) {
	var sp *store.Space
	err := s.write(ctx, func(tx *Tx) error {
		newID, err := duplicateSpace(ctx, tx, id, creatorID)
		if err == nil {
			sp, err = findSpace(ctx, tx, newID)
		}
		return err
	})
	return sp, err
}

// duplicateSpace copies a live space into a new one placed right after it, with the original's
// current content, and returns its id.
func duplicateSpace(ctx context.Context, tx *Tx, id, creatorID string) (string, error) {
	newID := store.NewID()
	src, err := findLiveSpace(ctx, tx, id)
	if err != nil {
		return "", err
	}
	title := src.Title + " (copy)"
	for utf8.RuneCountInString(title) > 50 {
		r := []rune(title)
		title = string(r[:50])
	}
	now := formatTime(tx.now)
	if _, err := tx.ExecContext(ctx, `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, icon, visibility,
		edit_mode, default_level, language, merge_rules, revision_id, position, created_by, created_at, updated_at)
		SELECT ?, organization_id, parent_id, ?, emoji, icon, visibility, edit_mode, default_level, language, merge_rules,
			'', position, ?, ?, ? FROM spaces WHERE id = ?`,
		newID, title, creatorID, now, now, id); err != nil {
		return "", fmt.Errorf("store: unable to duplicate space: %w", err)
	}
	// The copy starts with the original's current content, shared rather than copied.
	if err := setFirstRevision(ctx, tx, newID, src.RevisionID); err != nil {
		return "", err
	}
	if err := moveItem(ctx, tx, src.OrganizationID, store.Pointer{Kind: "space", ID: newID}, src.ParentID,
		store.Move{After: &store.Pointer{Kind: "space", ID: id}}); err != nil && store.ErrorCode(err) != store.EINVALID {
		return "", err
	}
	return newID, nil
}

// MoveSpace moves a space to another parent or position.
func (s *Store) MoveSpace(ctx context.Context, id string, m store.Move) (*store.Space, error) {
	var sp *store.Space
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findLiveSpace(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := moveItem(ctx, tx, cur.OrganizationID, store.Pointer{Kind: "space", ID: id}, cur.ParentID, m); err != nil {
			return err
		}
		sp, err = findSpace(ctx, tx, id)
		return err
	})
	return sp, err
}

// TransferSpace moves a space to the top level of another organization.
func (s *Store) TransferSpace(ctx context.Context, id, targetOrgID string) (*store.Space, error) {
	var sp *store.Space
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findLiveSpace(ctx, tx, id)
		if err != nil {
			return err
		}
		if cur.OrganizationID == targetOrgID {
			return store.FieldErrorf("organization", "the space is already in this organization")
		}
		pos, err := nextPosition(ctx, tx, targetOrgID, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE spaces SET organization_id = ?, parent_id = NULL, position = ?, updated_at = ?
			WHERE id = ?`, targetOrgID, pos, formatTime(tx.now), id); err != nil {
			return fmt.Errorf("store: unable to transfer space: %w", err)
		}
		if err := spaceTransferred(ctx, tx, id); err != nil {
			return err
		}
		sp, err = findSpace(ctx, tx, id)
		return err
	})
	return sp, err
}

// spaceTransferred does what a space's move to another organization (on its own or with its
// collection) entails beyond the move: the sites publishing it belong to the organization it
// leaves, as do the members and teams its grants name, and its search rows must carry the new
// organization.
func spaceTransferred(ctx context.Context, tx *Tx, spaceID string) error {
	if err := deleteSiteSpacesOfSpace(ctx, tx, spaceID); err != nil {
		return err
	}
	if err := deleteGrantsOn(ctx, tx, spaceID); err != nil {
		return err
	}
	return reindexSpace(ctx, tx, spaceID)
}

// PurgeDeletedSpaces removes for good the spaces deleted more than RestoreWindow ago, with the
// content only they used (see purgeContent).
func (s *Store) PurgeDeletedSpaces(ctx context.Context) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at < ?`,
			formatTime(tx.now.Add(-store.RestoreWindow)))
		if err != nil {
			return fmt.Errorf("store: unable to purge spaces: %w", err)
		}
		n, _ = res.RowsAffected()
		if n == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM content_grants WHERE target_kind = 'space'
			AND NOT EXISTS (SELECT 1 FROM spaces s WHERE s.id = content_grants.target_id)`); err != nil {
			return fmt.Errorf("store: unable to remove purged spaces' grants: %w", err)
		}
		return purgeContent(ctx, tx)
	})
	return int(n), err
}

// SpaceTitles returns the titles of spaces by id, in one query.
func (s *Store) SpaceTitles(ctx context.Context, ids []string) (map[string]string, error) {
	b, _ := json.Marshal(ids)
	out := make(map[string]string, len(ids))
	err := queryInto(ctx, s.reader, "space titles", `SELECT id, title FROM spaces WHERE id IN (SELECT value FROM json_each(?))`,
		[]any{string(b)}, out, func(sc scanner) (id, title string, err error) {
			err = sc.Scan(&id, &title)
			return
		})
	return out, err
}
