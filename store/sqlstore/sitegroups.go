package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// Section groups: adding, updating and deleting them, and moving sections in and out.

// AddSiteSectionGroup adds a group at the end of its parent and moves the given sections into
// it, in order.
func (s *Store) AddSiteSectionGroup(ctx context.Context, siteID string, c store.SiteSectionGroupCreate) (*store.SiteSectionGroup, error) {
	var g *store.SiteSectionGroup
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := siteOrganization(ctx, tx, siteID); err != nil {
			return err
		}
		if c.Parent != nil {
			if err := checkSiteRow(ctx, tx, "site_section_groups", siteID, *c.Parent, "parent", "section group"); err != nil {
				return err
			}
		}
		pos, err := nextSectionPosition(ctx, tx, siteID, c.Parent)
		if err != nil {
			return err
		}
		id := store.NewID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO site_section_groups (id, site_id, parent_id, title, icon, position, draft)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, siteID, nullString(c.Parent), c.Title, nullString(c.Icon), pos, c.Draft); err != nil {
			return fmt.Errorf("store: unable to add section group: %w", err)
		}
		var sections []string
		seen := map[string]bool{}
		for _, sec := range c.Sections {
			if !seen[sec] {
				seen[sec] = true
				sections = append(sections, sec)
			}
		}
		if len(sections) > 0 {
			res, err := tx.ExecContext(ctx, `UPDATE site_sections SET group_id = ?1,
				position = (SELECT j.key FROM json_each(?3) j WHERE j.value = site_sections.id)
				WHERE site_id = ?2 AND id IN (SELECT value FROM json_each(?3))`, id, siteID, jsonStrings(sections))
			if err != nil {
				return fmt.Errorf("store: unable to group sections: %w", err)
			}
			if n, _ := res.RowsAffected(); int(n) != len(sections) {
				for i, sec := range c.Sections {
					if err := checkSiteRow(ctx, tx, "site_sections", siteID, sec, fmt.Sprintf("sections[%d]", i), "section"); err != nil {
						return err
					}
				}
			}
		}
		g, err = findSiteGroup(ctx, tx, siteID, id)
		return err
	})
	return g, err
}

// DeleteSiteSectionGroup deletes a group; its sections and subgroups take its place in its
// parent, in order. Deleting a missing one is no error.
func (s *Store) DeleteSiteSectionGroup(ctx context.Context, siteID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		g, err := findSiteGroup(ctx, tx, siteID, id)
		if store.ErrorCode(err) == store.ENOTFOUND {
			return nil
		}
		if err != nil {
			return err
		}
		siblings, err := structureItems(ctx, tx, sectionSiblings, siteID, nullString(g.ParentID))
		if err != nil {
			return err
		}
		children, err := structureItems(ctx, tx, sectionSiblings, siteID, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET group_id = ?1 WHERE group_id = ?2`, nullString(g.ParentID), id); err != nil {
			return fmt.Errorf("store: unable to ungroup sections: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE site_section_groups SET parent_id = ?1 WHERE parent_id = ?2`, nullString(g.ParentID), id); err != nil {
			return fmt.Errorf("store: unable to ungroup groups: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE site_external_links SET group_id = ?1 WHERE group_id = ?2`, nullString(g.ParentID), id); err != nil {
			return fmt.Errorf("store: unable to ungroup external links: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_section_groups WHERE id = ?`, id); err != nil {
			return fmt.Errorf("store: unable to delete section group: %w", err)
		}
		order := make([]structureItem, 0, len(siblings)+len(children))
		for _, it := range siblings {
			if it.id == id {
				order = append(order, children...)
				continue
			}
			order = append(order, it)
		}
		return renumber(ctx, tx, order)
	})
}

