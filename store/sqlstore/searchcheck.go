package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/quire-docs/quire/store"
)

// Checking and rebuilding the search index (issue 24). On PostgreSQL the searchable text of the
// index (search_titles.tsv, search_fts.tsv) is folded in Go (ftsText) before PostgreSQL sees it,
// while search_pages and search_sections keep the text as it was indexed. An index written while
// ftsText shared one transform.Chain across goroutines may hold words nobody wrote: the check
// folds the kept text again, in batches, and asks PostgreSQL which stored vectors differ from it.
// SQLite folds inside FTS5 (remove_diacritics), so there is nothing of ours to compare; its check
// is FTS5's own integrity check. The rebuild indexes every live space again from its current
// revision, one space per write transaction, on both engines; on SQLite it empties the whole
// index first, since FTS5 cannot delete rows from a damaged one.

// checkBatch is how many index rows one comparison sends to PostgreSQL.
const checkBatch = 200

// CheckSearchIndex reports what a rebuild of the search index would mend.
func (s *Store) CheckSearchIndex(ctx context.Context) (*store.SearchIndexReport, error) {
	r := &store.SearchIndexReport{Backend: s.Backend(), StaleSpaces: []string{}, Problems: []string{}}
	err := s.snapshot(ctx, func(tx *txConn) error {
		if err := tx.QueryRowContext(ctx, `SELECT count(DISTINCT space_id), count(*) FROM search_pages`).Scan(&r.Spaces, &r.Pages); err != nil {
			return fmt.Errorf("store: unable to check the search index: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM search_sections`).Scan(&r.Sections); err != nil {
			return fmt.Errorf("store: unable to check the search index: %w", err)
		}
		if !s.d.postgres {
			return nil
		}
		stale := map[string]bool{}
		n, err := staleRows(ctx, tx, stale, `SELECT id, space_id, title FROM search_pages WHERE id > ? ORDER BY id LIMIT ?`,
			func(sc scanner) (indexRow, error) {
				var x indexRow
				err := sc.Scan(&x.ID, &x.space, &x.Title)
				x.Title = ftsText(x.Title)
				return x, err
			},
			`SELECT x.id FROM json_to_recordset(CAST(? AS json)) AS x(id bigint, t text)
				LEFT JOIN search_titles f ON f.id = x.id
				WHERE f.tsv IS DISTINCT FROM to_tsvector('simple', x.t)`)
		if err != nil {
			return err
		}
		r.StalePages = n
		n, err = staleRows(ctx, tx, stale, `SELECT s.id, p.space_id, p.title, s.title, s.body FROM search_sections s
				JOIN search_pages p ON p.id = s.page WHERE s.id > ? ORDER BY s.id LIMIT ?`,
			func(sc scanner) (indexRow, error) {
				var x indexRow
				var pageTitle string
				err := sc.Scan(&x.ID, &x.space, &pageTitle, &x.Title, &x.Body)
				if x.ID&63 > 0 { // a section after the first is found by the page's title too (reindexPages)
					x.Title = pageTitle + " " + x.Title
				}
				x.Title, x.Body = ftsText(x.Title), ftsText(x.Body)
				return x, err
			},
			`SELECT x.id FROM json_to_recordset(CAST(? AS json)) AS x(id bigint, t text, b text)
				LEFT JOIN search_fts f ON f.id = x.id
				WHERE f.tsv IS DISTINCT FROM setweight(to_tsvector('simple', x.t), 'A') || setweight(to_tsvector('simple', x.b), 'B')`)
		if err != nil {
			return err
		}
		r.StaleSections = n
		for sp := range stale {
			r.StaleSpaces = append(r.StaleSpaces, sp)
		}
		slices.Sort(r.StaleSpaces)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !s.d.postgres {
		// FTS5's integrity check is a statement on the writer: it reads the index through its own
		// shadow tables and fails, naming the corruption, when they disagree.
		for _, table := range []string{"search_fts", "search_titles"} {
			if _, err := s.writer.ExecContext(ctx, `INSERT INTO `+table+`(`+table+`) VALUES ('integrity-check')`); err != nil {
				r.Problems = append(r.Problems, table+": "+err.Error())
			}
		}
	}
	return r, nil
}

// indexRow is one row of the index as the check sends it: its key, its text folded again, and
// the space it belongs to (not sent).
type indexRow struct {
	ID    int64  `json:"id"`
	Title string `json:"t"`
	Body  string `json:"b,omitempty"`
	space string
}

// staleRows reads index rows in key order, checkBatch at a time, and counts those compare names
// (a query over a JSON array of rows answering the ids whose stored vector differs); it adds
// their spaces to stale.
func staleRows(ctx context.Context, tx *txConn, stale map[string]bool, read string, scan func(scanner) (indexRow, error), compare string) (int, error) {
	count := 0
	after := int64(math.MinInt64)
	for {
		rows, err := queryAll(ctx, tx, "the search index", read, []any{after, checkBatch}, scan)
		if err != nil {
			return 0, err
		}
		if len(rows) == 0 {
			return count, nil
		}
		spaces := make(map[int64]string, len(rows))
		for _, x := range rows {
			spaces[x.ID] = x.space
		}
		batch, err := json.Marshal(rows)
		if err != nil {
			return 0, err
		}
		ids, err := queryAll(ctx, tx, "the search index", compare, []any{string(batch)}, scanInt64)
		if err != nil {
			return 0, err
		}
		for _, id := range ids {
			stale[spaces[id]] = true
		}
		count += len(ids)
		after = rows[len(rows)-1].ID
	}
}

// RebuildSearchIndex indexes every live space again from its current revision.
func (s *Store) RebuildSearchIndex(ctx context.Context) (*store.SearchIndexReport, error) {
	spaces, err := queryAll(ctx, s.reader, "spaces", `SELECT id FROM spaces WHERE deleted_at IS NULL ORDER BY id`, nil, scanString)
	if err != nil {
		return nil, err
	}
	if !s.d.postgres {
		// FTS5 cannot delete rows from a damaged index: the whole index is emptied first (FTS5's
		// delete-all), so search answers less until every space is indexed again below.
		err := s.write(ctx, func(tx *Tx) error {
			for _, q := range []string{`INSERT INTO search_fts(search_fts) VALUES ('delete-all')`,
				`INSERT INTO search_titles(search_titles) VALUES ('delete-all')`,
				`DELETE FROM search_sections`, `DELETE FROM search_pages`} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("store: unable to empty the search index: %w", err)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, id := range spaces {
		err := s.write(ctx, func(tx *Tx) error {
			// A space deleted since the list was read has left the index with its deletion.
			var live bool
			if err := tx.QueryRowContext(ctx, `SELECT count(*) > 0 FROM spaces WHERE id = ? AND deleted_at IS NULL`, id).Scan(&live); err != nil {
				return fmt.Errorf("store: unable to rebuild the search index: %w", err)
			}
			if !live {
				return nil
			}
			return reindexSpace(ctx, tx, id)
		})
		if err != nil {
			return nil, fmt.Errorf("space %s: %w", id, err)
		}
	}
	r := &store.SearchIndexReport{Backend: s.Backend(), StaleSpaces: []string{}, Problems: []string{}}
	err = s.snapshot(ctx, func(tx *txConn) error {
		if err := tx.QueryRowContext(ctx, `SELECT count(DISTINCT space_id), count(*) FROM search_pages`).Scan(&r.Spaces, &r.Pages); err != nil {
			return fmt.Errorf("store: unable to count the search index: %w", err)
		}
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM search_sections`).Scan(&r.Sections)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}
