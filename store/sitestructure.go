package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// The structure of a site. Site spaces live in a container: a section, or the root of a site
// without sections; within it they are ordered by position, exactly one is the default and
// paths are unique. Sections and section groups share one order within their parent (a group,
// or the site root); exactly one section of a site is the default and section paths are unique
// in the site. A site has sections or root site spaces, never both.

// SiteSpaceFilter narrows a list of site spaces; nil does not filter.
type SiteSpaceFilter struct {
	Default *bool
}

// SiteSpaceUpdate holds the fields to change; nil leaves a field as it is. SetCondition says
// whether Condition is given (nil then removes it).
type SiteSpaceUpdate struct {
	Path         *string
	SetCondition bool
	Condition    *string
	SpaceID      *string
}

// SiteSectionCreate holds what a new section starts with: SpaceID becomes its first site space.
type SiteSectionCreate struct {
	SpaceID string
	Title   *string // nil: the space's title
	Icon    *string
}

// SiteSectionUpdate holds the fields to change; nil leaves a field as it is, and the Set flags
// say whether a nullable field is given (nil then removes it).
type SiteSectionUpdate struct {
	Title            *string
	Path             *string
	DefaultSiteSpace *string
	SetCondition     bool
	Condition        *string
	SetIcon          bool
	Icon             *string
	SetDescription   bool
	Description      *string
}

// SiteSectionGroupCreate holds what a new group starts with: Sections are moved into it, in
// order; it goes at the end of Parent (nil: the site root).
type SiteSectionGroupCreate struct {
	Title    string
	Icon     *string
	Sections []string
	Parent   *string
}

// SiteSectionGroupUpdate holds the fields to change; SetIcon says whether Icon is given.
type SiteSectionGroupUpdate struct {
	Title   *string
	SetIcon bool
	Icon    *string
}

// SiteMove places an item just before or just after a sibling, or at the end when neither.
type SiteMove struct {
	Before *string
	After  *string
}

// A site space is read with its space, whose columns come first.
const (
	siteSpaceColumns = spaceColumns + `, ss.id, ss.site_id, ss.section_id, ss.path, ss.condition, ss.is_default, ss.position`
	siteSpaceFrom    = ` FROM site_spaces ss JOIN spaces s ON s.id = ss.space_id`
	siteSpaceSelect  = `SELECT ` + siteSpaceColumns + siteSpaceFrom
)

func scanSiteSpace(sc interface{ Scan(...any) error }, ss *SiteSpace, extra ...any) error {
	var section, cond sql.NullString
	ss.Space = &Space{}
	dest := append([]any{&ss.ID, &ss.SiteID, &section, &ss.Path, &cond, &ss.Default, &ss.Position}, extra...)
	if err := scanSpace(scanWith{row: sc, extra: dest}, ss.Space); err != nil {
		return err
	}
	ss.SectionID, ss.Condition = stringPtr(section), stringPtr(cond)
	return nil
}

const (
	siteSectionColumns = `sec.id, sec.site_id, sec.group_id, sec.title, sec.description, sec.icon, sec.path,
	sec.condition, sec.is_default, sec.position`
	siteSectionSelect = `SELECT ` + siteSectionColumns + ` FROM site_sections sec`
)

func scanSiteSection(sc interface{ Scan(...any) error }, sec *SiteSection, extra ...any) error {
	var group, desc, icon, cond sql.NullString
	dest := append([]any{&sec.ID, &sec.SiteID, &group, &sec.Title, &desc, &icon, &sec.Path, &cond, &sec.Default, &sec.Position}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return err
	}
	sec.GroupID, sec.Description, sec.Icon, sec.Condition = stringPtr(group), stringPtr(desc), stringPtr(icon), stringPtr(cond)
	return nil
}

const (
	siteGroupColumns = `g.id, g.site_id, g.parent_id, g.title, g.icon, g.position`
	siteGroupSelect  = `SELECT ` + siteGroupColumns + ` FROM site_section_groups g`
)

func scanSiteGroup(sc interface{ Scan(...any) error }, g *SiteSectionGroup, extra ...any) error {
	var parent, icon sql.NullString
	if err := sc.Scan(append([]any{&g.ID, &g.SiteID, &parent, &g.Title, &icon, &g.Position}, extra...)...); err != nil {
		return err
	}
	g.ParentID, g.Icon = stringPtr(parent), stringPtr(icon)
	return nil
}

