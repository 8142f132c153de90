package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// Sorting a site's structure: any item next to any other that may share its order.

// siteItemTable is where an item kind is kept: its table, the column naming its parent, and what
// it is called.
type siteItemTable struct {
	table, parent, what, name string
}

var siteItemTables = map[store.SiteItemKind]siteItemTable{
	store.SiteItemSpace:        {"site_spaces", "section_id", "site space", "Site space"},
	store.SiteItemSection:      {"site_sections", "group_id", "section", "Section"},
	store.SiteItemGroup:        {"site_section_groups", "parent_id", "section group", "Section group"},
	store.SiteItemExternalLink: {"site_external_links", "group_id", "external link", "External link"},
}

// itemParent reads the parent of an item of the site; ok false when the site has no such item.
func itemParent(ctx context.Context, tx *Tx, siteID string, t siteItemTable, id string) (parent *string, ok bool, err error) {
	var p sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT `+t.parent+` FROM `+t.table+` WHERE id = ? AND site_id = ?`, id, siteID).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("store: unable to find %s: %w", t.what, err)
	}
	return stringPtr(p), true, nil
}

// SortSiteStructure moves an item of the site's structure next to another, or to the end of its
// parent.
func (s *Store) SortSiteStructure(ctx context.Context, siteID string, item store.SiteItemRef, m store.SiteItemMove) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := siteOrganization(ctx, tx, siteID); err != nil {
			return err
		}
		t, known := siteItemTables[item.Kind]
		if !known {
			return store.FieldErrorf("item.type", "%q is not a kind of site structure item", item.Kind)
		}
		parent, ok, err := itemParent(ctx, tx, siteID, t, item.ID)
		if err != nil {
			return err
		}
		if !ok {
			return store.NotFound(t.name)
		}
		ref, field := m.Before, "position.before"
		if m.Before != nil && m.After != nil {
			return store.FieldErrorf("position", "give before or after, not both")
		}
		if ref == nil {
			ref, field = m.After, "position.after"
		}
		target := parent
		if ref != nil {
			rt, known := siteItemTables[ref.Kind]
			if !known {
				return store.FieldErrorf(field+".type", "%q is not a kind of site structure item", ref.Kind)
			}
			if (item.Kind == store.SiteItemSpace) != (ref.Kind == store.SiteItemSpace) {
				return store.FieldErrorf(field, "a %s cannot be placed next to a %s: site spaces are ordered within their section, sections, groups and external links within their group", t.what, rt.what)
			}
			rp, ok, err := itemParent(ctx, tx, siteID, rt, ref.ID)
			if err != nil {
				return err
			}
			if !ok {
				return store.FieldErrorf(field, "no %s %s in this site", rt.what, ref.ID)
			}
			if item.Kind == store.SiteItemSpace && !store.EqualPtr(rp, parent) {
				return store.FieldErrorf(field, "the site space %s is in another section: a site space moves within its own section", ref.ID)
			}
			target = rp
		}
		if !store.EqualPtr(target, parent) {
			if item.Kind == store.SiteItemGroup {
				if err := checkGroupParent(ctx, tx, siteID, item.ID, target, field); err != nil {
					return err
				}
			}
			pos, err := nextSectionPosition(ctx, tx, siteID, target)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE `+t.table+` SET `+t.parent+` = ?, position = ? WHERE id = ?`, nullString(target), pos, item.ID); err != nil {
				return fmt.Errorf("store: unable to move %s: %w", t.what, err)
			}
		}
		siblingsQuery := sectionSiblings
		if item.Kind == store.SiteItemSpace {
			siblingsQuery = siteSpaceSiblings
		}
		siblings, err := structureItems(ctx, tx, siblingsQuery, siteID, nullString(target))
		if err != nil {
			return err
		}
		key := func(it structureItem) string { return it.table + ":" + it.id }
		var refKey *string
		if ref != nil {
			k := siteItemTables[ref.Kind].table + ":" + ref.ID
			refKey = &k
		}
		var before, after *string
		if m.Before != nil {
			before = refKey
		} else {
			after = refKey
		}
		order, _, err := store.Reorder(siblings, structureItem{table: t.table, id: item.ID}, key, before, after)
		if err != nil {
			return err
		}
		return renumber(ctx, tx, order)
	})
}
