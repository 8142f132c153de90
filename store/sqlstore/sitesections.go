package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/quire-docs/quire/store"
)

// FindSiteSectionsOf returns, by id, the sections (without their site spaces) the given site
// spaces are in, in one query.
func (s *Store) FindSiteSectionsOf(ctx context.Context, siteID string, spaces []*store.SiteSpace) (map[string]*store.SiteSection, error) {
	var ids []string
	for _, ss := range spaces {
		if ss.SectionID != nil {
			ids = append(ids, *ss.SectionID)
		}
	}
	out := map[string]*store.SiteSection{}
	if len(ids) == 0 {
		return out, nil
	}
	secs, err := queryAll(ctx, s.reader, "sections", siteSectionSelect+` WHERE sec.site_id = ? AND sec.id IN (SELECT value FROM json_each(?))`,
		[]any{siteID, jsonStrings(ids)}, fill(scanSiteSection))
	for _, sec := range secs {
		out[sec.ID] = sec
	}
	return out, err
}

// FindSiteSections lists a site's sections, with their site spaces, in the structure's order.
func (s *Store) FindSiteSections(ctx context.Context, siteID string, p store.Page) (store.List[*store.SiteSection], error) {
	q := &listQuery{with: structureKeys, withArgs: []any{siteID}, cols: siteSectionColumns, from: `site_sections sec`,
		join: ` JOIN sk ON sk.id = sec.id`, order: byKeys(`sk.k`)}
	q.and(`sec.site_id = ?`, siteID)
	list, err := findList(ctx, s.reader, q, p, "sections", fill(scanSiteSection))
	if err != nil {
		return list, err
	}
	if err := loadSectionSpaces(ctx, s.reader, list.Items); err != nil {
		return store.List[*store.SiteSection]{}, err
	}
	return list, nil
}

// loadSectionSpaces fills the site spaces of sections, in one query.
func loadSectionSpaces(ctx context.Context, q querier, secs []*store.SiteSection) error {
	ids := make([]string, 0, len(secs))
	by := make(map[string]*store.SiteSection, len(secs))
	for _, sec := range secs {
		sec.SiteSpaces = []*store.SiteSpace{}
		ids = append(ids, sec.ID)
		by[sec.ID] = sec
	}
	if len(ids) == 0 {
		return nil
	}
	spaces, err := queryAll(ctx, q, "site spaces", siteSpaceSelect+` WHERE ss.section_id IN (SELECT value FROM json_each(?))
		ORDER BY ss.position, ss.id`, []any{jsonStrings(ids)}, fill(scanSiteSpace))
	for _, ss := range spaces {
		sec := by[*ss.SectionID]
		sec.SiteSpaces = append(sec.SiteSpaces, ss)
	}
	return err
}

// FindSiteSection returns a section of a site with its site spaces.
func (s *Store) FindSiteSection(ctx context.Context, siteID, id string) (*store.SiteSection, error) {
	return findSiteSection(ctx, s.reader, siteID, id)
}

func findSiteSection(ctx context.Context, q querier, siteID, id string) (*store.SiteSection, error) {
	var sec store.SiteSection
	err := scanSiteSection(q.QueryRowContext(ctx, siteSectionSelect+` WHERE sec.id = ? AND sec.site_id = ?`, id, siteID), &sec)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Section")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find section: %w", err)
	}
	if err := loadSectionSpaces(ctx, q, []*store.SiteSection{&sec}); err != nil {
		return nil, err
	}
	return &sec, nil
}

// FindSiteSectionGroups lists a site's section groups in the structure's order.
func (s *Store) FindSiteSectionGroups(ctx context.Context, siteID string, p store.Page) (store.List[*store.SiteSectionGroup], error) {
	q := &listQuery{with: structureKeys, withArgs: []any{siteID}, cols: siteGroupColumns, from: `site_section_groups g`,
		join: ` JOIN gk ON gk.id = g.id`, order: byKeys(`gk.k`)}
	q.and(`g.site_id = ?`, siteID)
	return findList(ctx, s.reader, q, p, "section groups", fill(scanSiteGroup))
}

// FindSiteSectionGroup returns a section group of a site.
func (s *Store) FindSiteSectionGroup(ctx context.Context, siteID, id string) (*store.SiteSectionGroup, error) {
	return findSiteGroup(pointRead(ctx), s.reader, siteID, id)
}

func findSiteGroup(ctx context.Context, q querier, siteID, id string) (*store.SiteSectionGroup, error) {
	var g store.SiteSectionGroup
	err := scanSiteGroup(q.QueryRowContext(ctx, siteGroupSelect+` WHERE g.id = ? AND g.site_id = ?`, id, siteID), &g)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Section group")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find section group: %w", err)
	}
	return &g, nil
}

// The writes.

