package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/quire-docs/quire/store"
)

// siteColumns reads a site with its count of site spaces, so a page of sites is one query.
// (Deleting a space deletes its site spaces, so every one counted publishes a live space.)
const siteColumns = `s.id, s.organization_id, s.type, s.title, s.visibility, s.published, s.hostname,
	s.basename, s.proxy, s.adaptive_enabled, s.agents_context, s.adaptive_schema,
	s.adaptive_schema_updated_at, s.share_key, s.created_at, s.updated_at, s.default_level,
	(SELECT count(*) FROM site_spaces ss WHERE ss.site_id = s.id)`

func scanSite(sc interface{ Scan(...any) error }, site *store.Site) error {
	var hostname, basename, proxy, schema, schemaUpdated, level sql.NullString
	var created, updated string
	if err := sc.Scan(&site.ID, &site.OrganizationID, &site.Type, &site.Title, &site.Visibility, &site.Published,
		&hostname, &basename, &proxy, &site.AdaptiveEnabled, &site.AgentsContext, &schema,
		&schemaUpdated, &site.ShareKey, &created, &updated, &level, &site.SiteSpaces); err != nil {
		return err
	}
	site.DefaultLevel = store.Role(level.String)
	site.Hostname, site.Basename, site.Proxy = stringPtr(hostname), stringPtr(basename), stringPtr(proxy)
	if schema.Valid {
		site.AdaptiveSchema = []byte(schema.String)
	}
	site.AdaptiveSchemaUpdatedAt = parseNullTime(schemaUpdated)
	site.CreatedAt, site.UpdatedAt = parseTime(created), parseTime(updated)
	return nil
}

// CreateSite creates a site; each of c.Spaces, which must be live spaces of the organization,
// becomes a site space at the root, in order, the first one the default.
func (s *Store) CreateSite(ctx context.Context, orgID string, c store.SiteCreate) (*store.Site, error) {
	id := store.NewID()
	var site *store.Site
	err := s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO sites (id, organization_id, type, title, visibility, share_key, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, orgID, c.Type, c.Title, c.Visibility, store.NewID(), now, now); err != nil {
			return fmt.Errorf("store: unable to create site: %w", err)
		}
		if err := addRootSiteSpaces(ctx, tx, orgID, id, c.Spaces); err != nil {
			return err
		}
		var err error
		site, err = findSite(ctx, tx, id)
		return err
	})
	return site, err
}

// addRootSiteSpaces adds the site spaces a new site starts with, at its root, in order.
func addRootSiteSpaces(ctx context.Context, tx *Tx, orgID, siteID string, spaceIDs []string) error {
	for i, spaceID := range spaceIDs {
		if _, err := insertSiteSpace(ctx, tx, orgID, siteID, store.SiteSpaceCreate{SpaceID: spaceID}, "spaces["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	return nil
}

// FindSite returns a site, whatever its organization: the caller checks access.
func (s *Store) FindSite(ctx context.Context, id string) (*store.Site, error) {
	return findSite(pointRead(ctx), s.reader, id)
}

func findSite(ctx context.Context, q querier, id string) (*store.Site, error) {
	var site store.Site
	err := scanSite(q.QueryRowContext(ctx, `SELECT `+siteColumns+` FROM sites s WHERE s.id = ?`, id), &site)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Site")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find site: %w", err)
	}
	return &site, nil
}

// FindSiteByHostname returns the site with a hostname (hostnames are unique).
func (s *Store) FindSiteByHostname(ctx context.Context, hostname string) (*store.Site, error) {
	var site store.Site
	err := scanSite(s.reader.QueryRowContext(pointRead(ctx), `SELECT `+siteColumns+` FROM sites s WHERE s.hostname = ?`, hostname), &site)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Site")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find site by hostname: %w", err)
	}
	return &site, nil
}

// FindSites lists an organization's sites, oldest first.
func (s *Store) FindSites(ctx context.Context, orgID string, f store.SiteFilter, p store.Page) (store.List[*store.Site], error) {
	q := &listQuery{cols: siteColumns, from: `sites s`, order: byKeys(`s.created_at`, `s.id`)}
	q.and(`s.organization_id = ?`, orgID)
	if f.Space != nil {
		q.and(`EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = s.id AND ss.space_id = ?)`, *f.Space)
	}
	if f.Title != nil {
		q.and(`s.title LIKE ? ESCAPE '\'`, likeContains(*f.Title))
	}
	if f.Published != nil {
		q.and(`s.published = ?`, *f.Published)
	}
	if v := f.Visible; v != nil {
		b, _ := json.Marshal(append([]string{}, v.Granted...))
		if v.Member {
			q.and(`(s.id IN (SELECT value FROM json_each(?)) OR s.default_level IS NOT NULL)`, string(b))
		} else {
			q.and(`s.id IN (SELECT value FROM json_each(?))`, string(b))
		}
	}
	return findList(ctx, s.reader, q, p, "sites", fill(scanSite))
}

