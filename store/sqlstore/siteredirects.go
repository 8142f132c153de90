package sqlstore

import (
	"context"
	"database/sql"
	"errors"
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
// source and draft state).
func (s *Store) CreateSiteRedirect(ctx context.Context, r *store.SiteRedirect) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := findSiteRedirectAt(ctx, tx, r.SiteID, r.Source, r.Draft); err == nil {
			return redirectTaken(r.Source, r.Draft)
		} else if store.ErrorCode(err) != store.ENOTFOUND {
			return err
		}
		return insertSiteRedirect(ctx, tx, r)
	})
}

func redirectTaken(source string, draft bool) error {
	if draft {
		return store.Errorf(store.ECONFLICT, "The site already has a draft redirect from %s.", source)
	}
	return store.Errorf(store.ECONFLICT, "The site already has a redirect from %s.", source)
}

func insertSiteRedirect(ctx context.Context, tx *Tx, r *store.SiteRedirect) error {
	r.ID = store.NewID()
	r.CreatedAt, r.UpdatedAt = tx.now, tx.now
	_, err := tx.ExecContext(ctx, `INSERT INTO site_redirects (`+siteRedirectColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.SiteID, r.Source, r.Draft, r.CaptureWildcard, r.Permanent, r.DestinationKind,
		nullString(r.SiteSectionID), nullString(r.SiteSpaceID), nullString(r.PageID), nullString(r.URL),
		formatTime(tx.now), formatTime(tx.now))
	if err != nil {
		return fmt.Errorf("store: unable to create site redirect: %w", err)
	}
	return nil
}

// saveSiteRedirect writes every field of a redirect back, stamping it updated.
func saveSiteRedirect(ctx context.Context, tx *Tx, r *store.SiteRedirect) error {
	r.UpdatedAt = tx.now
	_, err := tx.ExecContext(ctx, `UPDATE site_redirects SET source = ?, draft = ?, capture_wildcard = ?, permanent = ?,
		destination_kind = ?, site_section_id = ?, site_space_id = ?, page_id = ?, url = ?, updated_at = ?
		WHERE id = ?`, r.Source, r.Draft, r.CaptureWildcard, r.Permanent, r.DestinationKind,
		nullString(r.SiteSectionID), nullString(r.SiteSpaceID), nullString(r.PageID), nullString(r.URL), formatTime(tx.now), r.ID)
	if err != nil {
		return fmt.Errorf("store: unable to update site redirect: %w", err)
	}
	return nil
}

func findSiteRedirectAt(ctx context.Context, q querier, siteID, source string, draft bool) (*store.SiteRedirect, error) {
	r, err := scanSiteRedirect(q.QueryRowContext(ctx, `SELECT `+siteRedirectColumns+` FROM site_redirects
		WHERE site_id = ? AND source = ? AND draft = ?`, siteID, source, draft))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Site redirect")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find site redirect: %w", err)
	}
	return r, nil
}

func findSiteRedirect(ctx context.Context, q querier, siteID, id string) (*store.SiteRedirect, error) {
	r, err := scanSiteRedirect(q.QueryRowContext(ctx, `SELECT `+siteRedirectColumns+` FROM site_redirects
		WHERE site_id = ? AND id = ?`, siteID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Site redirect")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find site redirect: %w", err)
	}
	return r, nil
}

// FindSiteRedirect returns a redirect of a site.
func (s *Store) FindSiteRedirect(ctx context.Context, siteID, id string) (*store.SiteRedirect, error) {
	return findSiteRedirect(ctx, s.reader, siteID, id)
}

// FindSiteRedirects lists a site's live or draft redirects in the order asked.
func (s *Store) FindSiteRedirects(ctx context.Context, siteID string, f store.SiteRedirectFilter, p store.Page) (store.List[*store.SiteRedirect], error) {
	q := &listQuery{cols: siteRedirectColumns, from: `site_redirects`}
	q.and(`site_id = ?`, siteID)
	q.and(`draft = ?`, f.Draft)
	if f.Search != nil && *f.Search != "" {
		q.and(`source LIKE ? ESCAPE '\'`, likeContains(*f.Search))
	}
	switch f.OrderBy {
	case "source":
		q.order = byKeys(`source`, `id`)
	case "updatedAt":
		q.order, q.desc = byKeys(`updated_at`, `id`), true
	default:
		q.order, q.desc = byKeys(`created_at`, `id`), true
	}
	return findList(ctx, s.reader, q, p, "site redirects", scanSiteRedirect)
}