// structureKeys gives every group (gk), section (sk) and site space (ssk) of site ?1 a key that
// sorts them as the structure reads, depth first: a group just before its children, siblings by
// position. Lists
// page on these keys, so a list reads in the structure's order.
const structureKeys = `WITH RECURSIVE gk(id, k) AS (
		SELECT id, printf('%012d', position) || id FROM site_section_groups WHERE site_id = ?1 AND parent_id IS NULL
		UNION ALL
		SELECT c.id, gk.k || '/' || printf('%012d', c.position) || c.id
		FROM site_section_groups c JOIN gk ON c.parent_id = gk.id),
	sk(id, k) AS (
		SELECT x.id, coalesce(gk.k || '/', '') || printf('%012d', x.position) || x.id
		FROM site_sections x LEFT JOIN gk ON gk.id = x.group_id WHERE x.site_id = ?1),
	ssk(id, k) AS (
		SELECT y.id, coalesce(sk.k || '/', '') || printf('%012d', y.position) || y.id
		FROM site_spaces y LEFT JOIN sk ON sk.id = y.section_id WHERE y.site_id = ?1)`

// FindSiteStructure reads a site's whole structure in three queries: groups, sections, and
// site spaces with their spaces. An unknown site has an empty structure.
func (s *Store) FindSiteStructure(ctx context.Context, siteID string) (*SiteStructure, error) {
	return findSiteStructure(ctx, s.reader, siteID)
}

func findSiteStructure(ctx context.Context, q querier, siteID string) (*SiteStructure, error) {
	out := &SiteStructure{Groups: []*SiteSectionGroup{}, Sections: []*SiteSection{}, RootSiteSpaces: []*SiteSpace{}}
	rows, err := q.QueryContext(ctx, structureKeys+` `+siteGroupSelect+` JOIN gk ON gk.id = g.id ORDER BY gk.k`, siteID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read section groups: %w", err)
	}
	if out.Groups, err = collect(rows, "section groups", func(r *sql.Rows, g *SiteSectionGroup) error { return scanSiteGroup(r, g) }); err != nil {
		return nil, err
	}
	rows, err = q.QueryContext(ctx, structureKeys+` `+siteSectionSelect+` JOIN sk ON sk.id = sec.id ORDER BY sk.k`, siteID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read sections: %w", err)
	}
	if out.Sections, err = collect(rows, "sections", func(r *sql.Rows, sec *SiteSection) error { return scanSiteSection(r, sec) }); err != nil {
		return nil, err
	}
	bySection := make(map[string]*SiteSection, len(out.Sections))
	for _, sec := range out.Sections {
		sec.SiteSpaces = []*SiteSpace{}
		bySection[sec.ID] = sec
	}
	rows, err = q.QueryContext(ctx, siteSpaceSelect+` WHERE ss.site_id = ? ORDER BY ss.position, ss.id`, siteID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read site spaces: %w", err)
	}
	spaces, err := collect(rows, "site spaces", func(r *sql.Rows, ss *SiteSpace) error { return scanSiteSpace(r, ss) })
	if err != nil {
		return nil, err
	}
	for _, ss := range spaces {
		if ss.SectionID == nil {
			out.RootSiteSpaces = append(out.RootSiteSpaces, ss)
		} else if sec := bySection[*ss.SectionID]; sec != nil {
			sec.SiteSpaces = append(sec.SiteSpaces, ss)
		}
	}
	return out, nil
}

