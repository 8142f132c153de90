package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// The search index after a merge (issue 31). Indexing the pages a merge changed was half of a
// merge on SQLite and two thirds of one on PostgreSQL (to_tsvector, the sections, the GIN
// pending list): a merge of 1,000 pages took 111 ms and 285 ms, 53 ms and 91 ms without it. So a
// merge (and a template applied to main) leaves the space's index behind: it records in
// search_spaces.behind_from the revision the index still reflects, unless the index was behind
// already (then it stays behind from the earlier one), and answers. Right after the commit a
// goroutine of the node brings the index up to the space's current revision in a write
// transaction of its own (catchUpSearch): it reads the pages that may differ between the two
// revisions (what the lines wrote between them, the cost of the change, not of the space), and
// indexes them as a merge did.
//
// No search reads an index that is behind: before it reads, a search looks for the spaces of
// its scope that are behind (an indexed read, cached until the next write commits anywhere; on
// SQLite a space's is folded into the read of its key) and brings each up to date itself, so a search after a merge finds what the merge wrote, on
// any node. Two nodes (or the goroutine and a search) bringing one space up to date meet on its
// search_spaces row: the second waits for the first (SQLite has one writer; PostgreSQL's
// serializable transactions make the later one start again) and finds nothing left to do.

// deferIndex records that the space's index stays at revision from, the space's current revision
// before this transaction replaced it, and has the index brought up to date once the
// transaction commits.
func deferIndex(ctx context.Context, tx *Tx, spaceID, from string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO search_spaces (space_id, behind_from) VALUES (?, ?)
		ON CONFLICT (space_id) DO UPDATE SET behind_from = COALESCE(search_spaces.behind_from, excluded.behind_from)`,
		spaceID, from); err != nil {
		return fmt.Errorf("store: unable to update the search index: %w", err)
	}
	tx.behind = append(tx.behind, spaceID)
	return nil
}

// catchUpSearch brings a space's index up to its current revision when it is behind.
func catchUpSearch(ctx context.Context, tx *Tx, spaceID string) error {
	var from, rev sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT k.behind_from, s.revision_id FROM search_spaces k JOIN spaces s ON s.id = k.space_id
		WHERE k.space_id = ?`, spaceID).Scan(&from, &rev)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !from.Valid {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: unable to update the search index: %w", err)
	}
	if err := indexSince(ctx, tx, spaceID, from.String, rev.String); err != nil {
		return err
	}
	return markIndexCurrent(ctx, tx, spaceID)
}

// indexSince indexes the pages of revision rev that may differ from revision from: those the
// lines wrote between the two; the pages found no more in rev are removed.
func indexSince(ctx context.Context, tx *Tx, spaceID, from, rev string) error {
	ids, err := changedPageIDs(ctx, tx, from, rev)
	if store.ErrorCode(err) == store.ENOTFOUND { // a revision gone: the whole space again
		return reindexSpace(ctx, tx, spaceID)
	}
	if err != nil {
		return err
	}
	v, err := newView(ctx, tx, rev)
	if err != nil {
		return err
	}
	pages, err := v.Pages(ids, false)
	if err != nil {
		return err
	}
	var changed, deleted []*store.RevisionPage
	for _, id := range ids {
		if p := pages[id]; p != nil {
			changed = append(changed, p)
		} else {
			deleted = append(deleted, &store.RevisionPage{ID: id})
		}
	}
	return indexChanges(ctx, tx, spaceID, changed, deleted)
}

// searchCurrent brings the index of each space named up to date, one write transaction a space.
func (s *Store) searchCurrent(ctx context.Context, spaceIDs []string) error {
	for _, id := range spaceIDs {
		if err := s.write(ctx, func(tx *Tx) error { return catchUpSearch(ctx, tx, id) }); err != nil {
			return err
		}
	}
	return nil
}

// catchUpQuietly is searchCurrent for the goroutine: a failure waits for the next search.
func (s *Store) catchUpQuietly(ctx context.Context, spaceIDs []string) {
	s.searchCurrent(ctx, spaceIDs)
}

// searchCurrentIn brings up to date the index of the spaces a search reads (a space, or an
// organization's spaces) that are behind. Which are is a cached read (cacheread.go): while no
// write has committed anywhere since a search of the scope found none behind, the next search
// asks nothing.
func (s *Store) searchCurrentIn(ctx context.Context, spaceID, orgID string) error {
	key, q, arg := "s"+spaceID, `SELECT space_id FROM search_spaces WHERE space_id = ? AND behind_from IS NOT NULL`, spaceID
	if orgID != "" {
		key, q, arg = "o"+orgID, `SELECT k.space_id FROM search_spaces k JOIN spaces s ON s.id = k.space_id
			WHERE k.behind_from IS NOT NULL AND s.organization_id = ?`, orgID
	}
	behind, err := cachedRead(ctx, s, &s.behindCache, key, func() ([]string, error) {
		return queryAll(ctx, s.reader, "the search index", q, []any{arg}, scanString)
	})
	if err != nil || len(behind) == 0 {
		return err
	}
	return s.searchCurrent(ctx, behind)
}
