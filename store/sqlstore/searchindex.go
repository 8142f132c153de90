package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/quire-docs/quire/store"
)

// The search index follows each space's current revision: from all its pages in the transaction
// that changes it wholly (a restore, a transfer, a duplicate), and from the pages that changed
// since the revision the index reflects after a merge or a template, once that transaction has
// committed (searchbehind.go).

// indexSpace brings a space's search index to the given pages (all those of its new current
// revision): pages gone or changed are removed, pages new or changed are indexed.
func indexSpace(ctx context.Context, tx *Tx, spaceID string, pages []*store.RevisionPage) error {
	indexed := map[string]indexedPage{}
	if err := readIndexed(ctx, tx, indexed, `SELECT id, page_id, title, path, body_id FROM search_pages WHERE space_id = ?`, spaceID); err != nil {
		return err
	}
	stale, fresh := indexDiff(indexed, pages)
	for _, ip := range indexed {
		stale = append(stale, ip.key)
	}
	return reindexPages(ctx, tx, spaceID, stale, fresh)
}

// indexedPage is a page's row in search_pages: its key, and what it was indexed with.
type indexedPage struct {
	key    int64
	title  string
	path   string
	bodyID int64
}

// freshPage is a page to index: under a new key, or under the key its row has (kept) when only
// its body changed, whose row and title then stay and whose sections are replaced.
type freshPage struct {
	page *store.RevisionPage
	key  int64
	kept bool
}

// indexChanges brings a space's search index up to date with the pages a new current revision
// changed and deleted: it reads and writes only their rows.
func indexChanges(ctx context.Context, tx *Tx, spaceID string, changed, deleted []*store.RevisionPage) error {
	if len(changed)+len(deleted) == 0 {
		return nil
	}
	ids := make([]string, 0, len(changed)+len(deleted))
	for _, p := range changed {
		ids = append(ids, p.ID)
	}
	for _, p := range deleted {
		ids = append(ids, p.ID)
	}
	indexed := map[string]indexedPage{}
	for start := 0; start < len(ids); start += 500 {
		from, args := probeList(tx, "search_pages", "s", "page_id", ids[start:min(start+500, len(ids))], `s.space_id = ?`, spaceID)
		if err := readIndexed(ctx, tx, indexed, `SELECT s.id, s.page_id, s.title, s.path, s.body_id FROM `+from, args...); err != nil {
			return err
		}
	}
	stale, fresh := indexDiff(indexed, changed)
	for _, p := range deleted {
		if ip, ok := indexed[p.ID]; ok {
			stale = append(stale, ip.key)
		}
	}
	return reindexPages(ctx, tx, spaceID, stale, fresh)
}

// readIndexed adds to indexed, by page id, the index rows of search_pages a query reads.
func readIndexed(ctx context.Context, tx *Tx, indexed map[string]indexedPage, query string, args ...any) error {
	return queryInto(ctx, tx, "the search index", query, args, indexed, func(sc scanner) (pageID string, ip indexedPage, err error) {
		err = sc.Scan(&ip.key, &pageID, &ip.title, &ip.path, &ip.bodyID)
		return
	})
}

// indexDiff returns the index rows of pages that changed (stale) and the pages to index (fresh);
// it removes the pages it saw from indexed. A page whose title and path are as indexed and whose
// body changed (an edit) keeps its row: only its sections are written again.
func indexDiff(indexed map[string]indexedPage, pages []*store.RevisionPage) (stale []int64, fresh []freshPage) {
	for _, p := range pages {
		ip, ok := indexed[p.ID]
		delete(indexed, p.ID)
		if p.NoIndex { // kept out of search: dropped from the index if it was there
			if ok {
				stale = append(stale, ip.key)
			}
			continue
		}
		sameRow := ok && ip.title == p.Title && ip.path == p.Path
		if sameRow && ip.bodyID == p.BodyID {
			continue
		}
		if sameRow {
			fresh = append(fresh, freshPage{page: p, key: ip.key, kept: true})
			continue
		}
		if ok {
			stale = append(stale, ip.key)
		}
		fresh = append(fresh, freshPage{page: p})
	}
	return stale, fresh
}