// collect scans every row into a new T.
func collect[T any](rows *sql.Rows, what string, scan func(*sql.Rows, *T) error) ([]*T, error) {
	defer rows.Close()
	out := []*T{}
	for rows.Next() {
		v := new(T)
		if err := scan(rows, v); err != nil {
			return nil, fmt.Errorf("store: unable to read %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: unable to read %s: %w", what, err)
	}
	return out, nil
}

// FindSiteSpaces lists a site's site spaces in the structure's order.
func (s *Store) FindSiteSpaces(ctx context.Context, siteID string, f SiteSpaceFilter, p Page) (List[*SiteSpace], error) {
	cur, err := decodeCursor(p.Cursor, 1)
	if err != nil {
		return List[*SiteSpace]{}, err
	}
	var def, after any
	if f.Default != nil {
		def = *f.Default
	}
	if cur != nil {
		after = cur[0]
	}
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM site_spaces WHERE site_id = ?1 AND (?2 IS NULL OR is_default = ?2)`,
		siteID, def).Scan(&count); err != nil {
		return List[*SiteSpace]{}, fmt.Errorf("store: unable to count site spaces: %w", err)
	}
	rows, err := s.reader.QueryContext(ctx, structureKeys+` SELECT `+siteSpaceColumns+`, ssk.k`+siteSpaceFrom+` JOIN ssk ON ssk.id = ss.id
		WHERE ss.site_id = ?1 AND (?2 IS NULL OR ss.is_default = ?2) AND (?3 IS NULL OR ssk.k > ?3)
		ORDER BY ssk.k LIMIT ?4`, siteID, def, after, p.limit()+1)
	if err != nil {
		return List[*SiteSpace]{}, fmt.Errorf("store: unable to list site spaces: %w", err)
	}
	keys := map[*SiteSpace]string{}
	items, err := collect(rows, "site spaces", func(r *sql.Rows, ss *SiteSpace) error {
		var k string
		err := scanSiteSpace(r, ss, &k)
		keys[ss] = k
		return err
	})
	if err != nil {
		return List[*SiteSpace]{}, err
	}
	return finishPage(items, p.limit(), count, func(ss *SiteSpace) []string { return []string{keys[ss]} }), nil
}

// FindSiteSpace returns a site space of a site.
func (s *Store) FindSiteSpace(ctx context.Context, siteID, id string) (*SiteSpace, error) {
	return findSiteSpace(pointRead(ctx), s.reader, siteID, id)
}

func findSiteSpace(ctx context.Context, q querier, siteID, id string) (*SiteSpace, error) {
	var ss SiteSpace
	err := scanSiteSpace(q.QueryRowContext(ctx, siteSpaceSelect+` WHERE ss.id = ? AND ss.site_id = ?`, id, siteID), &ss)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Site space")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find site space: %w", err)
	}
	return &ss, nil
}

// FindSiteSectionsOf returns, by id, the sections (without their site spaces) the given site
// spaces are in, in one query.
func (s *Store) FindSiteSectionsOf(ctx context.Context, siteID string, spaces []*SiteSpace) (map[string]*SiteSection, error) {
	var ids []string
	for _, ss := range spaces {
		if ss.SectionID != nil {
			ids = append(ids, *ss.SectionID)
		}
	}
	out := map[string]*SiteSection{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.reader.QueryContext(ctx, siteSectionSelect+` WHERE sec.site_id = ? AND sec.id IN (SELECT value FROM json_each(?))`,
		siteID, jsonStrings(ids))
	if err != nil {
		return nil, fmt.Errorf("store: unable to read sections: %w", err)
	}
	secs, err := collect(rows, "sections", func(r *sql.Rows, sec *SiteSection) error { return scanSiteSection(r, sec) })
	for _, sec := range secs {
		out[sec.ID] = sec
	}
	return out, err
}

// FindSiteSections lists a site's sections, with their site spaces, in the structure's order.
func (s *Store) FindSiteSections(ctx context.Context, siteID string, p Page) (List[*SiteSection], error) {
	cur, err := decodeCursor(p.Cursor, 1)
	if err != nil {
		return List[*SiteSection]{}, err
	}
	var after any
	if cur != nil {
		after = cur[0]
	}
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM site_sections WHERE site_id = ?`, siteID).Scan(&count); err != nil {
		return List[*SiteSection]{}, fmt.Errorf("store: unable to count sections: %w", err)
	}
	rows, err := s.reader.QueryContext(ctx, structureKeys+` SELECT `+siteSectionColumns+`, sk.k FROM site_sections sec JOIN sk ON sk.id = sec.id
		WHERE (?2 IS NULL OR sk.k > ?2) ORDER BY sk.k LIMIT ?3`, siteID, after, p.limit()+1)
	if err != nil {
		return List[*SiteSection]{}, fmt.Errorf("store: unable to list sections: %w", err)
	}
	keys := map[*SiteSection]string{}
	items, err := collect(rows, "sections", func(r *sql.Rows, sec *SiteSection) error {
		var k string
		err := scanSiteSection(r, sec, &k)
		keys[sec] = k
		return err
	})
	if err != nil {
		return List[*SiteSection]{}, err
	}
	list := finishPage(items, p.limit(), count, func(sec *SiteSection) []string { return []string{keys[sec]} })
	if err := loadSectionSpaces(ctx, s.reader, list.Items); err != nil {
		return List[*SiteSection]{}, err
	}
	return list, nil
}

// loadSectionSpaces fills the site spaces of sections, in one query.
func loadSectionSpaces(ctx context.Context, q querier, secs []*SiteSection) error {
	ids := make([]string, 0, len(secs))
	by := make(map[string]*SiteSection, len(secs))
	for _, sec := range secs {
		sec.SiteSpaces = []*SiteSpace{}
		ids = append(ids, sec.ID)
		by[sec.ID] = sec
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, siteSpaceSelect+` WHERE ss.section_id IN (SELECT value FROM json_each(?))
		ORDER BY ss.position, ss.id`, jsonStrings(ids))
	if err != nil {
		return fmt.Errorf("store: unable to read site spaces: %w", err)
	}
	spaces, err := collect(rows, "site spaces", func(r *sql.Rows, ss *SiteSpace) error { return scanSiteSpace(r, ss) })
	for _, ss := range spaces {
		sec := by[*ss.SectionID]
		sec.SiteSpaces = append(sec.SiteSpaces, ss)
	}
	return err
}

