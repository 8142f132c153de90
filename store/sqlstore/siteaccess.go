package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

const siteShareLinkColumns = `id, site_id, share_key, name, active, created_at`

func scanSiteShareLink(sc scanner) (*store.SiteShareLink, error) {
	var l store.SiteShareLink
	var created string
	if err := sc.Scan(&l.ID, &l.SiteID, &l.Key, &l.Name, &l.Active, &created); err != nil {
		return nil, err
	}
	l.CreatedAt = parseTime(created)
	return &l, nil
}

// CreateSiteShareLink adds an active share link with a new key to a site.
func (s *Store) CreateSiteShareLink(ctx context.Context, siteID, name string) (*store.SiteShareLink, error) {
	l := &store.SiteShareLink{ID: store.NewID(), SiteID: siteID, Key: store.NewID(), Name: name, Active: true}
	err := s.write(ctx, func(tx *Tx) error {
		l.CreatedAt = tx.now
		_, err := tx.ExecContext(ctx, `INSERT INTO site_share_links (`+siteShareLinkColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
			l.ID, l.SiteID, l.Key, l.Name, l.Active, formatTime(tx.now))
		if err != nil {
			return fmt.Errorf("store: unable to create share link: %w", err)
		}
		return nil
	})
	return l, err
}

func findSiteShareLink(ctx context.Context, q querier, cond string, args ...any) (*store.SiteShareLink, error) {
	l, err := scanSiteShareLink(q.QueryRowContext(ctx, `SELECT `+siteShareLinkColumns+` FROM site_share_links WHERE `+cond, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Share link")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find share link: %w", err)
	}
	return l, nil
}

// FindSiteShareLinkByKey returns the site's share link with a key, active or not.
func (s *Store) FindSiteShareLinkByKey(ctx context.Context, siteID, key string) (*store.SiteShareLink, error) {
	return findSiteShareLink(ctx, s.reader, `share_key = ? AND site_id = ?`, key, siteID)
}

// FindSiteShareLinks lists a site's share links, oldest first.
func (s *Store) FindSiteShareLinks(ctx context.Context, siteID string, search *string, p store.Page) (store.List[*store.SiteShareLink], error) {
	q := &listQuery{cols: siteShareLinkColumns, from: `site_share_links`, order: byKeys(`created_at`, `id`)}
	q.and(`site_id = ?`, siteID)
	if search != nil && *search != "" {
		q.and(`name LIKE ? ESCAPE '\'`, likeContains(*search))
	}
	return findList(ctx, s.reader, q, p, "share links", scanSiteShareLink)
}

// UpdateSiteShareLink applies an update.
func (s *Store) UpdateSiteShareLink(ctx context.Context, siteID, id string, upd store.SiteShareLinkUpdate) (*store.SiteShareLink, error) {
	var out *store.SiteShareLink
	err := s.write(ctx, func(tx *Tx) error {
		l, err := findSiteShareLink(ctx, tx, `id = ? AND site_id = ?`, id, siteID)
		if err != nil {
			return err
		}
		setIf(&l.Name, upd.Name)
		setIf(&l.Active, upd.Active)
		if _, err := tx.ExecContext(ctx, `UPDATE site_share_links SET name = ?, active = ? WHERE id = ?`, l.Name, l.Active, l.ID); err != nil {
			return fmt.Errorf("store: unable to update share link: %w", err)
		}
		out = l
		return nil
	})
	return out, err
}