// reindexPages removes stale index rows and indexes fresh pages.
func reindexPages(ctx context.Context, tx *Tx, spaceID string, stale []int64, fresh []freshPage) error {
	rewritten := slices.Clone(stale) // the pages whose sections go: the stale, and those kept with a new body
	var kept []freshPage
	for _, f := range fresh {
		if f.kept {
			rewritten = append(rewritten, f.key)
			kept = append(kept, f)
		}
	}
	if len(rewritten) > 0 {
		sections, args := inList(tx, "page", rewritten)
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_sections WHERE `+sections, args...); err != nil {
			return fmt.Errorf("store: unable to update the search index: %w", err)
		}
	}
	if len(stale) > 0 {
		pages, args := inList(tx, "id", stale)
		if _, err := tx.ExecContext(ctx, `DELETE FROM search_pages WHERE `+pages, args...); err != nil {
			return fmt.Errorf("store: unable to update the search index: %w", err)
		}
	}
	if err := setIndexedBodies(ctx, tx, kept); err != nil {
		return err
	}
	if len(fresh) == 0 {
		return nil
	}
	orgID, nextKey, err := searchKeys(ctx, tx, spaceID)
	if err != nil {
		return err
	}
	var need []int64
	for _, f := range fresh {
		need = append(need, f.page.BodyID)
	}
	bodies, err := loadBodies(ctx, tx, need)
	if err != nil {
		return err
	}
	text := func(s string) string { return s }
	if tx.d.postgres {
		text = ftsText
	}
	scope := "o" + orgID
	pages := rowSet{table: "search_pages", cols: []string{"id", "space_id", "page_id", "title", "path", "body_id"},
		types: []colType{colInt, colText, colText, colText, colText, colInt}}
	titles := rowSet{table: "search_titles", cols: []string{"id", "title", "scope"}, types: []colType{colInt, colText, colText},
		sqlite: sqliteInsertTitleFTS, pgSelect: pgTitleFTS, pgInto: []string{"id", "tsv", "scope"}}
	sections := rowSet{table: "search_sections", cols: []string{"id", "page", "anchor", "title", "body"},
		types: []colType{colInt, colInt, colText, colText, colText}}
	fts := sectionFTSRows()
	split := splitSections(tx.sections, fresh, bodies)
	for n, f := range fresh {
		p, key := f.page, f.key
		if !f.kept {
			key = nextKey
			nextKey++
			pages.add(key, spaceID, p.ID, p.Title, p.Path, p.BodyID)
			titles.add(key, text(p.Title), scope)
		}
		for i, sec := range split[n] {
			id := key<<6 | int64(i)
			sections.add(id, key, sec.Anchor, sec.Title, sec.Body)
			title := sec.Title
			if i > 0 {
				title = p.Title + " " + sec.Title
			}
			fts.add(id, text(title), text(sec.Body), scope)
		}
	}
	// search_titles and search_sections reference search_pages; search_fts, search_sections.
	for _, set := range []*rowSet{&pages, &titles, &sections, &fts} {
		if err := set.write(ctx, tx); err != nil {
			return fmt.Errorf("store: unable to index pages: %w", err)
		}
	}
	return nil
}

// splitSections answers the pages' search sections: those the revision that wrote a body found
// (cache), else parsed from the markdown, the pages shared among the machine's cores when there
// are many.
func splitSections(cache *sectionCache, pages []freshPage, bodies map[int64]string) [][]store.SearchSection {
	out := make([][]store.SearchSection, len(pages))
	var parse []int
	for i, f := range pages {
		if secs, ok := cache.take(f.page.BodyID, f.page.Title, bodies[f.page.BodyID]); ok {
			out[i] = secs
		} else {
			parse = append(parse, i)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(parse)/32+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < len(parse); k += workers {
				p := pages[parse[k]].page
				out[parse[k]] = store.SplitSections(p.Title, bodies[p.BodyID])
			}
		}()
	}
	wg.Wait()
	return out
}

// setIndexedBodies records the new bodies of pages indexed again under their keys: on
// PostgreSQL in one statement, on SQLite (no round trips) one update a page.
func setIndexedBodies(ctx context.Context, tx *Tx, kept []freshPage) error {
	if len(kept) == 0 {
		return nil
	}
	keys, bodies := make([]int64, len(kept)), make([]int64, len(kept))
	for i, f := range kept {
		keys[i], bodies[i] = f.key, f.page.BodyID
	}
	if tx.d.postgres {
		if _, err := tx.ExecContext(ctx, `UPDATE search_pages SET body_id = u.body
			FROM unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[])) AS u(id, body) WHERE search_pages.id = u.id`, keys, bodies); err != nil {
			return fmt.Errorf("store: unable to update the search index: %w", err)
		}
		return nil
	}
	st, err := tx.PrepareContext(ctx, `UPDATE search_pages SET body_id = ? WHERE id = ?`)
	if err != nil {
		return fmt.Errorf("store: unable to update the search index: %w", err)
	}
	defer st.Close()
	for i := range keys {
		if _, err := st.ExecContext(ctx, bodies[i], keys[i]); err != nil {
			return fmt.Errorf("store: unable to update the search index: %w", err)
		}
	}
	return nil
}

// searchKeys answers a space's organization and the key its next indexed page takes, giving the
// space its key in the index the first time. One read when the space has its key.
func searchKeys(ctx context.Context, tx *Tx, spaceID string) (orgID string, nextKey int64, err error) {
	read := func() error {
		return tx.QueryRowContext(ctx, `SELECT sp.organization_id,
				(SELECT COALESCE(max(p.id) + 1, k.key << 34) FROM search_pages p WHERE p.id BETWEEN k.key << 34 AND ((k.key + 1) << 34) - 1)
			FROM spaces sp JOIN search_spaces k ON k.space_id = sp.id WHERE sp.id = ?`, spaceID).Scan(&orgID, &nextKey)
	}
	err = read()
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO search_spaces (space_id) VALUES (?) ON CONFLICT DO NOTHING`, spaceID); err != nil {
			return "", 0, fmt.Errorf("store: unable to update the search index: %w", err)
		}
		err = read()
	}
	if err != nil {
		return "", 0, fmt.Errorf("store: unable to update the search index: %w", err)
	}
	return orgID, nextKey, nil
}