// FindSiteSection returns a section of a site with its site spaces.
func (s *Store) FindSiteSection(ctx context.Context, siteID, id string) (*SiteSection, error) {
	return findSiteSection(ctx, s.reader, siteID, id)
}

func findSiteSection(ctx context.Context, q querier, siteID, id string) (*SiteSection, error) {
	var sec SiteSection
	err := scanSiteSection(q.QueryRowContext(ctx, siteSectionSelect+` WHERE sec.id = ? AND sec.site_id = ?`, id, siteID), &sec)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Section")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find section: %w", err)
	}
	if err := loadSectionSpaces(ctx, q, []*SiteSection{&sec}); err != nil {
		return nil, err
	}
	return &sec, nil
}

// FindSiteSectionGroups lists a site's section groups in the structure's order.
func (s *Store) FindSiteSectionGroups(ctx context.Context, siteID string, p Page) (List[*SiteSectionGroup], error) {
	cur, err := decodeCursor(p.Cursor, 1)
	if err != nil {
		return List[*SiteSectionGroup]{}, err
	}
	var after any
	if cur != nil {
		after = cur[0]
	}
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM site_section_groups WHERE site_id = ?`, siteID).Scan(&count); err != nil {
		return List[*SiteSectionGroup]{}, fmt.Errorf("store: unable to count section groups: %w", err)
	}
	rows, err := s.reader.QueryContext(ctx, structureKeys+` SELECT `+siteGroupColumns+`, gk.k FROM site_section_groups g JOIN gk ON gk.id = g.id
		WHERE (?2 IS NULL OR gk.k > ?2) ORDER BY gk.k LIMIT ?3`, siteID, after, p.limit()+1)
	if err != nil {
		return List[*SiteSectionGroup]{}, fmt.Errorf("store: unable to list section groups: %w", err)
	}
	keys := map[*SiteSectionGroup]string{}
	items, err := collect(rows, "section groups", func(r *sql.Rows, g *SiteSectionGroup) error {
		var k string
		err := scanSiteGroup(r, g, &k)
		keys[g] = k
		return err
	})
	if err != nil {
		return List[*SiteSectionGroup]{}, err
	}
	return finishPage(items, p.limit(), count, func(g *SiteSectionGroup) []string { return []string{keys[g]} }), nil
}

// FindSiteSectionGroup returns a section group of a site.
func (s *Store) FindSiteSectionGroup(ctx context.Context, siteID, id string) (*SiteSectionGroup, error) {
	return findSiteGroup(pointRead(ctx), s.reader, siteID, id)
}

func findSiteGroup(ctx context.Context, q querier, siteID, id string) (*SiteSectionGroup, error) {
	var g SiteSectionGroup
	err := scanSiteGroup(q.QueryRowContext(ctx, siteGroupSelect+` WHERE g.id = ? AND g.site_id = ?`, id, siteID), &g)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Section group")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find section group: %w", err)
	}
	return &g, nil
}

// The writes.

// siteOrganization returns the organization of a site.
func siteOrganization(ctx context.Context, tx *Tx, siteID string) (string, error) {
	var orgID string
	err := tx.QueryRowContext(ctx, `SELECT organization_id FROM sites WHERE id = ?`, siteID).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound("Site")
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to find site: %w", err)
	}
	return orgID, nil
}

// liveSpaceTitle returns the title of a space that is live in an organization; field names the
// request field that gave its id.
func liveSpaceTitle(ctx context.Context, tx *Tx, orgID, spaceID, field string) (string, error) {
	var title string
	err := tx.QueryRowContext(ctx, `SELECT title FROM spaces WHERE id = ? AND organization_id = ? AND deleted_at IS NULL`,
		spaceID, orgID).Scan(&title)
	if errors.Is(err, sql.ErrNoRows) {
		return "", Errorf(EINVALID, `Invalid body field %q: no space %s in this organization.`, field, spaceID)
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to find space: %w", err)
	}
	return title, nil
}

// takenPaths returns the paths a query lists.
func takenPaths(ctx context.Context, tx *Tx, query string, args ...any) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read paths: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("store: unable to read paths: %w", err)
		}
		out[p] = true
	}
	return out, rows.Err()
}

const (
	siteSpacePathsQuery = `SELECT path FROM site_spaces WHERE site_id = ?1 AND section_id IS ?2 AND id IS NOT ?3`
	sectionPathsQuery   = `SELECT path FROM site_sections WHERE site_id = ?1 AND id IS NOT ?2`
)

// insertSiteSpace adds a space of the organization at the end of a container (a section, or
// nil: the site root), with a path derived from its title; the first one is the default.
func insertSiteSpace(ctx context.Context, tx *Tx, orgID, siteID, spaceID string, sectionID *string, field string) (string, error) {
	title, err := liveSpaceTitle(ctx, tx, orgID, spaceID, field)
	if err != nil {
		return "", err
	}
	taken, err := takenPaths(ctx, tx, siteSpacePathsQuery, siteID, nullString(sectionID), nil)
	if err != nil {
		return "", err
	}
	var pos float64
	var first bool
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(position) + 1, 0), NOT EXISTS (SELECT 1 FROM site_spaces
		WHERE site_id = ?1 AND section_id IS ?2 AND is_default) FROM site_spaces WHERE site_id = ?1 AND section_id IS ?2`,
		siteID, nullString(sectionID)).Scan(&pos, &first); err != nil {
		return "", fmt.Errorf("store: unable to place site space: %w", err)
	}
	id := NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO site_spaces (id, site_id, section_id, space_id, path, is_default, position)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, id, siteID, nullString(sectionID), spaceID, uniquePath(Slugify(title), taken), first, pos); err != nil {
		return "", fmt.Errorf("store: unable to add site space: %w", err)
	}
	return id, nil
}

