package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// A site space is read with its space, whose columns come first.
const (
	siteSpaceColumns = spaceColumns + `, ss.id, ss.site_id, ss.section_id, ss.path, ss.condition, ss.is_default, ss.position,
	ss.title, ss.page_id, ss.draft, ss.hidden`
	siteSpaceFrom   = ` FROM site_spaces ss JOIN spaces s ON s.id = ss.space_id`
	siteSpaceSelect = `SELECT ` + siteSpaceColumns + siteSpaceFrom
)

func scanSiteSpace(sc scanner, ss *store.SiteSpace) error {
	var section, cond, title, page sql.NullString
	ss.Space = &store.Space{}
	dest := []any{&ss.ID, &ss.SiteID, &section, &ss.Path, &cond, &ss.Default, &ss.Position, &title, &page, &ss.Draft, &ss.Hidden}
	if err := scanSpace(scanWith{row: sc, extra: dest}, ss.Space); err != nil {
		return err
	}
	ss.SectionID, ss.Condition = stringPtr(section), stringPtr(cond)
	ss.Title, ss.PageID = stringPtr(title), stringPtr(page)
	return nil
}

const (
	siteSectionColumns = `sec.id, sec.site_id, sec.group_id, sec.title, sec.description, sec.icon, sec.path,
	sec.condition, sec.is_default, sec.position, sec.draft, sec.localized_title, sec.localized_description`
	siteSectionSelect = `SELECT ` + siteSectionColumns + ` FROM site_sections sec`
)

func scanSiteSection(sc scanner, sec *store.SiteSection) error {
	var group, desc, icon, cond, locTitle, locDesc sql.NullString
	if err := sc.Scan(&sec.ID, &sec.SiteID, &group, &sec.Title, &desc, &icon, &sec.Path, &cond, &sec.Default, &sec.Position,
		&sec.Draft, &locTitle, &locDesc); err != nil {
		return err
	}
	sec.LocalizedTitle, sec.LocalizedDescription = scanLocalized(locTitle), scanLocalized(locDesc)
	sec.GroupID, sec.Description, sec.Icon, sec.Condition = stringPtr(group), stringPtr(desc), stringPtr(icon), stringPtr(cond)
	return nil
}

const (
	siteGroupColumns = `g.id, g.site_id, g.parent_id, g.title, g.icon, g.position, g.draft, g.localized_title`
	siteGroupSelect  = `SELECT ` + siteGroupColumns + ` FROM site_section_groups g`
)

func scanSiteGroup(sc scanner, g *store.SiteSectionGroup) error {
	var parent, icon, locTitle sql.NullString
	if err := sc.Scan(&g.ID, &g.SiteID, &parent, &g.Title, &icon, &g.Position, &g.Draft, &locTitle); err != nil {
		return err
	}
	g.LocalizedTitle = scanLocalized(locTitle)
	g.ParentID, g.Icon = stringPtr(parent), stringPtr(icon)
	return nil
}

const (
	siteLinkColumns = `l.id, l.site_id, l.group_id, l.title, l.localized_title, l.description, l.localized_description,
	l.icon, l.url, l.condition, l.draft, l.position`
	siteLinkSelect = `SELECT ` + siteLinkColumns + ` FROM site_external_links l`
)

func scanSiteLink(sc scanner, l *store.SiteExternalLink) error {
	var group, locTitle, desc, locDesc, icon, cond sql.NullString
	if err := sc.Scan(&l.ID, &l.SiteID, &group, &l.Title, &locTitle, &desc, &locDesc, &icon, &l.URL, &cond, &l.Draft, &l.Position); err != nil {
		return err
	}
	l.GroupID, l.Description, l.Icon, l.Condition = stringPtr(group), stringPtr(desc), stringPtr(icon), stringPtr(cond)
	l.LocalizedTitle, l.LocalizedDescription = scanLocalized(locTitle), scanLocalized(locDesc)
	return nil
}

