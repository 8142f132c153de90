package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// External links in a site's navigation: added at the end of their group, ordered with its
// sections and groups (sectionSiblings), moved by SortSiteStructure.

func findSiteLink(ctx context.Context, q querier, siteID, id string) (*store.SiteExternalLink, error) {
	var l store.SiteExternalLink
	err := scanSiteLink(q.QueryRowContext(ctx, siteLinkSelect+` WHERE l.id = ? AND l.site_id = ?`, id, siteID), &l)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("External link")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find external link: %w", err)
	}
	return &l, nil
}

// checkLinkGroup checks that a group an external link goes into is the site's.
func checkLinkGroup(ctx context.Context, tx *Tx, siteID string, group *string, field string) error {
	if group == nil {
		return nil
	}
	return checkSiteRow(ctx, tx, "site_section_groups", siteID, *group, field, "section group")
}

// AddSiteExternalLink adds an external link at the end of its group of a site with sections.
func (s *Store) AddSiteExternalLink(ctx context.Context, siteID string, c store.SiteExternalLinkCreate) (*store.SiteExternalLink, error) {
	var l *store.SiteExternalLink
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := siteOrganization(ctx, tx, siteID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM site_sections WHERE site_id = ?`, siteID).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to count sections: %w", err)
		}
		if n == 0 {
			return store.Errorf(store.EINVALID, "The site has its spaces at its root, with no sections: add a section first, then external links next to it.")
		}
		if err := checkLinkGroup(ctx, tx, siteID, c.GroupID, "parent"); err != nil {
			return err
		}
		pos, err := nextSectionPosition(ctx, tx, siteID, c.GroupID)
		if err != nil {
			return err
		}
		id := store.NewID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO site_external_links (id, site_id, group_id, title, localized_title, description,
			localized_description, icon, url, condition, draft, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, siteID, nullString(c.GroupID), c.Title, localizedColumn(c.LocalizedTitle), nullString(c.Description),
			localizedColumn(c.LocalizedDescription), nullString(c.Icon), c.URL, nullString(c.Condition), c.Draft, pos); err != nil {
			return fmt.Errorf("store: unable to add external link: %w", err)
		}
		l, err = findSiteLink(ctx, tx, siteID, id)
		return err
	})
	return l, err
}

// UpdateSiteExternalLink applies an update; a new group moves the link to its end.
func (s *Store) UpdateSiteExternalLink(ctx context.Context, siteID, id string, upd store.SiteExternalLinkUpdate) (*store.SiteExternalLink, error) {
	var l *store.SiteExternalLink
	err := s.write(ctx, func(tx *Tx) error {
		cur, err := findSiteLink(ctx, tx, siteID, id)
		if err != nil {
			return err
		}
		moved := upd.SetGroup && !store.EqualPtr(upd.GroupID, cur.GroupID)
		pos := cur.Position
		if moved {
			if err := checkLinkGroup(ctx, tx, siteID, upd.GroupID, "parent"); err != nil {
				return err
			}
			if pos, err = nextSectionPosition(ctx, tx, siteID, upd.GroupID); err != nil {
				return err
			}
		}
		if err := updateRow(ctx, tx, "site_external_links", id,
			columnChange{upd.Title != nil, "title", nullString(upd.Title)},
			columnChange{upd.SetLocalizedTitle, "localized_title", localizedColumn(upd.LocalizedTitle)},
			columnChange{upd.SetDescription, "description", nullString(upd.Description)},
			columnChange{upd.SetLocalizedDescription, "localized_description", localizedColumn(upd.LocalizedDescription)},
			columnChange{upd.SetIcon, "icon", nullString(upd.Icon)},
			columnChange{upd.URL != nil, "url", nullString(upd.URL)},
			columnChange{upd.SetCondition, "condition", nullString(upd.Condition)},
			columnChange{upd.Draft != nil, "draft", upd.Draft != nil && *upd.Draft},
			columnChange{moved, "group_id", nullString(upd.GroupID)},
			columnChange{moved, "position", pos},
		); err != nil {
			return err
		}
		l, err = findSiteLink(ctx, tx, siteID, id)
		return err
	})
	return l, err
}

// DeleteSiteExternalLink deletes an external link; false when there was none.
func (s *Store) DeleteSiteExternalLink(ctx context.Context, siteID, id string) (bool, error) {
	var gone bool
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM site_external_links WHERE id = ? AND site_id = ?`, id, siteID)
		if err != nil {
			return fmt.Errorf("store: unable to delete external link: %w", err)
		}
		n, _ := res.RowsAffected()
		gone = n > 0
		return nil
	})
	return gone, err
}