// AddSiteSpace adds a live space of the site's organization to a section (nil: the default
// section, or the root of a site without sections).
func (s *Store) AddSiteSpace(ctx context.Context, siteID, spaceID string, sectionID *string) (*SiteSpace, error) {
	var ss *SiteSpace
	err := s.write(ctx, func(tx *Tx) error {
		orgID, err := siteOrganization(ctx, tx, siteID)
		if err != nil {
			return err
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
		id, err := insertSiteSpace(ctx, tx, orgID, siteID, spaceID, sectionID, "spaceId")
		if err != nil {
			return err
		}
		ss, err = findSiteSpace(ctx, tx, siteID, id)
		return err
	})
	return ss, err
}

// goneDefault is where a default site space was: its container and position.
type goneDefault struct {
	SiteID    string  `json:"site"`
	SectionID *string `json:"section"`
	Position  float64 `json:"position"`
}

// promoteSiteSpaces makes, in each container whose default went, the site space that came
// next the default (the first one when the default was last), in one statement.
func promoteSiteSpaces(ctx context.Context, tx *Tx, gone []goneDefault) error {
	if len(gone) == 0 {
		return nil
	}
	b, _ := json.Marshal(gone)
	if _, err := tx.ExecContext(ctx, `UPDATE site_spaces SET is_default = 1 WHERE id IN (
		SELECT (SELECT x.id FROM site_spaces x
			WHERE x.site_id = json_extract(g.value, '$.site') AND x.section_id IS json_extract(g.value, '$.section')
			ORDER BY x.position <= json_extract(g.value, '$.position'), x.position, x.id LIMIT 1)
		FROM json_each(?) g)`, string(b)); err != nil {
		return fmt.Errorf("store: unable to promote a default site space: %w", err)
	}
	return nil
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

// deleteSiteSpacesOfSpace removes every site space of a space, in every site, promoting the
// next site space where a default goes. Sections left without site spaces stay.
func deleteSiteSpacesOfSpace(ctx context.Context, tx *Tx, spaceID string) error {
	rows, err := tx.QueryContext(ctx, `SELECT site_id, section_id, position FROM site_spaces WHERE space_id = ? AND is_default`, spaceID)
	if err != nil {
		return fmt.Errorf("store: unable to find the site spaces of a space: %w", err)
	}
	gone, err := collect(rows, "site spaces", func(r *sql.Rows, g *goneDefault) error {
		var section sql.NullString
		err := r.Scan(&g.SiteID, &section, &g.Position)
		g.SectionID = stringPtr(section)
		return err
	})
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM site_spaces WHERE space_id = ?`, spaceID); err != nil {
		return fmt.Errorf("store: unable to delete the site spaces of a space: %w", err)
	}
	list := make([]goneDefault, len(gone))
	for i, g := range gone {
		list[i] = *g
	}
	return promoteSiteSpaces(ctx, tx, list)
}

// UpdateSiteSpace applies an update. A path another site space of the container has is a
// conflict; a space that is not live in the site's organization is invalid.
func (s *Store) UpdateSiteSpace(ctx context.Context, siteID, id string, upd SiteSpaceUpdate) (*SiteSpace, error) {
	var ss *SiteSpace
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
				return Errorf(ECONFLICT, `Invalid body field "path": another site space of %s already has the path %q.`, where, *upd.Path)
			}
		}
		if upd.SpaceID != nil {
			orgID, err := siteOrganization(ctx, tx, siteID)
			if err != nil {
				return err
			}
			if _, err := liveSpaceTitle(ctx, tx, orgID, *upd.SpaceID, "spaceId"); err != nil {
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
		if err := errors.Join(errs...); err != nil {
			return err
		}
		ss, err = findSiteSpace(ctx, tx, siteID, id)
		return err
	})
	return ss, err
}

// structureItem is one of an ordered list of siblings: a site space, a section or a group.
type structureItem struct {
	table    string // site_spaces, site_sections or site_section_groups
	id       string
	position float64
}

func structureItems(ctx context.Context, tx *Tx, query string, args ...any) ([]structureItem, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: unable to read siblings: %w", err)
	}
	items, err := collect(rows, "siblings", func(r *sql.Rows, it *structureItem) error {
		return r.Scan(&it.table, &it.id, &it.position)
	})
	out := make([]structureItem, len(items))
	for i, it := range items {
		out[i] = *it
	}
	return out, err
}

const (
	siteSpaceSiblings = `SELECT 'site_spaces', id, position FROM site_spaces WHERE site_id = ?1 AND section_id IS ?2 ORDER BY 3, 2`
	// Sections and groups share one order within their parent.
	sectionSiblings = `SELECT 'site_sections', id, position FROM site_sections WHERE site_id = ?1 AND group_id IS ?2
		UNION ALL
		SELECT 'site_section_groups', id, position FROM site_section_groups WHERE site_id = ?1 AND parent_id IS ?2
		ORDER BY 3, 2`
)

// renumber writes the positions of an order, leaving the rows already in place alone.
func renumber(ctx context.Context, tx *Tx, order []structureItem) error {
	for i, it := range order {
		if it.position == float64(i) {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE `+it.table+` SET position = ? WHERE id = ?`, float64(i), it.id); err != nil {
			return fmt.Errorf("store: unable to reorder: %w", err)
		}
	}
	return nil
}