// nextSectionPosition is the position after the last section or group of a parent.
func nextSectionPosition(ctx context.Context, tx *Tx, siteID string, parent *string) (float64, error) {
	var pos float64
	err := tx.QueryRowContext(ctx, `SELECT coalesce(max(p) + 1, 0) FROM (
		SELECT max(position) AS p FROM site_sections WHERE site_id = ?1 AND group_id IS ?2
		UNION ALL
		SELECT max(position) FROM site_section_groups WHERE site_id = ?1 AND parent_id IS ?2
		UNION ALL
		SELECT max(position) FROM site_external_links WHERE site_id = ?1 AND group_id IS ?2) AS positions`, siteID, nullString(parent)).Scan(&pos)
	if err != nil {
		return 0, fmt.Errorf("store: unable to place section: %w", err)
	}
	return pos, nil
}

// newSection is what insertSection writes.
type newSection struct {
	title   string
	icon    *string
	groupID *string // nil: the site root
	draft   bool
}

// insertSection adds a section at the end of its group (or the site root), with a path derived
// from its title; the first section of a site is the default.
func insertSection(ctx context.Context, tx *Tx, siteID string, n newSection) (string, error) {
	taken, err := takenPaths(ctx, tx, sectionPathsQuery, siteID, nil)
	if err != nil {
		return "", err
	}
	pos, err := nextSectionPosition(ctx, tx, siteID, n.groupID)
	if err != nil {
		return "", err
	}
	id := store.NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO site_sections (id, site_id, title, icon, path, is_default, position, group_id, draft)
		VALUES (?1, ?2, ?3, ?4, ?5, CASE WHEN EXISTS (SELECT 1 FROM site_sections WHERE site_id = ?2 AND is_default = 1) THEN 0 ELSE 1 END, ?6, ?7, ?8)`,
		id, siteID, n.title, nullString(n.icon), store.UniquePath(store.Slugify(n.title), taken), pos, nullString(n.groupID), n.draft); err != nil {
		return "", fmt.Errorf("store: unable to add section: %w", err)
	}
	return id, nil
}

// AddSiteSection adds a section at the end of the site root with a space as its first site
// space. The first section of a site whose spaces are at its root first gathers them into a
// default section titled after the site, so a site has sections or root site spaces, not both.
func (s *Store) AddSiteSection(ctx context.Context, siteID string, c store.SiteSectionCreate) (*store.SiteSection, error) {
	var sec *store.SiteSection
	err := s.write(ctx, func(tx *Tx) error {
		var orgID, siteTitle string
		var sections, rootSpaces int
		err := tx.QueryRowContext(ctx, `SELECT organization_id, title,
			(SELECT count(*) FROM site_sections WHERE site_id = ?1),
			(SELECT count(*) FROM site_spaces WHERE site_id = ?1 AND section_id IS NULL)
			FROM sites WHERE id = ?1`, siteID).Scan(&orgID, &siteTitle, &sections, &rootSpaces)
		if errors.Is(err, sql.ErrNoRows) {
			return store.NotFound("Site")
		}
		if err != nil {
			return fmt.Errorf("store: unable to find site: %w", err)
		}
		if c.NewSpace != nil {
			if c.SpaceID, err = createSiteSpaceSpace(ctx, tx, orgID, c.NewSpace); err != nil {
				return err
			}
		}
		title, err := liveSpaceTitle(ctx, tx, orgID, c.SpaceID, "spaceId")
		if err != nil {
			return err
		}
		if c.GroupID != nil {
			if err := checkSiteRow(ctx, tx, "site_section_groups", siteID, *c.GroupID, "siteSectionGroupId", "section group"); err != nil {
				return err
			}
		}
		if c.Title != nil {
			title = *c.Title
		} else if n := utf8.RuneCountInString(title); n < 2 || n > 128 {
			// A section title has 2 to 128 characters; a space's may be shorter.
			return store.FieldErrorf("title", "the space's title %q cannot title a section (2 to 128 characters); give a title", title)
		}
		if sections == 0 && rootSpaces > 0 {
			wrap, err := insertSection(ctx, tx, siteID, newSection{title: siteTitle})
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE site_spaces SET section_id = ? WHERE site_id = ? AND section_id IS NULL`,
				wrap, siteID); err != nil {
				return fmt.Errorf("store: unable to gather root site spaces: %w", err)
			}
		}
		id, err := insertSection(ctx, tx, siteID, newSection{title: title, icon: c.Icon, groupID: c.GroupID, draft: c.Draft})
		if err != nil {
			return err
		}
		ss := store.SiteSpaceCreate{SpaceID: c.SpaceID, SectionID: &id, PageID: c.PageID}
		if _, err := insertSiteSpace(ctx, tx, orgID, siteID, ss, "spaceId"); err != nil {
			return err
		}
		sec, err = findSiteSection(ctx, tx, siteID, id)
		return err
	})
	return sec, err
}