// UpdateSite applies an update. A hostname another site has is a conflict; default site space or
// section ids that are not the site's are invalid.
func (s *Store) UpdateSite(ctx context.Context, id string, upd store.SiteUpdate) (*store.Site, error) {
	var site *store.Site
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findSite(ctx, tx, id); err != nil {
			return err
		}
		if upd.DefaultSiteSpace != nil {
			if err := checkSiteRow(ctx, tx, "site_spaces", id, *upd.DefaultSiteSpace, "defaultSiteSpace", "site space"); err != nil {
				return err
			}
		}
		if upd.DefaultSiteSection != nil {
			if err := checkSiteRow(ctx, tx, "site_sections", id, *upd.DefaultSiteSection, "defaultSiteSection", "section"); err != nil {
				return err
			}
		}
		if upd.SetHostname && upd.Hostname != nil {
			var other string
			err := tx.QueryRowContext(ctx, `SELECT id FROM sites WHERE hostname = ? AND id != ?`, *upd.Hostname, id).Scan(&other)
			if err == nil {
				return store.Errorf(store.ECONFLICT, "The hostname %s is already used by another site.", *upd.Hostname)
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("store: unable to check site hostname: %w", err)
			}
		}
		if err := updateRow(ctx, tx, "sites", id,
			columnChange{true, "updated_at", formatTime(tx.now)},
			columnChange{upd.Title != nil, "title", nullString(upd.Title)},
			columnChange{upd.Visibility != nil, "visibility", nullString(upd.Visibility)},
			columnChange{upd.Basename != nil, "basename", nullString(upd.Basename)},
			columnChange{upd.SetHostname, "hostname", nullString(upd.Hostname)},
			columnChange{upd.SetProxy, "proxy", nullString(upd.Proxy)},
			columnChange{upd.AdaptiveEnabled != nil, "adaptive_enabled", upd.AdaptiveEnabled != nil && *upd.AdaptiveEnabled},
			columnChange{upd.AgentsContext != nil, "agents_context", nullString(upd.AgentsContext)},
			columnChange{upd.SetDefaultLevel, "default_level", nullRole(upd.DefaultLevel)},
		); err != nil {
			return err
		}
		var err error
		site, err = findSite(ctx, tx, id)
		return err
	})
	return site, err
}

// columnChange is a column an update may set; given says whether this update sets it. Column
// names are constants of the calling code, never taken from a request.
type columnChange struct {
	given  bool
	column string
	value  any
}

// updateRow sets the given columns of the row of table (a constant) with an id, in one
// statement; it does nothing when no column is given.
func updateRow(ctx context.Context, tx *Tx, table, id string, changes ...columnChange) error {
	var sets []string
	var args []any
	for _, c := range changes {
		if c.given {
			sets, args = append(sets, c.column+" = ?"), append(args, c.value)
		}
	}
	if len(sets) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(args, id)...); err != nil {
		return fmt.Errorf("store: unable to update %s: %w", table, err)
	}
	return nil
}

// SetSitePublished publishes or unpublishes a site.
func (s *Store) SetSitePublished(ctx context.Context, id string, published bool) (*store.Site, error) {
	var site *store.Site
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sites SET published = ?, updated_at = ? WHERE id = ?`, published, formatTime(tx.now), id)
		if err != nil {
			return fmt.Errorf("store: unable to publish site: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Site")
		}
		site, err = findSite(ctx, tx, id)
		return err
	})
	return site, err
}

// DeleteSite deletes a site with its structure. Deleting a missing site is no error.
func (s *Store) DeleteSite(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sites WHERE id = ?`, id); err != nil {
			return fmt.Errorf("store: unable to delete site: %w", err)
		}
		if err := deleteGrantsOn(ctx, tx, id); err != nil {
			return err
		}
		// An organization whose default content it was has none now.
		if _, err := tx.ExecContext(ctx, `UPDATE organizations SET default_content_site = NULL WHERE default_content_site = ?`, id); err != nil {
			return fmt.Errorf("store: unable to clear default content: %w", err)
		}
		return nil
	})
}

// SetSiteAdaptiveSchema validates and stores a site's visitor schema (see ParseAdaptiveSchema).
func (s *Store) SetSiteAdaptiveSchema(ctx context.Context, id string, schema map[string]any) (*store.Site, error) {
	store.NormalizeAdaptiveSchema(schema)
	if _, err := store.ParseAdaptiveSchema(schema); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("store: unable to encode adaptive schema: %w", err)
	}
	var site *store.Site
	err = s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		res, err := tx.ExecContext(ctx, `UPDATE sites SET adaptive_schema = ?, adaptive_schema_updated_at = ?, updated_at = ? WHERE id = ?`,
			string(raw), now, now, id)
		if err != nil {
			return fmt.Errorf("store: unable to set adaptive schema: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Site")
		}
		site, err = findSite(ctx, tx, id)
		return err
	})
	return site, err
}
