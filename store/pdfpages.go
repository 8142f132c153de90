package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// FindPagesWithBodies returns pages of a revision with their bodies, in one query, in the order
// of ids. Ids the revision does not hold are left out (the result may be shorter than ids).
// Callers with many pages ask in batches, so that only one batch of bodies is held at a time.
func (s *Store) FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*RevisionPage, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ij, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("store: unable to find pages: %w", err)
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT `+pageColumns+`, b.markdown
		FROM json_each(?1) j
		JOIN revision_pages p ON p.revision_id = ?2 AND p.page_id = j.value
		JOIN page_bodies b ON b.id = p.body_id
		ORDER BY j.key`, string(ij), revisionID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to find pages: %w", err)
	}
	defer rows.Close()
	pages := make([]*RevisionPage, 0, len(ids))
	for rows.Next() {
		p := &RevisionPage{}
		if err := scanPage(rows, p, &p.Markdown); err != nil {
			return nil, fmt.Errorf("store: unable to find pages: %w", err)
		}
		pages = append(pages, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: unable to find pages: %w", err)
	}
	return pages, nil
}
