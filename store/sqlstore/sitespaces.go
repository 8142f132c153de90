package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// FindSiteSpaces lists a site's site spaces in the structure's order.
func (s *Store) FindSiteSpaces(ctx context.Context, siteID string, f store.SiteSpaceFilter, p store.Page) (store.List[*store.SiteSpace], error) {
	q := &listQuery{with: structureKeys, withArgs: []any{siteID}, cols: siteSpaceColumns, from: `site_spaces ss`,
		join: ` JOIN spaces s ON s.id = ss.space_id JOIN ssk ON ssk.id = ss.id`, order: byKeys(`ssk.k`)}
	q.and(`ss.site_id = ?`, siteID)
	if f.Default != nil {
		q.and(`ss.is_default = ?`, *f.Default)
	}
	return findList(ctx, s.reader, q, p, "site spaces", fill(scanSiteSpace))
}

// FindSiteSpace returns a site space of a site.
func (s *Store) FindSiteSpace(ctx context.Context, siteID, id string) (*store.SiteSpace, error) {
	return findSiteSpace(pointRead(ctx), s.reader, siteID, id)
}

func findSiteSpace(ctx context.Context, q querier, siteID, id string) (*store.SiteSpace, error) {
	var ss store.SiteSpace
	err := scanSiteSpace(q.QueryRowContext(ctx, siteSpaceSelect+` WHERE ss.id = ? AND ss.site_id = ?`, id, siteID), &ss)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Site space")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find site space: %w", err)
	}
	return &ss, nil
}

const (
	siteSpacePathsQuery = `SELECT path FROM site_spaces WHERE site_id = ?1 AND section_id IS ?2 AND id IS NOT ?3`
	sectionPathsQuery   = `SELECT path FROM site_sections WHERE site_id = ?1 AND id IS NOT ?2`
)

// insertSiteSpace adds a space of the organization at the end of a container (c.SectionID: a
// section, or nil: the site root), with a path derived from its title; the first one is the
// default. field names the request field that gave the space.
func insertSiteSpace(ctx context.Context, tx *Tx, orgID, siteID string, c store.SiteSpaceCreate, field string) (string, error) {
	spaceID, sectionID := c.SpaceID, c.SectionID
	title, err := liveSpaceTitle(ctx, tx, orgID, spaceID, field)
	if err != nil {
		return "", err
	}
	if c.Title != nil {
		title = *c.Title
	}
	if c.PageID != nil {
		if err := checkSitePage(ctx, tx, spaceID, *c.PageID, "pageId"); err != nil {
			return "", err
		}
	}
	taken, err := takenPaths(ctx, tx, siteSpacePathsQuery, siteID, nullString(sectionID), nil)
	if err != nil {
		return "", err
	}
	var pos float64
	var first bool
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(position) + 1, 0), NOT EXISTS (SELECT 1 FROM site_spaces
		WHERE site_id = ?1 AND section_id IS ?2 AND is_default = 1) FROM site_spaces WHERE site_id = ?1 AND section_id IS ?2`,
		siteID, nullString(sectionID)).Scan(&pos, &first); err != nil {
		return "", fmt.Errorf("store: unable to place site space: %w", err)
	}
	id := store.NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO site_spaces (id, site_id, section_id, space_id, path, is_default, position,
		title, page_id, draft) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, siteID, nullString(sectionID), spaceID,
		store.UniquePath(store.Slugify(title), taken), first, pos, nullString(c.Title), nullString(c.PageID), c.Draft); err != nil {
		return "", fmt.Errorf("store: unable to add site space: %w", err)
	}
	return id, nil
}

// AddSiteSpace adds a live space of the site's organization to a section (nil: the default
// section, or the root of a site without sections); a page it names must be the space's. The
// space may be created (NewSpace) or copied (CopyOf) in the same write: refused, it leaves none.
func (s *Store) AddSiteSpace(ctx context.Context, siteID string, c store.SiteSpaceCreate) (*store.SiteSpace, error) {
	sectionID := c.SectionID
	var ss *store.SiteSpace
	err := s.write(ctx, func(tx *Tx) error {
		orgID, err := siteOrganization(ctx, tx, siteID)
		if err != nil {
			return err
		}
		if c.NewSpace != nil {
			if c.SpaceID, err = createSiteSpaceSpace(ctx, tx, orgID, c.NewSpace); err != nil {
				return err
			}
		}
		if c.CopyOf != nil { // a copy of another organization's space is refused below, with the copy
			if c.SpaceID, err = duplicateSpace(ctx, tx, c.CopyOf.SpaceID, c.CopyOf.CreatorID); err != nil {
				return err
			}
		}
		if sectionID != nil {
			if err := checkSiteRow(ctx, tx, "site_sections", siteID, *sectionID, "sectionId", "section"); err != nil {
				return err
			}
		} else {
			var def string
			err := tx.QueryRowContext(ctx, `SELECT id FROM site_sections WHERE site_id = ? ORDER BY is_default DESC, position, id LIMIT 1`,
				siteID).Scan(&def)
			if err == nil {
				sectionID = &def
			} else if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("store: unable to find the default section: %w", err)
			}
		}
		c.SectionID = sectionID
		id, err := insertSiteSpace(ctx, tx, orgID, siteID, c, "spaceId")
		if err != nil {
			return err
		}
		ss, err = findSiteSpace(ctx, tx, siteID, id)
		return err
	})
	return ss, err
}

// createSiteSpaceSpace creates the space of a new site space or section, with its template's
// pages, and returns its id.
func createSiteSpaceSpace(ctx context.Context, tx *Tx, orgID string, n *store.NewSiteSpace) (string, error) {
	return insertSpace(ctx, tx, orgID, n.CreatorID, store.SpaceCreate{Title: n.Title, Pages: n.Changes})
}

// DeleteSiteSpace removes a site space; a default gives way to the next. Deleting a missing
// one is no error.
func (s *Store) DeleteSiteSpace(ctx context.Context, siteID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		var g goneDefault
		var section sql.NullString
		var def bool
		err := tx.QueryRowContext(ctx, `SELECT site_id, section_id, position, is_default FROM site_spaces WHERE id = ? AND site_id = ?`,
			id, siteID).Scan(&g.SiteID, &section, &g.Position, &def)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("store: unable to find site space: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_spaces WHERE id = ?`, id); err != nil {
			return fmt.Errorf("store: unable to delete site space: %w", err)
		}
		if !def {
			return nil
		}
		g.SectionID = stringPtr(section)
		return promoteSiteSpaces(ctx, tx, []goneDefault{g})
	})
}

