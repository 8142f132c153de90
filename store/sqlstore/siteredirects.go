package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/store"
)

const siteRedirectColumns = `id, site_id, source, draft, capture_wildcard, permanent, destination_kind,
	site_section_id, site_space_id, page_id, url, created_at, updated_at`

func scanSiteRedirect(sc scanner) (*store.SiteRedirect, error) {
	var r store.SiteRedirect
	var section, siteSpace, page, url sql.NullString
	var created, updated string
	if err := sc.Scan(&r.ID, &r.SiteID, &r.Source, &r.Draft, &r.CaptureWildcard, &r.Permanent, &r.DestinationKind,
		&section, &siteSpace, &page, &url, &created, &updated); err != nil {
		return nil, err
	}
	r.SiteSectionID, r.SiteSpaceID, r.PageID, r.URL = stringPtr(section), stringPtr(siteSpace), stringPtr(page), stringPtr(url)
	r.CreatedAt, r.UpdatedAt = parseTime(created), parseTime(updated)
	return &r, nil
}

// CreateSiteRedirect adds a redirect to a site (ECONFLICT when the site has one with the same
// source).
func (s *Store) CreateSiteRedirect(ctx context.Context, r *store.SiteRedirect) error {
	r.ID = store.NewID()
	return s.write(ctx, func(tx *Tx) error {
		r.CreatedAt, r.UpdatedAt = tx.now, tx.now
		_, err := tx.ExecContext(ctx, `INSERT INTO site_redirects (`+siteRedirectColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.SiteID, r.Source, r.Draft, r.CaptureWildcard, r.Permanent, r.DestinationKind,
			nullString(r.SiteSectionID), nullString(r.SiteSpaceID), nullString(r.PageID), nullString(r.URL),
			formatTime(tx.now), formatTime(tx.now))
		if s.d.uniqueViolation(err) {
			return store.Errorf(store.ECONFLICT, "The site already has a redirect from %s.", r.Source)
		}
		if err != nil {
			return fmt.Errorf("store: unable to create site redirect: %w", err)
		}
		return nil
	})
}

// FindSiteRedirectBySource returns the site's live redirect for a path: the exact source, else
// the wildcard source with the longest prefix of the path. The candidates are the path itself
// and, for each of its prefixes, the prefix followed by "*" (and by "/*" at a segment's end): one
// indexed lookup of at most a few hundred keys.
func (s *Store) FindSiteRedirectBySource(ctx context.Context, siteID, path string) (*store.SiteRedirect, error) {
	candidates := []any{siteID, path}
	marks := []string{"?"}
	for i := len(path); i >= 1; i-- {
		candidates = append(candidates, path[:i]+"*")
		marks = append(marks, "?")
		if i == len(path) || path[i] == '/' {
			candidates = append(candidates, path[:i]+"/*")
			marks = append(marks, "?")
		}
	}
	rows, err := queryAll(ctx, s.reader, "site redirects", `SELECT `+siteRedirectColumns+` FROM site_redirects
		WHERE site_id = ? AND draft = 0 AND source IN (`+strings.Join(marks, ", ")+`)`, candidates, scanSiteRedirect)
	if err != nil {
		return nil, err
	}
	var best *store.SiteRedirect
	for _, r := range rows {
		switch {
		case r.Source == path:
			return r, nil
		case best == nil || len(r.Source) > len(best.Source):
			best = r
		}
	}
	if best == nil {
		return nil, store.Errorf(store.ENOTFOUND, "The site has no redirect from %s.", path)
	}
	return best, nil
}