// scanLocalized reads a localized text's column: a JSON object by language, or NULL for none.
// A column that does not decode reads as none (the store writes only what it encoded).
func scanLocalized(col sql.NullString) store.Localized {
	if !col.Valid {
		return nil
	}
	var l store.Localized
	if json.Unmarshal([]byte(col.String), &l) != nil || len(l) == 0 {
		return nil
	}
	return l
}

// localizedColumn is the column value of a localized text: NULL for none.
func localizedColumn(l store.Localized) any {
	if len(l) == 0 {
		return nil
	}
	b, _ := json.Marshal(l) // a map of strings always encodes
	return string(b)
}

// checkSitePage checks that a page is in a space's current revision; field names the request
// field that gave it.
func checkSitePage(ctx context.Context, tx *Tx, spaceID, pageID, field string) error {
	var rev string
	if err := tx.QueryRowContext(ctx, `SELECT revision_id FROM spaces WHERE id = ?`, spaceID).Scan(&rev); err != nil {
		return fmt.Errorf("store: unable to find space: %w", err)
	}
	v, err := newView(ctx, tx, rev)
	if err != nil {
		return err
	}
	p, err := v.page(pageID, false)
	if err != nil {
		return fmt.Errorf("store: unable to find page: %w", err)
	}
	if p == nil {
		return store.FieldErrorf(field, "no page %s in the space %s", pageID, spaceID)
	}
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
func (s *Store) FindSiteStructure(ctx context.Context, siteID string) (*store.SiteStructure, error) {
	return findSiteStructure(ctx, s.reader, siteID)
}

func findSiteStructure(ctx context.Context, q querier, siteID string) (*store.SiteStructure, error) {
	out := &store.SiteStructure{Groups: []*store.SiteSectionGroup{}, Sections: []*store.SiteSection{}, RootSiteSpaces: []*store.SiteSpace{},
		ExternalLinks: []*store.SiteExternalLink{}}
	var err error
	if out.Groups, err = queryAll(ctx, q, "section groups", structureKeys+` `+siteGroupSelect+` JOIN gk ON gk.id = g.id ORDER BY gk.k`,
		[]any{siteID}, fill(scanSiteGroup)); err != nil {
		return nil, err
	}
	if out.Sections, err = queryAll(ctx, q, "sections", structureKeys+` `+siteSectionSelect+` JOIN sk ON sk.id = sec.id ORDER BY sk.k`,
		[]any{siteID}, fill(scanSiteSection)); err != nil {
		return nil, err
	}
	bySection := make(map[string]*store.SiteSection, len(out.Sections))
	for _, sec := range out.Sections {
		sec.SiteSpaces = []*store.SiteSpace{}
		bySection[sec.ID] = sec
	}
	spaces, err := queryAll(ctx, q, "site spaces", siteSpaceSelect+` WHERE ss.site_id = ? ORDER BY ss.position, ss.id`,
		[]any{siteID}, fill(scanSiteSpace))
	if err != nil {
		return nil, err
	}
	if out.ExternalLinks, err = queryAll(ctx, q, "external links", siteLinkSelect+` WHERE l.site_id = ? ORDER BY l.position, l.id`,
		[]any{siteID}, fill(scanSiteLink)); err != nil {
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

// siteOrganization returns the organization of a site.
func siteOrganization(ctx context.Context, tx *Tx, siteID string) (string, error) {
	var orgID string
	err := tx.QueryRowContext(ctx, `SELECT organization_id FROM sites WHERE id = ?`, siteID).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.NotFound("Site")
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
		return "", store.FieldErrorf(field, "no space %s in this organization", spaceID)
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to find space: %w", err)
	}
	return title, nil
}

// takenPaths returns the paths a query lists.
func takenPaths(ctx context.Context, tx *Tx, query string, args ...any) (map[string]bool, error) {
	paths, err := queryAll(ctx, tx, "paths", query, args, scanString)
	out := make(map[string]bool, len(paths))
	for _, p := range paths {
		out[p] = true
	}
	return out, err
}

// structureItem is one of an ordered list of siblings: a site space, a section or a group.
type structureItem struct {
	table    string // site_spaces, site_sections or site_section_groups
	id       string
	position float64
}

func structureItems(ctx context.Context, tx *Tx, query string, args ...any) ([]structureItem, error) {
	return queryAll(ctx, tx, "siblings", query, args, scanStructureItem)
}

func scanStructureItem(sc scanner) (structureItem, error) {
	var it structureItem
	err := sc.Scan(&it.table, &it.id, &it.position)
	return it, err
}

const (
	siteSpaceSiblings = `SELECT 'site_spaces', id, position FROM site_spaces WHERE site_id = ?1 AND section_id IS ?2 ORDER BY 3, 2`
	// Sections, groups and external links share one order within their parent.
	sectionSiblings = `SELECT 'site_sections', id, position FROM site_sections WHERE site_id = ?1 AND group_id IS ?2
		UNION ALL
		SELECT 'site_section_groups', id, position FROM site_section_groups WHERE site_id = ?1 AND parent_id IS ?2
		UNION ALL
		SELECT 'site_external_links', id, position FROM site_external_links WHERE site_id = ?1 AND group_id IS ?2
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
func moveAmong(ctx context.Context, tx *Tx, siblings []structureItem, item structureItem, m store.SiteMove, what string) error {
	key := func(it structureItem) string { return it.table + ":" + it.id }
	ref := func(id *string) *string {
		if id == nil {
			return nil
		}
		k := item.table + ":" + *id
		return &k
	}
	order, unchanged, err := store.Reorder(siblings, item, key, ref(m.Before), ref(m.After))
	if err != nil {
		return err
	}
	if unchanged {
		return store.Errorf(store.EINVALID, "The move would change nothing: the %s is already there.", what)
	}
	return renumber(ctx, tx, order)
}

// setDefaultSiteSpace makes a site space the only default of its container.
func setDefaultSiteSpace(ctx context.Context, tx *Tx, siteID string, sectionID *string, id string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE site_spaces SET is_default = CASE WHEN id = ?3 THEN 1 ELSE 0 END WHERE site_id = ?1 AND section_id IS ?2`,
		siteID, nullString(sectionID), id); err != nil {
		return fmt.Errorf("store: unable to set the default site space: %w", err)
	}
	return nil
}

func setDefaultSection(ctx context.Context, tx *Tx, siteID, id string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE site_sections SET is_default = CASE WHEN id = ?2 THEN 1 ELSE 0 END WHERE site_id = ?1`, siteID, id); err != nil {
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
			return store.NotFound("Site space")
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
			return store.NotFound("Section")
		}
		return setDefaultSection(ctx, tx, siteID, sectionID)
	})
}

// checkSiteRow checks that a site space or section (table) of that id is the site's.
func checkSiteRow(ctx context.Context, tx *Tx, table, siteID, id, field, what string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE id = ? AND site_id = ?`, id, siteID).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to find %s: %w", what, err)
	}
	if n == 0 {
		return store.FieldErrorf(field, "no %s %s in this site", what, id)
	}
	return nil
}

// deleteSiteSpacesOfSpace removes every site space of a space, in every site, promoting the
// next site space where a default goes. Sections left without site spaces stay.
func deleteSiteSpacesOfSpace(ctx context.Context, tx *Tx, spaceID string) error {
	gone, err := queryAll(ctx, tx, "the site spaces of a space", `SELECT site_id, section_id, position FROM site_spaces
		WHERE space_id = ? AND is_default = 1`, []any{spaceID}, func(sc scanner) (goneDefault, error) {
		var g goneDefault
		var section sql.NullString
		err := sc.Scan(&g.SiteID, &section, &g.Position)
		g.SectionID = stringPtr(section)
		return g, err
	})
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM site_spaces WHERE space_id = ?`, spaceID); err != nil {
		return fmt.Errorf("store: unable to delete the site spaces of a space: %w", err)
	}
	return promoteSiteSpaces(ctx, tx, gone)
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
	query := sqlitePromoteSiteSpaces
	if tx.d.postgres {
		query = pgPromoteSiteSpaces
	}
	if _, err := tx.ExecContext(ctx, query, string(b)); err != nil {
		return fmt.Errorf("store: unable to promote a default site space: %w", err)
	}
	return nil
}