// DeleteSiteSection deletes a section with its site spaces; a default section gives way to the
// next in the structure's order. Deleting a missing one is no error.
func (s *Store) DeleteSiteSection(ctx context.Context, siteID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		var def bool
		err := tx.QueryRowContext(ctx, `SELECT is_default FROM site_sections WHERE id = ? AND site_id = ?`, id, siteID).Scan(&def)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("store: unable to find section: %w", err)
		}
		next := ""
		if def {
			order, err := structureItems(ctx, tx, structureKeys+` SELECT 'site_sections', id, 0 FROM sk ORDER BY k`, siteID)
			if err != nil {
				return err
			}
			for i, it := range order {
				if it.id == id && len(order) > 1 {
					next = order[(i+1)%len(order)].id
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_spaces WHERE section_id = ?`, id); err != nil {
			return fmt.Errorf("store: unable to delete section site spaces: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_sections WHERE id = ?`, id); err != nil {
			return fmt.Errorf("store: unable to delete section: %w", err)
		}
		if next != "" {
			if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET is_default = 1 WHERE id = ?`, next); err != nil {
				return fmt.Errorf("store: unable to promote a default section: %w", err)
			}
		}
		return nil
	})
}

// UpdateSiteSection applies an update. A path another section of the site has is a conflict;
// a default site space that is not the section's is invalid.
func (s *Store) UpdateSiteSection(ctx context.Context, siteID, id string, upd store.SiteSectionUpdate) (*store.SiteSection, error) {
	var sec *store.SiteSection
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findSiteSection(ctx, tx, siteID, id)
		if err != nil {
			return err
		}
		if upd.Path != nil && *upd.Path != cur.Path {
			taken, err := takenPaths(ctx, tx, sectionPathsQuery, siteID, id)
			if err != nil {
				return err
			}
			if taken[*upd.Path] {
				return store.ErrorAt(store.ECONFLICT, "path", "another section of this site already has the path %q", *upd.Path)
			}
		}
		if upd.SetGroup {
			if upd.GroupID != nil {
				if err := checkSiteRow(ctx, tx, "site_section_groups", siteID, *upd.GroupID, "siteSectionGroupId", "section group"); err != nil {
					return err
				}
			}
			if err := moveSectionToGroup(ctx, tx, siteID, id, cur.GroupID, upd.GroupID); err != nil {
				return err
			}
		}
		if upd.DefaultSiteSpace != nil {
			found := false
			for _, ss := range cur.SiteSpaces {
				found = found || ss.ID == *upd.DefaultSiteSpace
			}
			if !found {
				return store.FieldErrorf("defaultSiteSpace", "no site space %s in this section", *upd.DefaultSiteSpace)
			}
			if err := setDefaultSiteSpace(ctx, tx, siteID, &id, *upd.DefaultSiteSpace); err != nil {
				return err
			}
		}
		if err := updateRow(ctx, tx, "site_sections", id,
			columnChange{upd.Title != nil, "title", nullString(upd.Title)},
			columnChange{upd.Path != nil, "path", nullString(upd.Path)},
			columnChange{upd.SetCondition, "condition", nullString(upd.Condition)},
			columnChange{upd.SetIcon, "icon", nullString(upd.Icon)},
			columnChange{upd.SetDescription, "description", nullString(upd.Description)},
			columnChange{upd.LocalizedTitle != nil, "localized_title", localizedColumn(upd.LocalizedTitle)},
			columnChange{upd.LocalizedDescription != nil, "localized_description", localizedColumn(upd.LocalizedDescription)},
			columnChange{upd.Draft != nil, "draft", upd.Draft != nil && *upd.Draft},
		); err != nil {
			return err
		}
		sec, err = findSiteSection(ctx, tx, siteID, id)
		return err
	})
	return sec, err
}

// MoveSiteSection moves a section among the sections and groups of its parent, next to another
// section of that parent.
func (s *Store) MoveSiteSection(ctx context.Context, siteID, id string, m store.SiteMove) (*store.SiteSection, error) {
	var sec *store.SiteSection
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findSiteSection(ctx, tx, siteID, id)
		if err != nil {
			return err
		}
		siblings, err := structureItems(ctx, tx, sectionSiblings, siteID, nullString(cur.GroupID))
		if err != nil {
			return err
		}
		if err := moveAmong(ctx, tx, siblings, structureItem{table: "site_sections", id: id}, m, "section"); err != nil {
			return err
		}
		sec, err = findSiteSection(ctx, tx, siteID, id)
		return err
	})
	return sec, err
}

// moveSectionToGroup moves a section from group cur to the end of group to (nil: the site
// root); a section already there stays where it is.
func moveSectionToGroup(ctx context.Context, tx *Tx, siteID, sectionID string, cur, to *string) error {
	if store.EqualPtr(cur, to) {
		return nil
	}
	pos, err := nextSectionPosition(ctx, tx, siteID, to)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET group_id = ?, position = ? WHERE id = ?`, nullString(to), pos, sectionID); err != nil {
		return fmt.Errorf("store: unable to move section: %w", err)
	}
	return nil
}