// UpdateSiteRedirect applies an update (ECONFLICT when the source and draft state are another
// redirect's).
func (s *Store) UpdateSiteRedirect(ctx context.Context, siteID, id string, upd store.SiteRedirectUpdate) (*store.SiteRedirect, error) {
	var out *store.SiteRedirect
	err := s.write(ctx, func(tx *Tx) error {
		r, err := findSiteRedirect(ctx, tx, siteID, id)
		if err != nil {
			return err
		}
		setIf(&r.Source, upd.Source)
		setIf(&r.Draft, upd.Draft)
		setIf(&r.CaptureWildcard, upd.CaptureWildcard)
		setIf(&r.Permanent, upd.Permanent)
		if upd.Destination != nil {
			r.RedirectDestination = *upd.Destination
		}
		if other, err := findSiteRedirectAt(ctx, tx, siteID, r.Source, r.Draft); err == nil && other.ID != r.ID {
			return redirectTaken(r.Source, r.Draft)
		} else if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
			return err
		}
		out = r
		return saveSiteRedirect(ctx, tx, r)
	})
	return out, err
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// DeleteSiteRedirect removes a redirect; deleted is false when there was none.
func (s *Store) DeleteSiteRedirect(ctx context.Context, siteID, id string) (bool, error) {
	var deleted bool
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM site_redirects WHERE site_id = ? AND id = ?`, siteID, id)
		if err != nil {
			return fmt.Errorf("store: unable to delete site redirect: %w", err)
		}
		n, err := res.RowsAffected()
		deleted = n > 0
		return err
	})
	return deleted, err
}

// UpsertSiteRedirects applies a bulk change in one transaction, entry by entry in order.
func (s *Store) UpsertSiteRedirects(ctx context.Context, siteID string, entries []store.SiteRedirectUpsert) ([]store.SiteRedirectUpserted, error) {
	var out []store.SiteRedirectUpserted
	err := s.write(ctx, func(tx *Tx) error {
		out = out[:0]
		for _, e := range entries {
			res, err := upsertSiteRedirect(ctx, tx, siteID, e)
			if err != nil {
				return err
			}
			out = append(out, res)
		}
		return nil
	})
	return out, err
}

func upsertSiteRedirect(ctx context.Context, tx *Tx, siteID string, e store.SiteRedirectUpsert) (store.SiteRedirectUpserted, error) {
	draft := e.Intent == "draft"
	res := store.SiteRedirectUpserted{Source: e.Source, Draft: draft}
	existing, err := findSiteRedirectAt(ctx, tx, siteID, e.Source, draft || e.Intent == "publish")
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return res, err
	}
	switch {
	case e.Intent == "publish":
		if existing == nil {
			res.Status, res.Error = "error", "There is no draft redirect from "+e.Source+" to publish."
			return res, nil
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM site_redirects WHERE site_id = ? AND source = ? AND draft = ?`, siteID, e.Source, false); err != nil {
			return res, fmt.Errorf("store: unable to publish site redirect: %w", err)
		}
		existing.Draft = false
		res.Status, res.ID = "published", existing.ID
		return res, saveSiteRedirect(ctx, tx, existing)
	case e.Destination == nil:
		res.Status = "deleted"
		if existing == nil {
			return res, nil
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM site_redirects WHERE id = ?`, existing.ID)
		if err != nil {
			return res, fmt.Errorf("store: unable to delete site redirect: %w", err)
		}
		return res, nil
	case existing == nil:
		r := &store.SiteRedirect{SiteID: siteID, Source: e.Source, Draft: draft, CaptureWildcard: e.CaptureWildcard,
			Permanent: e.Permanent != nil && *e.Permanent, RedirectDestination: *e.Destination}
		res.Status = "created"
		err := insertSiteRedirect(ctx, tx, r)
		res.ID = r.ID
		return res, err
	}
	existing.CaptureWildcard, existing.RedirectDestination = e.CaptureWildcard, *e.Destination
	setIf(&existing.Permanent, e.Permanent)
	res.Status, res.ID = "updated", existing.ID
	return res, saveSiteRedirect(ctx, tx, existing)
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

// FindPageFormerlyAt returns the page that last had a path in a revision's history: on each line
// of the revision's chain, nearest first, the latest version up to the chain's seq with that path
// (the page_versions_path index).
func (s *Store) FindPageFormerlyAt(ctx context.Context, revisionID, path string) (string, error) {
	c, err := revisionChain(ctx, s.reader, revisionID)
	if err != nil {
		return "", err
	}
	for _, el := range c {
		var id string
		err := s.reader.QueryRowContext(ctx, `SELECT page_id FROM page_versions
			WHERE line_id = ? AND path = ? AND valid_from <= ? AND deleted = 0
			ORDER BY valid_from DESC LIMIT 1`, el.line, path, el.upto).Scan(&id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("store: unable to find a former page: %w", err)
		}
	}
	return "", store.Errorf(store.ENOTFOUND, "No page was ever at %s.", path)
}
