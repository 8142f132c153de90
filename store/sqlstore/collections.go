package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

const collectionColumns = `c.id, c.organization_id, c.parent_id, c.title, c.description, c.default_level, c.created_at, c.updated_at`

func scanCollection(sc interface{ Scan(...any) error }, c *store.Collection) error {
	var parent, desc, level sql.NullString
	var created, updated string
	if err := sc.Scan(&c.ID, &c.OrganizationID, &parent, &c.Title, &desc, &level, &created, &updated); err != nil {
		return err
	}
	c.ParentID, c.Description = stringPtr(parent), stringPtr(desc)
	c.DefaultLevel = store.Role(level.String)
	c.CreatedAt, c.UpdatedAt = parseTime(created), parseTime(updated)
	return nil
}

// CreateCollection creates a collection at the end of its parent (or of the top level).
func (s *Store) CreateCollection(ctx context.Context, orgID, title string, parent *string) (*store.Collection, error) {
	id := store.NewID()
	var c *store.Collection
	err := s.write(ctx, func(tx *Tx) error {
		if err := checkParent(ctx, tx, orgID, parent); err != nil {
			return err
		}
		pos, err := nextPosition(ctx, tx, orgID, parent)
		if err != nil {
			return err
		}
		now := formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO collections (id, organization_id, parent_id, title, position, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, orgID, nullString(parent), title, pos, now, now); err != nil {
			return fmt.Errorf("store: unable to create collection: %w", err)
		}
		c, err = findCollection(ctx, tx, id)
		return err
	})
	return c, err
}

// FindCollection returns a collection, whatever its organization: the caller checks access.
func (s *Store) FindCollection(ctx context.Context, id string) (*store.Collection, error) {
	return findCollection(ctx, s.reader, id)
}

func findCollection(ctx context.Context, q querier, id string) (*store.Collection, error) {
	var c store.Collection
	err := scanCollection(q.QueryRowContext(ctx, `SELECT `+collectionColumns+` FROM collections c WHERE c.id = ?`, id), &c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Collection")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find collection: %w", err)
	}
	return &c, nil
}

// FindCollections lists an organization's collections, oldest first; only top-level ones unless
// nested.
func (s *Store) FindCollections(ctx context.Context, orgID string, nested bool, vis *store.Visible, p store.Page) (store.List[*store.Collection], error) {
	q := &listQuery{cols: collectionColumns, from: `collections c`, order: byKeys(`c.created_at`, `c.id`)}
	q.and(`c.organization_id = ?`, orgID)
	q.andVisible("c", vis)
	if !nested {
		q.and(`c.parent_id IS NULL`)
	}
	return findList(ctx, s.reader, q, p, "collections", fill(scanCollection))
}

// CollectionLevels returns, for every collection of an organization, its parent and default
// level, so content levels can be resolved through `inherit` without a query per item.
func (s *Store) CollectionLevels(ctx context.Context, orgID string) (store.Levels, error) {
	return cachedRead(ctx, s, &s.levelsCache, orgID, func() (store.Levels, error) {
		return collectionLevels(ctx, s.reader, orgID)
	})
}

