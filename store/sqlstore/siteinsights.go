package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/store"
)

const siteEventColumns = `id, site_id, type, session_id, visitor_id, space_id, page_id, occurred_at, payload`

// siteEventKeyColumns are what the insights group by, taken out of the payload.
const siteEventKeyColumns = `url, url_path, site_section_id, site_space_id, search_query, feedback_rating`

// RecordSiteEvents stores a batch of a site's events in one statement.
func (s *Store) RecordSiteEvents(ctx context.Context, siteID string, events []*store.SiteEvent) error {
	if len(events) == 0 {
		return nil
	}
	return s.write(ctx, func(tx *Tx) error {
		rows := make([]string, 0, len(events))
		args := make([]any, 0, 15*len(events))
		for _, e := range events {
			e.ID, e.SiteID = store.NewID(), siteID
			if e.OccurredAt.IsZero() {
				e.OccurredAt = tx.now
			}
			rows = append(rows, `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
			args = append(args, e.ID, siteID, e.Type, e.SessionID, e.VisitorID, nullString(e.SpaceID), nullString(e.PageID),
				formatTime(e.OccurredAt), string(e.Payload), nullString(e.URL), nullString(e.URLPath), nullString(e.SiteSectionID),
				nullString(e.SiteSpaceID), nullString(e.SearchQuery), nullString(e.FeedbackRating))
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO site_events (`+siteEventColumns+`, `+siteEventKeyColumns+`) VALUES `+strings.Join(rows, ", "), args...); err != nil {
			return fmt.Errorf("store: unable to record site events: %w", err)
		}
		return nil
	})
}

// FindSiteEvents lists a site's events, newest first.
func (s *Store) FindSiteEvents(ctx context.Context, siteID string, f store.SiteEventFilter, p store.Page) (store.List[*store.SiteEvent], error) {
	q := &listQuery{cols: siteEventColumns + `, ` + siteEventKeyColumns, from: `site_events`, order: byKeys(`occurred_at`, `id`), desc: true}
	q.and(`site_id = ?`, siteID)
	if f.Type != nil {
		q.and(`type = ?`, *f.Type)
	}
	if f.Since != nil {
		q.and(`occurred_at >= ?`, formatTime(*f.Since))
	}
	return findList(ctx, s.reader, q, p, "site events", func(sc scanner) (*store.SiteEvent, error) {
		var e store.SiteEvent
		var space, page, u, path, section, siteSpace, query, rating sql.NullString
		var at, payload string
		if err := sc.Scan(&e.ID, &e.SiteID, &e.Type, &e.SessionID, &e.VisitorID, &space, &page, &at, &payload,
			&u, &path, &section, &siteSpace, &query, &rating); err != nil {
			return nil, err
		}
		e.SpaceID, e.PageID, e.OccurredAt, e.Payload = stringPtr(space), stringPtr(page), parseTime(at), []byte(payload)
		e.URL, e.URLPath, e.SiteSectionID, e.SiteSpaceID = stringPtr(u), stringPtr(path), stringPtr(section), stringPtr(siteSpace)
		e.SearchQuery, e.FeedbackRating = stringPtr(query), stringPtr(rating)
		return &e, nil
	})
}
