package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// Spaces and collections that share a parent (a collection, or the organization's top level)
// form one ordered list of siblings; `position` is their order within it.

type sibling struct {
	store.Pointer
	position int
}

// siblings lists the children of a parent in an organization, in order.
func siblings(ctx context.Context, tx *Tx, orgID string, parent *string) ([]sibling, error) {
	rows, err := tx.QueryContext(ctx, `
		SELECT 'collection', id, position FROM collections WHERE organization_id = ?1 AND parent_id IS ?2
		UNION ALL
		SELECT 'space', id, position FROM spaces WHERE organization_id = ?1 AND parent_id IS ?2 AND deleted_at IS NULL
		ORDER BY 3, 2`, orgID, nullString(parent))
	if err != nil {
		return nil, fmt.Errorf("store: unable to list siblings: %w", err)
	}
	defer rows.Close()
	var out []sibling
	for rows.Next() {
		var s sibling
		if err := rows.Scan(&s.Kind, &s.ID, &s.position); err != nil {
			return nil, fmt.Errorf("store: unable to list siblings: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// nextPosition is the position after the last child of a parent.
func nextPosition(ctx context.Context, tx *Tx, orgID string, parent *string) (int, error) {
	var n sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT max(p) FROM (
		SELECT max(position) AS p FROM collections WHERE organization_id = ?1 AND parent_id IS ?2
		UNION ALL
		SELECT max(position) FROM spaces WHERE organization_id = ?1 AND parent_id IS ?2 AND deleted_at IS NULL) AS positions`,
		orgID, nullString(parent)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: unable to find next position: %w", err)
	}
	if !n.Valid {
		return 0, nil
	}
	return int(n.Int64) + 1, nil
}

// checkParent returns EINVALID unless parent is nil or a collection of the organization.
func checkParent(ctx context.Context, tx *Tx, orgID string, parent *string) error {
	if parent == nil {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM collections WHERE id = ? AND organization_id = ?`, *parent, orgID).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check parent: %w", err)
	}
	if n == 0 {
		return store.FieldErrorf("parent", "no collection %q in this organization", *parent)
	}
	return nil
}

// moveItem moves a space or collection among siblings, renumbering the target parent's children.
// from is the item's current parent. It refuses moves that change nothing and positions that
// name something that is not a sibling under the target parent.
func moveItem(ctx context.Context, tx *Tx, orgID string, item store.Pointer, from *string, m store.Move) error {
	target := from
	if m.SetParent {
		target = m.Parent
	}
	if err := checkParent(ctx, tx, orgID, target); err != nil {
		return err
	}
	list, err := siblings(ctx, tx, orgID, target)
	if err != nil {
		return err
	}
	key := func(s sibling) string { return s.Kind + ":" + s.ID }
	ref := func(p *store.Pointer) *string {
		if p == nil {
			return nil
		}
		k := p.Kind + ":" + p.ID
		return &k
	}
	order, unchanged, err := store.Reorder(list, sibling{Pointer: item, position: -1}, key, ref(m.Before), ref(m.After))
	if err != nil {
		return err
	}
	sameParent := (from == nil && target == nil) || (from != nil && target != nil && *from == *target)
	if sameParent && unchanged {
		return store.Errorf(store.EINVALID, "The move would change nothing: the item is already there.")
	}
	for i, s := range order {
		table := "spaces"
		if s.Kind == "collection" {
			table = "collections"
		}
		if s.Pointer == item {
			_, err = tx.ExecContext(ctx, `UPDATE `+table+` SET position = ?, parent_id = ?, updated_at = ? WHERE id = ?`,
				i, nullString(target), formatTime(tx.now), s.ID)
		} else if s.position != i {
			_, err = tx.ExecContext(ctx, `UPDATE `+table+` SET position = ? WHERE id = ?`, i, s.ID)
		}
		if err != nil {
			return fmt.Errorf("store: unable to reorder: %w", err)
		}
	}
	return nil
}