// moveAmong moves item just before or after a sibling of the kind table holds (what names it),
// or to the end; it refuses a sibling that is not one, the item itself, and a move that changes
// nothing.
func moveAmong(ctx context.Context, tx *Tx, siblings []structureItem, item structureItem, m SiteMove, what string) error {
	if m.Before != nil && m.After != nil {
		return Errorf(EINVALID, `Invalid body field "position": give before or after, not both.`)
	}
	oldIndex := -1
	rest := make([]structureItem, 0, len(siblings))
	for i, it := range siblings {
		if it.id == item.id {
			oldIndex = i
			item = it
			continue
		}
		rest = append(rest, it)
	}
	at := len(rest)
	if ref, field := m.Before, "position.before"; ref != nil || m.After != nil {
		if ref == nil {
			ref, field = m.After, "position.after"
		}
		if *ref == item.id {
			return Errorf(EINVALID, `Invalid body field %q: a %s cannot be placed next to itself.`, field, what)
		}
		at = -1
		for i, it := range rest {
			if it.id == *ref && it.table == item.table {
				at = i
			}
		}
		if at < 0 {
			return Errorf(EINVALID, `Invalid body field %q: %s %s is not a sibling of this %s (it has another parent, or is not in this site).`,
				field, what, *ref, what)
		}
		if m.After != nil {
			at++
		}
	}
	if oldIndex == at {
		return Errorf(EINVALID, "The move would change nothing: the %s is already there.", what)
	}
	order := make([]structureItem, 0, len(siblings))
	order = append(order, rest[:at]...)
	order = append(order, item)
	order = append(order, rest[at:]...)
	return renumber(ctx, tx, order)
}