// UpdateSiteSectionGroup applies an update. A parent that is not a group of the site, or is the
// group itself or one of its subgroups, is invalid.
func (s *Store) UpdateSiteSectionGroup(ctx context.Context, siteID, id string, upd store.SiteSectionGroupUpdate) (*store.SiteSectionGroup, error) {
	var g *store.SiteSectionGroup
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findSiteGroup(ctx, tx, siteID, id)
		if err != nil {
			return err
		}
		if upd.SetParent && !store.EqualPtr(upd.Parent, cur.ParentID) {
			if err := moveGroup(ctx, tx, siteID, id, upd.Parent); err != nil {
				return err
			}
		}
		if err := updateRow(ctx, tx, "site_section_groups", id,
			columnChange{upd.Title != nil, "title", nullString(upd.Title)},
			columnChange{upd.SetIcon, "icon", nullString(upd.Icon)},
			columnChange{upd.LocalizedTitle != nil, "localized_title", localizedColumn(upd.LocalizedTitle)},
			columnChange{upd.Draft != nil, "draft", upd.Draft != nil && *upd.Draft},
		); err != nil {
			return err
		}
		g, err = findSiteGroup(ctx, tx, siteID, id)
		return err
	})
	return g, err
}

// moveGroup moves a group to the end of another group of the site (nil: the site root), which
// must not be the group itself nor one of its subgroups.
func moveGroup(ctx context.Context, tx *Tx, siteID, id string, parent *string) error {
	if err := checkGroupParent(ctx, tx, siteID, id, parent, "parentSectionGroupId"); err != nil {
		return err
	}
	pos, err := nextSectionPosition(ctx, tx, siteID, parent)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE site_section_groups SET parent_id = ?, position = ? WHERE id = ?`, nullString(parent), pos, id); err != nil {
		return fmt.Errorf("store: unable to move section group: %w", err)
	}
	return nil
}

// checkGroupParent checks that parent (nil: the site root) is a group of the site that group id
// may go into: not itself nor one of its own subgroups; field names the request field.
func checkGroupParent(ctx context.Context, tx *Tx, siteID, id string, parent *string, field string) error {
	for at := parent; at != nil; {
		if *at == id {
			return store.FieldErrorf(field, "a section group cannot go into itself or one of its own subgroups")
		}
		up, err := findSiteGroup(ctx, tx, siteID, *at)
		if store.ErrorCode(err) == store.ENOTFOUND {
			return store.FieldErrorf(field, "no section group %s in this site", *at)
		}
		if err != nil {
			return err
		}
		at = up.ParentID
	}
	return nil
}

// AddSectionToGroup moves a section of the site to the end of a group (where it stays when it
// is already in it).
func (s *Store) AddSectionToGroup(ctx context.Context, siteID, groupID, sectionID string) (*store.SiteSectionGroup, error) {
	var g *store.SiteSectionGroup
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		if g, err = findSiteGroup(ctx, tx, siteID, groupID); err != nil {
			return err
		}
		var group sql.NullString
		err = tx.QueryRowContext(ctx, `SELECT group_id FROM site_sections WHERE id = ? AND site_id = ?`, sectionID, siteID).Scan(&group)
		if errors.Is(err, sql.ErrNoRows) {
			return store.FieldErrorf("sectionId", "no section %s in this site", sectionID)
		}
		if err != nil {
			return fmt.Errorf("store: unable to find section: %w", err)
		}
		return moveSectionToGroup(ctx, tx, siteID, sectionID, stringPtr(group), &groupID)
	})
	return g, err
}

// RemoveSectionFromGroup moves a section of a group to the end of the site root; a section that
// is not in the group stays where it is.
func (s *Store) RemoveSectionFromGroup(ctx context.Context, siteID, groupID, sectionID string) error {
	return s.write(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM site_sections WHERE id = ? AND site_id = ? AND group_id = ?`,
			sectionID, siteID, groupID).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to find section: %w", err)
		}
		if n == 0 {
			return nil
		}
		return moveSectionToGroup(ctx, tx, siteID, sectionID, &groupID, nil)
	})
}