func collectionLevels(ctx context.Context, q querier, orgID string) (store.Levels, error) {
	out := store.Levels{}
	err := queryInto(ctx, q, "collection levels", `SELECT id, parent_id, default_level FROM collections WHERE organization_id = ?`,
		[]any{orgID}, out, func(sc scanner) (string, store.LevelNode, error) {
			var id string
			var parent, level sql.NullString
			err := sc.Scan(&id, &parent, &level)
			return id, store.LevelNode{Parent: stringPtr(parent), Level: store.Role(level.String)}, err
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateCollection applies an update.
func (s *Store) UpdateCollection(ctx context.Context, id string, upd store.CollectionUpdate) (*store.Collection, error) {
	var c *store.Collection
	err := s.write(ctx, func(tx *Tx) error {
		if upd.Title != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE collections SET title = ? WHERE id = ?`, *upd.Title, id); err != nil {
				return fmt.Errorf("store: unable to update collection: %w", err)
			}
		}
		if upd.Description != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE collections SET description = ? WHERE id = ?`, *upd.Description, id); err != nil {
				return fmt.Errorf("store: unable to update collection: %w", err)
			}
		}
		if upd.SetDefaultLevel {
			if _, err := tx.ExecContext(ctx, `UPDATE collections SET default_level = ? WHERE id = ?`, nullRole(upd.DefaultLevel), id); err != nil {
				return fmt.Errorf("store: unable to update collection: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE collections SET updated_at = ? WHERE id = ?`, formatTime(tx.now), id); err != nil {
			return fmt.Errorf("store: unable to update collection: %w", err)
		}
		var err error
		c, err = findCollection(ctx, tx, id)
		return err
	})
	return c, err
}

// subtree is a recursive CTE of a collection (?1) and all collections under it.
const subtree = `WITH RECURSIVE sub(id) AS (
	SELECT id FROM collections WHERE id = ?1 UNION ALL SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id)`

// subtreeSpaces lists the live spaces in a collection and the collections under it.
func subtreeSpaces(ctx context.Context, tx *Tx, id string) ([]string, error) {
	return queryAll(ctx, tx, "collection spaces", subtree+` SELECT id FROM spaces WHERE parent_id IN (SELECT id FROM sub) AND deleted_at IS NULL`,
		[]any{id}, scanString)
}

// DeleteCollection deletes a collection and the collections under it; the spaces in them are
// soft-deleted (restorable, at the top level, for 7 days). Deleting a missing one is no error.
func (s *Store) DeleteCollection(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		spaces, err := subtreeSpaces(ctx, tx, id)
		if err != nil {
			return err
		}
		for _, sp := range spaces {
			if err := unindexSpace(ctx, tx, sp); err != nil {
				return err
			}
			if err := deleteSiteSpacesOfSpace(ctx, tx, sp); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, subtree+`
			UPDATE spaces SET deleted_at = ?2, updated_at = ?2
			WHERE parent_id IN (SELECT id FROM sub) AND deleted_at IS NULL`, id, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to delete collection spaces: %w", err)
		}
		if _, err := tx.ExecContext(ctx, subtree+` DELETE FROM content_grants WHERE target_id IN (SELECT id FROM sub)`, id); err != nil {
			return fmt.Errorf("store: unable to remove collection grants: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM collections WHERE id = ?`, id); err != nil {
			return fmt.Errorf("store: unable to delete collection: %w", err)
		}
		return nil
	})
}

// MoveCollection moves a collection; a collection cannot go into itself or a descendant.
func (s *Store) MoveCollection(ctx context.Context, id string, m store.Move) (*store.Collection, error) {
	var c *store.Collection
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findCollection(ctx, tx, id)
		if err != nil {
			return err
		}
		if m.SetParent && m.Parent != nil {
			var inside int
			if err := tx.QueryRowContext(ctx, subtree+` SELECT count(*) FROM sub WHERE id = ?2`, id, *m.Parent).Scan(&inside); err != nil {
				return fmt.Errorf("store: unable to check move: %w", err)
			}
			if inside > 0 {
				return store.FieldErrorf("parent", "a collection cannot be moved into itself or one of its descendants")
			}
		}
		if err := moveItem(ctx, tx, cur.OrganizationID, store.Pointer{Kind: "collection", ID: id}, cur.ParentID, m); err != nil {
			return err
		}
		c, err = findCollection(ctx, tx, id)
		return err
	})
	return c, err
}

// TransferCollection moves a collection, with everything under it, to the top level of another
// organization.
func (s *Store) TransferCollection(ctx context.Context, id, targetOrgID string) (*store.Collection, error) {
	var c *store.Collection
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findCollection(ctx, tx, id)
		if err != nil {
			return err
		}
		if cur.OrganizationID == targetOrgID {
			return store.FieldErrorf("organization", "the collection is already in this organization")
		}
		pos, err := nextPosition(ctx, tx, targetOrgID, nil)
		if err != nil {
			return err
		}
		now := formatTime(tx.now)
		// Grants name the members and teams of the organization the collections leave.
		if _, err := tx.ExecContext(ctx, subtree+` DELETE FROM content_grants WHERE target_id IN (SELECT id FROM sub)`, id); err != nil {
			return fmt.Errorf("store: unable to remove collection grants: %w", err)
		}
		if _, err := tx.ExecContext(ctx, subtree+`
			UPDATE spaces SET organization_id = ?2, updated_at = ?3 WHERE parent_id IN (SELECT id FROM sub)`,
			id, targetOrgID, now); err != nil {
			return fmt.Errorf("store: unable to transfer spaces: %w", err)
		}
		if _, err := tx.ExecContext(ctx, subtree+`
			UPDATE collections SET organization_id = ?2, updated_at = ?3 WHERE id IN (SELECT id FROM sub)`,
			id, targetOrgID, now); err != nil {
			return fmt.Errorf("store: unable to transfer collections: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE collections SET parent_id = NULL, position = ? WHERE id = ?`, pos, id); err != nil {
			return fmt.Errorf("store: unable to transfer collection: %w", err)
		}
		spaces, err := subtreeSpaces(ctx, tx, id)
		if err != nil {
			return err
		}
		for _, sp := range spaces {
			if err := spaceTransferred(ctx, tx, sp); err != nil {
				return err
			}
		}
		c, err = findCollection(ctx, tx, id)
		return err
	})
	return c, err
}