// MoveSiteSpace moves a site space among the site spaces of its container.
func (s *Store) MoveSiteSpace(ctx context.Context, siteID, id string, m SiteMove) (*SiteSpace, error) {
	var ss *SiteSpace
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

// nextSectionPosition is the position after the last section or group of a parent.
func nextSectionPosition(ctx context.Context, tx *Tx, siteID string, parent *string) (float64, error) {
	var pos float64
	err := tx.QueryRowContext(ctx, `SELECT coalesce(max(p) + 1, 0) FROM (
		SELECT max(position) AS p FROM site_sections WHERE site_id = ?1 AND group_id IS ?2
		UNION ALL
		SELECT max(position) FROM site_section_groups WHERE site_id = ?1 AND parent_id IS ?2)`, siteID, nullString(parent)).Scan(&pos)
	if err != nil {
		return 0, fmt.Errorf("store: unable to place section: %w", err)
	}
	return pos, nil
}

// insertSection adds a section at the end of the site root, with a path derived from its title;
// the first section of a site is the default.
func insertSection(ctx context.Context, tx *Tx, siteID, title string, icon *string) (string, error) {
	taken, err := takenPaths(ctx, tx, sectionPathsQuery, siteID, nil)
	if err != nil {
		return "", err
	}
	pos, err := nextSectionPosition(ctx, tx, siteID, nil)
	if err != nil {
		return "", err
	}
	id := NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO site_sections (id, site_id, title, icon, path, is_default, position)
		VALUES (?1, ?2, ?3, ?4, ?5, NOT EXISTS (SELECT 1 FROM site_sections WHERE site_id = ?2 AND is_default), ?6)`,
		id, siteID, title, nullString(icon), uniquePath(Slugify(title), taken), pos); err != nil {
		return "", fmt.Errorf("store: unable to add section: %w", err)
	}
	return id, nil
}

// AddSiteSection adds a section at the end of the site root with a space as its first site
// space. The first section of a site whose spaces are at its root first gathers them into a
// default section titled after the site, so a site has sections or root site spaces, not both.
func (s *Store) AddSiteSection(ctx context.Context, siteID string, c SiteSectionCreate) (*SiteSection, error) {
	var sec *SiteSection
	err := s.write(ctx, func(tx *Tx) error {
		var orgID, siteTitle string
		var sections, rootSpaces int
		err := tx.QueryRowContext(ctx, `SELECT organization_id, title,
			(SELECT count(*) FROM site_sections WHERE site_id = ?1),
			(SELECT count(*) FROM site_spaces WHERE site_id = ?1 AND section_id IS NULL)
			FROM sites WHERE id = ?1`, siteID).Scan(&orgID, &siteTitle, &sections, &rootSpaces)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("Site")
		}
		if err != nil {
			return fmt.Errorf("store: unable to find site: %w", err)
		}
		title, err := liveSpaceTitle(ctx, tx, orgID, c.SpaceID, "spaceId")
		if err != nil {
			return err
		}
		if c.Title != nil {
			title = *c.Title
		}
		if sections == 0 && rootSpaces > 0 {
			wrap, err := insertSection(ctx, tx, siteID, siteTitle, nil)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE site_spaces SET section_id = ? WHERE site_id = ? AND section_id IS NULL`,
				wrap, siteID); err != nil {
				return fmt.Errorf("store: unable to gather root site spaces: %w", err)
			}
		}
		id, err := insertSection(ctx, tx, siteID, title, c.Icon)
		if err != nil {
			return err
		}
		if _, err := insertSiteSpace(ctx, tx, orgID, siteID, c.SpaceID, &id, "spaceId"); err != nil {
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
			rows, err := tx.QueryContext(ctx, structureKeys+` SELECT 'site_sections', id, 0 FROM sk ORDER BY k`, siteID)
			if err != nil {
				return fmt.Errorf("store: unable to read sections: %w", err)
			}
			order, err := collect(rows, "sections", func(r *sql.Rows, it *structureItem) error { return r.Scan(&it.table, &it.id, &it.position) })
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
func (s *Store) UpdateSiteSection(ctx context.Context, siteID, id string, upd SiteSectionUpdate) (*SiteSection, error) {
	var sec *SiteSection
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
				return Errorf(ECONFLICT, `Invalid body field "path": another section of this site already has the path %q.`, *upd.Path)
			}
		}
		if upd.DefaultSiteSpace != nil {
			found := false
			for _, ss := range cur.SiteSpaces {
				found = found || ss.ID == *upd.DefaultSiteSpace
			}
			if !found {
				return Errorf(EINVALID, `Invalid body field "defaultSiteSpace": no site space %s in this section.`, *upd.DefaultSiteSpace)
			}
			if err := setDefaultSiteSpace(ctx, tx, siteID, &id, *upd.DefaultSiteSpace); err != nil {
				return err
			}
		}
		set := func(column string, value any) error {
			if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET `+column+` = ? WHERE id = ?`, value, id); err != nil {
				return fmt.Errorf("store: unable to update section %s: %w", column, err)
			}
			return nil
		}
		type change struct {
			given  bool
			column string
			value  any
		}
		for _, c := range []change{
			{upd.Title != nil, "title", nullString(upd.Title)},
			{upd.Path != nil, "path", nullString(upd.Path)},
			{upd.SetCondition, "condition", nullString(upd.Condition)},
			{upd.SetIcon, "icon", nullString(upd.Icon)},
			{upd.SetDescription, "description", nullString(upd.Description)},
		} {
			if c.given {
				if err := set(c.column, c.value); err != nil {
					return err
				}
			}
		}
		sec, err = findSiteSection(ctx, tx, siteID, id)
		return err
	})
	return sec, err
}

// MoveSiteSection moves a section among the sections and groups of its parent, next to another
// section of that parent.
func (s *Store) MoveSiteSection(ctx context.Context, siteID, id string, m SiteMove) (*SiteSection, error) {
	var sec *SiteSection
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

// setDefaultSiteSpace makes a site space the only default of its container.
func setDefaultSiteSpace(ctx context.Context, tx *Tx, siteID string, sectionID *string, id string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE site_spaces SET is_default = (id = ?3) WHERE site_id = ?1 AND section_id IS ?2`,
		siteID, nullString(sectionID), id); err != nil {
		return fmt.Errorf("store: unable to set the default site space: %w", err)
	}
	return nil
}