// UpdateSiteSpace applies an update. A path another site space of the container has is a
// conflict; a space that is not live in the site's organization is invalid.
func (s *Store) UpdateSiteSpace(ctx context.Context, siteID, id string, upd store.SiteSpaceUpdate) (*store.SiteSpace, error) {
	var ss *store.SiteSpace
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findSiteSpace(ctx, tx, siteID, id)
		if err != nil {
			return err
		}
		if upd.Path != nil && *upd.Path != cur.Path {
			taken, err := takenPaths(ctx, tx, siteSpacePathsQuery, siteID, nullString(cur.SectionID), id)
			if err != nil {
				return err
			}
			if taken[*upd.Path] {
				where := "this section"
				if cur.SectionID == nil {
					where = "this site"
				}
				return store.ErrorAt(store.ECONFLICT, "path", "another site space of %s already has the path %q", where, *upd.Path)
			}
		}
		spaceID := cur.Space.ID
		if upd.SpaceID != nil {
			orgID, err := siteOrganization(ctx, tx, siteID)
			if err != nil {
				return err
			}
			if _, err := liveSpaceTitle(ctx, tx, orgID, *upd.SpaceID, "spaceId"); err != nil {
				return err
			}
			if *upd.SpaceID != spaceID && !upd.SetPageID {
				// A page of the former space means nothing in the new one.
				upd.SetPageID, upd.PageID = true, nil
			}
			spaceID = *upd.SpaceID
		}
		if upd.SetPageID && upd.PageID != nil {
			if err := checkSitePage(ctx, tx, spaceID, *upd.PageID, "pageId"); err != nil {
				return err
			}
		}
		set := func(column string, value any) error {
			if _, err := tx.ExecContext(ctx, `UPDATE site_spaces SET `+column+` = ? WHERE id = ?`, value, id); err != nil {
				return fmt.Errorf("store: unable to update site space %s: %w", column, err)
			}
			return nil
		}
		errs := []error{}
		if upd.Path != nil {
			errs = append(errs, set("path", *upd.Path))
		}
		if upd.SetCondition {
			errs = append(errs, set("condition", nullString(upd.Condition)))
		}
		if upd.SpaceID != nil {
			errs = append(errs, set("space_id", *upd.SpaceID))
		}
		if upd.SetPageID {
			errs = append(errs, set("page_id", nullString(upd.PageID)))
		}
		if upd.Hidden != nil {
			errs = append(errs, set("hidden", *upd.Hidden))
		}
		if upd.Draft != nil {
			errs = append(errs, set("draft", *upd.Draft))
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
		ss, err = findSiteSpace(ctx, tx, siteID, id)
		return err
	})
	return ss, err
}

// MoveSiteSpace moves a site space among the site spaces of its container.
func (s *Store) MoveSiteSpace(ctx context.Context, siteID, id string, m store.SiteMove) (*store.SiteSpace, error) {
	var ss *store.SiteSpace
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findSiteSpace(ctx, tx, siteID, id)
		if err != nil {
			return err
		}
		siblings, err := structureItems(ctx, tx, siteSpaceSiblings, siteID, nullString(cur.SectionID))
		if err != nil {
			return err
		}
		if err := moveAmong(ctx, tx, siblings, structureItem{table: "site_spaces", id: id}, m, "site space"); err != nil {
			return err
		}
		ss, err = findSiteSpace(ctx, tx, siteID, id)
		return err
	})
	return ss, err
}
