package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// FindSiteCustomization returns a site's customization document or a site space's overrides.
func (s *Store) FindSiteCustomization(ctx context.Context, siteID, siteSpaceID string) (*store.SiteCustomization, error) {
	c := store.SiteCustomization{SiteID: siteID, SiteSpaceID: siteSpaceID}
	var settings, updated string
	var err error
	if siteSpaceID == "" {
		err = s.reader.QueryRowContext(ctx, `SELECT settings, updated_at FROM site_customizations WHERE site_id = ?`, siteID).Scan(&settings, &updated)
	} else {
		err = s.reader.QueryRowContext(ctx, `SELECT settings, updated_at FROM site_space_customizations WHERE site_space_id = ? AND site_id = ?`,
			siteSpaceID, siteID).Scan(&settings, &updated)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.Errorf(store.ENOTFOUND, "No customization was set.")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read a customization: %w", err)
	}
	c.Settings, c.UpdatedAt = []byte(settings), parseTime(updated)
	return &c, nil
}

// FindSiteSpaceCustomizations returns the overrides of a site's site spaces, by site space id.
func (s *Store) FindSiteSpaceCustomizations(ctx context.Context, siteID string) (map[string]*store.SiteCustomization, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT site_space_id, settings, updated_at FROM site_space_customizations WHERE site_id = ?`, siteID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to list customizations: %w", err)
	}
	defer rows.Close()
	out := map[string]*store.SiteCustomization{}
	for rows.Next() {
		c := store.SiteCustomization{SiteID: siteID}
		var settings, updated string
		if err := rows.Scan(&c.SiteSpaceID, &settings, &updated); err != nil {
			return nil, fmt.Errorf("store: unable to list customizations: %w", err)
		}
		c.Settings, c.UpdatedAt = []byte(settings), parseTime(updated)
		out[c.SiteSpaceID] = &c
	}
	return out, rows.Err()
}

// PutSiteCustomization replaces a site's document or a site space's overrides.
func (s *Store) PutSiteCustomization(ctx context.Context, c *store.SiteCustomization) error {
	return s.write(ctx, func(tx *Tx) error {
		c.UpdatedAt = tx.now
		if c.SiteSpaceID == "" {
			if _, err := tx.ExecContext(ctx, `DELETE FROM site_customizations WHERE site_id = ?`, c.SiteID); err != nil {
				return fmt.Errorf("store: unable to put a customization: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO site_customizations (site_id, settings, updated_at) VALUES (?, ?, ?)`,
				c.SiteID, string(c.Settings), formatTime(tx.now)); err != nil {
				return fmt.Errorf("store: unable to put a customization: %w", err)
			}
			return nil
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM site_spaces WHERE id = ? AND site_id = ?`, c.SiteSpaceID, c.SiteID).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to put a customization: %w", err)
		}
		if n == 0 {
			return store.Errorf(store.ENOTFOUND, "The site space %s was not found.", c.SiteSpaceID)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_space_customizations WHERE site_space_id = ?`, c.SiteSpaceID); err != nil {
			return fmt.Errorf("store: unable to put a customization: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO site_space_customizations (site_space_id, site_id, settings, updated_at) VALUES (?, ?, ?, ?)`,
			c.SiteSpaceID, c.SiteID, string(c.Settings), formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to put a customization: %w", err)
		}
		return nil
	})
}

// DeleteSiteCustomization removes a document; deleted is false when there was none.
func (s *Store) DeleteSiteCustomization(ctx context.Context, siteID, siteSpaceID string) (bool, error) {
	var deleted bool
	err := s.write(ctx, func(tx *Tx) error {
		var res sql.Result
		var err error
		if siteSpaceID == "" {
			res, err = tx.ExecContext(ctx, `DELETE FROM site_customizations WHERE site_id = ?`, siteID)
		} else {
			res, err = tx.ExecContext(ctx, `DELETE FROM site_space_customizations WHERE site_space_id = ? AND site_id = ?`, siteSpaceID, siteID)
		}
		if err != nil {
			return fmt.Errorf("store: unable to delete a customization: %w", err)
		}
		n, err := res.RowsAffected()
		deleted = n > 0
		return err
	})
	return deleted, err
}