func setDefaultSection(ctx context.Context, tx *Tx, siteID, id string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET is_default = (id = ?2) WHERE site_id = ?1`, siteID, id); err != nil {
		return fmt.Errorf("store: unable to set the default section: %w", err)
	}
	return nil
}

// SetDefaultSiteSpace makes a site space the site's default: the default of its container and,
// when it is in a section, that section the default section.
func (s *Store) SetDefaultSiteSpace(ctx context.Context, siteID, siteSpaceID string) error {
	return s.write(ctx, func(tx *Tx) error {
		var section sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT section_id FROM site_spaces WHERE id = ? AND site_id = ?`, siteSpaceID, siteID).Scan(&section)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("Site space")
		}
		if err != nil {
			return fmt.Errorf("store: unable to find site space: %w", err)
		}
		if err := setDefaultSiteSpace(ctx, tx, siteID, stringPtr(section), siteSpaceID); err != nil {
			return err
		}
		if section.Valid {
			return setDefaultSection(ctx, tx, siteID, section.String)
		}
		return nil
	})
}

// SetDefaultSiteSection makes a section the site's default section.
func (s *Store) SetDefaultSiteSection(ctx context.Context, siteID, sectionID string) error {
	return s.write(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM site_sections WHERE id = ? AND site_id = ?`, sectionID, siteID).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to find section: %w", err)
		}
		if n == 0 {
			return notFound("Section")
		}
		return setDefaultSection(ctx, tx, siteID, sectionID)
	})
}

// AddSiteSectionGroup adds a group at the end of its parent and moves the given sections into
// it, in order.
func (s *Store) AddSiteSectionGroup(ctx context.Context, siteID string, c SiteSectionGroupCreate) (*SiteSectionGroup, error) {
	var g *SiteSectionGroup
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
		id := NewID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO site_section_groups (id, site_id, parent_id, title, icon, position)
			VALUES (?, ?, ?, ?, ?, ?)`, id, siteID, nullString(c.Parent), c.Title, nullString(c.Icon), pos); err != nil {
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
		if ErrorCode(err) == ENOTFOUND {
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

// UpdateSiteSectionGroup applies an update.
func (s *Store) UpdateSiteSectionGroup(ctx context.Context, siteID, id string, upd SiteSectionGroupUpdate) (*SiteSectionGroup, error) {
	var g *SiteSectionGroup
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findSiteGroup(ctx, tx, siteID, id); err != nil {
			return err
		}
		if upd.Title != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE site_section_groups SET title = ? WHERE id = ?`, *upd.Title, id); err != nil {
				return fmt.Errorf("store: unable to update section group: %w", err)
			}
		}
		if upd.SetIcon {
			if _, err := tx.ExecContext(ctx, `UPDATE site_section_groups SET icon = ? WHERE id = ?`, nullString(upd.Icon), id); err != nil {
				return fmt.Errorf("store: unable to update section group: %w", err)
			}
		}
		var err error
		g, err = findSiteGroup(ctx, tx, siteID, id)
		return err
	})
	return g, err
}

// AddSectionToGroup moves a section of the site to the end of a group (where it stays when it
// is already in it).
func (s *Store) AddSectionToGroup(ctx context.Context, siteID, groupID, sectionID string) (*SiteSectionGroup, error) {
	var g *SiteSectionGroup
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		if g, err = findSiteGroup(ctx, tx, siteID, groupID); err != nil {
			return err
		}
		var group sql.NullString
		err = tx.QueryRowContext(ctx, `SELECT group_id FROM site_sections WHERE id = ? AND site_id = ?`, sectionID, siteID).Scan(&group)
		if errors.Is(err, sql.ErrNoRows) {
			return Errorf(EINVALID, `Invalid body field "sectionId": no section %s in this site.`, sectionID)
		}
		if err != nil {
			return fmt.Errorf("store: unable to find section: %w", err)
		}
		if group.String == groupID {
			return nil
		}
		pos, err := nextSectionPosition(ctx, tx, siteID, &groupID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET group_id = ?, position = ? WHERE id = ?`, groupID, pos, sectionID); err != nil {
			return fmt.Errorf("store: unable to group section: %w", err)
		}
		return nil
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
		pos, err := nextSectionPosition(ctx, tx, siteID, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET group_id = NULL, position = ? WHERE id = ?`, pos, sectionID); err != nil {
			return fmt.Errorf("store: unable to ungroup section: %w", err)
		}
		return nil
	})
}
