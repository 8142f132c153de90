package sqlstore

import (
	"context"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// FindPagesWithBodies returns pages of a revision with their bodies, in one query, in the order
// of ids. Ids the revision does not hold are left out (the result may be shorter than ids).
// Callers with many pages ask in batches, so that only one batch of bodies is held at a time.
func (s *Store) FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*store.RevisionPage, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	v, err := newView(ctx, s.reader, revisionID)
	if err != nil {
		return nil, err
	}
	found, err := v.Pages(ids, true)
	if err != nil {
		return nil, fmt.Errorf("store: unable to find pages: %w", err)
	}
	pages := make([]*store.RevisionPage, 0, len(ids))
	for _, id := range ids {
		if p := found[id]; p != nil {
			pages = append(pages, p)
		}
	}
	return pages, nil
}