// DeleteSiteShareLink removes a share link; deleted is false when there was none.
func (s *Store) DeleteSiteShareLink(ctx context.Context, siteID, id string) (bool, error) {
	var deleted bool
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM site_share_links WHERE id = ? AND site_id = ?`, id, siteID)
		if err != nil {
			return fmt.Errorf("store: unable to delete share link: %w", err)
		}
		n, err := res.RowsAffected()
		deleted = n > 0
		return err
	})
	return deleted, err
}

const sitePublishingAuthColumns = `site_id, backend, private_key, fallback_url, logout_url, updated_at`

func scanSitePublishingAuth(sc scanner) (*store.SitePublishingAuth, error) {
	var a store.SitePublishingAuth
	var fallback, logout sql.NullString
	var updated string
	if err := sc.Scan(&a.SiteID, &a.Backend, &a.PrivateKey, &fallback, &logout, &updated); err != nil {
		return nil, err
	}
	a.FallbackURL, a.LogoutURL, a.UpdatedAt = stringPtr(fallback), stringPtr(logout), parseTime(updated)
	return &a, nil
}

// sitePublishingAuth reads a site's settings in a write transaction, making them when missing.
func sitePublishingAuth(ctx context.Context, tx *Tx, siteID string) (*store.SitePublishingAuth, error) {
	a, err := scanSitePublishingAuth(tx.QueryRowContext(ctx, `SELECT `+sitePublishingAuthColumns+` FROM site_publishing_auth WHERE site_id = ?`, siteID))
	if err == nil {
		return a, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: unable to read visitor authentication: %w", err)
	}
	a = &store.SitePublishingAuth{SiteID: siteID, Backend: "custom", PrivateKey: newPrivateKey(), UpdatedAt: tx.now}
	if _, err := tx.ExecContext(ctx, `INSERT INTO site_publishing_auth (site_id, backend, private_key, updated_at) VALUES (?, ?, ?, ?)`,
		siteID, a.Backend, a.PrivateKey, formatTime(tx.now)); err != nil {
		return nil, fmt.Errorf("store: unable to make visitor authentication: %w", err)
	}
	return a, nil
}

// newPrivateKey is a key for signing visitor tokens: 40 base62 characters (about 238 bits).
func newPrivateKey() string { return store.NewID() + store.NewID() }

func saveSitePublishingAuth(ctx context.Context, tx *Tx, a *store.SitePublishingAuth) error {
	a.UpdatedAt = tx.now
	_, err := tx.ExecContext(ctx, `UPDATE site_publishing_auth SET backend = ?, private_key = ?, fallback_url = ?, logout_url = ?, updated_at = ?
		WHERE site_id = ?`, a.Backend, a.PrivateKey, nullString(a.FallbackURL), nullString(a.LogoutURL), formatTime(tx.now), a.SiteID)
	if err != nil {
		return fmt.Errorf("store: unable to update visitor authentication: %w", err)
	}
	return nil
}

// SitePublishingAuth returns a site's visitor authentication settings, made on first use.
func (s *Store) SitePublishingAuth(ctx context.Context, siteID string) (*store.SitePublishingAuth, error) {
	a, err := scanSitePublishingAuth(s.reader.QueryRowContext(ctx, `SELECT `+sitePublishingAuthColumns+` FROM site_publishing_auth WHERE site_id = ?`, siteID))
	if err == nil {
		return a, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: unable to read visitor authentication: %w", err)
	}
	err = s.write(ctx, func(tx *Tx) error {
		a, err = sitePublishingAuth(ctx, tx, siteID)
		return err
	})
	return a, err
}

// UpdateSitePublishingAuth applies an update.
func (s *Store) UpdateSitePublishingAuth(ctx context.Context, siteID string, upd store.SitePublishingAuthUpdate) (*store.SitePublishingAuth, error) {
	var out *store.SitePublishingAuth
	err := s.write(ctx, func(tx *Tx) error {
		a, err := sitePublishingAuth(ctx, tx, siteID)
		if err != nil {
			return err
		}
		setIf(&a.Backend, upd.Backend)
		if upd.SetFallbackURL {
			a.FallbackURL = upd.FallbackURL
		}
		if upd.SetLogoutURL {
			a.LogoutURL = upd.LogoutURL
		}
		out = a
		return saveSitePublishingAuth(ctx, tx, a)
	})
	return out, err
}

// RegenerateSitePublishingAuth gives the site a new key.
func (s *Store) RegenerateSitePublishingAuth(ctx context.Context, siteID string) (*store.SitePublishingAuth, error) {
	var out *store.SitePublishingAuth
	err := s.write(ctx, func(tx *Tx) error {
		a, err := sitePublishingAuth(ctx, tx, siteID)
		if err != nil {
			return err
		}
		a.PrivateKey = newPrivateKey()
		out = a
		return saveSitePublishingAuth(ctx, tx, a)
	})
	return out, err
}

// RecordSiteHostnameCheck keeps the result of a check of a site's hostname, over the last one.
func (s *Store) RecordSiteHostnameCheck(ctx context.Context, c *store.SiteHostnameCheck) error {
	return s.write(ctx, func(tx *Tx) error {
		c.CheckedAt = tx.now
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_hostname_checks WHERE site_id = ?`, c.SiteID); err != nil {
			return fmt.Errorf("store: unable to record a hostname check: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO site_hostname_checks (site_id, hostname, status, checked_at) VALUES (?, ?, ?, ?)`,
			c.SiteID, c.Hostname, c.Status, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to record a hostname check: %w", err)
		}
		return nil
	})
}

// FindSiteHostnameCheck returns the last check of a site's hostname.
func (s *Store) FindSiteHostnameCheck(ctx context.Context, siteID, hostname string) (*store.SiteHostnameCheck, error) {
	c := store.SiteHostnameCheck{SiteID: siteID}
	var checked string
	err := s.reader.QueryRowContext(ctx, `SELECT hostname, status, checked_at FROM site_hostname_checks WHERE site_id = ? AND hostname = ?`,
		siteID, hostname).Scan(&c.Hostname, &c.Status, &checked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.Errorf(store.ENOTFOUND, "The hostname %s was never checked.", hostname)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read a hostname check: %w", err)
	}
	c.CheckedAt = parseTime(checked)
	return &c, nil
}