// reindexSpace rebuilds a space's index from its current revision (after a transfer changed its
// organization, or a restore brought it back).
func reindexSpace(ctx context.Context, tx *Tx, spaceID string) error {
	if err := unindexSpace(ctx, tx, spaceID); err != nil {
		return err
	}
	var rev string
	if err := tx.QueryRowContext(ctx, `SELECT revision_id FROM spaces WHERE id = ?`, spaceID).Scan(&rev); err != nil {
		return fmt.Errorf("store: unable to reindex space: %w", err)
	}
	pages, err := loadPages(ctx, tx, rev, false)
	if err != nil {
		return err
	}
	return indexSpace(ctx, tx, spaceID, pages)
}

// unindexSpace drops a space from the search index, and from the indexes to bring up to date
// (searchbehind.go): a space unindexed is gone from search, or about to be indexed whole.
func unindexSpace(ctx context.Context, tx *Tx, spaceID string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_sections WHERE page IN (SELECT id FROM search_pages WHERE space_id = ?)`, spaceID); err != nil {
		return fmt.Errorf("store: unable to unindex space: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM search_pages WHERE space_id = ?`, spaceID); err != nil {
		return fmt.Errorf("store: unable to unindex space: %w", err)
	}
	return markIndexCurrent(ctx, tx, spaceID)
}

// sectionFTSRows is the rows of search_fts: a section's id, title, body and scope, made a
// tsvector on PostgreSQL.
func sectionFTSRows() rowSet {
	return rowSet{table: "search_fts", cols: []string{"id", "title", "body", "scope"}, types: []colType{colInt, colText, colText, colText},
		sqlite: sqliteInsertSectionFTS, pgSelect: pgSectionFTS, pgInto: []string{"id", "tsv", "scope"}}
}

// markIndexCurrent records that a space's index reflects its current revision (searchbehind.go).
func markIndexCurrent(ctx context.Context, tx *Tx, spaceID string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE search_spaces SET behind_from = NULL WHERE space_id = ? AND behind_from IS NOT NULL`, spaceID); err != nil {
		return fmt.Errorf("store: unable to update the search index: %w", err)
	}
	return nil
}
