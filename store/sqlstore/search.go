package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/quire-docs/quire/store"
)

// Search covers the current revision of every space that is not deleted. A merge leaves the
// index behind the space's new revision; it is brought up to date after the commit, or by the
// search that finds it behind, before that search reads it (searchbehind.go).

// searchCandidates bounds what a query reads and ranks: the first this many matching sections
// (and titles) of the range, in index order, are its candidates; count and paging cover their
// pages. A query with this many candidates in a table is too common for relevance to tell them
// apart (a word in most rows has almost no weight in bm25), and ranking it cost what grew with
// the corpus: bm25 first counts the word's rows over the whole table, PostgreSQL's ts_rank reads
// every candidate's tsvector again. Such candidates are not ranked: they follow any ranked ones
// in index order (the order their pages were first indexed), titles still before sections.
// (Until issue 31 a query read and ranked 2,000 of each: 4 ms of bm25 on SQLite and 20 ms on
// PostgreSQL for a word in every page of 20,000.)
const searchCandidates = 500

// SearchSpace searches the current content of a space, best pages first. When all the words
// together find nothing, the last one also matches as a prefix; then any of them is enough.
func (s *Store) SearchSpace(ctx context.Context, spaceID, query string, p store.Page) (store.List[*store.SearchPage], error) {
	offset, err := searchOffset(p)
	if err != nil {
		return store.List[*store.SearchPage]{}, err
	}
	empty := store.List[*store.SearchPage]{Items: []*store.SearchPage{}}
	scope := searchScope{space: spaceID, hi: math.MaxInt64}
	if !s.d.postgres { // PostgreSQL reads the space's key in the search itself: a round trip less
		var key int64
		var behind bool
		err = s.reader.QueryRowContext(ctx, `SELECT key, behind_from IS NOT NULL FROM search_spaces WHERE space_id = ?`, spaceID).Scan(&key, &behind)
		if errors.Is(err, sql.ErrNoRows) {
			return empty, nil
		}
		if err != nil {
			return empty, fmt.Errorf("store: unable to search: %w", err)
		}
		if behind { // a merge left the index behind: it is brought up to date first (searchbehind.go)
			if err := s.searchCurrent(ctx, []string{spaceID}); err != nil {
				return empty, err
			}
		}
		scope.lo, scope.hi = key<<40, (key+1)<<40-1
	} else if err := s.searchCurrentIn(ctx, spaceID, ""); err != nil {
		return empty, err
	}
	found, err := s.searchCandidates(ctx, scope, query)
	if err != nil || len(found.keys) == 0 {
		return empty, err
	}
	keys := found.keys
	window := keys[min(offset, len(keys)):min(len(keys), offset+p.Size())]
	pages, err := s.searchHits(ctx, window, found)
	if err != nil {
		return empty, err
	}
	out := store.List[*store.SearchPage]{Count: len(keys), Items: pages}
	if offset+len(window) < len(keys) {
		out.Next = store.EncodeCursor(strconv.Itoa(offset + len(window)))
	}
	return out, nil
}

// pagesPerSpace is how many pages an organization search answers per space.
const pagesPerSpace = 10

// SearchOrganization searches the current content of every space of an organization: spaces
// ranked by their best page, each with its best pages.
func (s *Store) SearchOrganization(ctx context.Context, orgID, query string, vis *store.Visible, p store.Page) (store.List[*store.SearchSpaceHits], error) {
	offset, err := searchOffset(p)
	if err != nil {
		return store.List[*store.SearchSpaceHits]{}, err
	}
	empty := store.List[*store.SearchSpaceHits]{Items: []*store.SearchSpaceHits{}}
	if err := s.searchCurrentIn(ctx, "", orgID); err != nil {
		return empty, err
	}
	found, err := s.searchCandidates(ctx, searchScope{org: orgID, hi: math.MaxInt64}, query)
	if err != nil || len(found.keys) == 0 {
		return empty, err
	}
	readable, err := s.readableSearchSpaces(ctx, orgID, vis)
	if err != nil {
		return empty, err
	}
	var order []int64 // space keys, by their best page
	bySpace := map[int64][]int64{}
	for _, k := range found.keys {
		sk := k >> 34
		if readable != nil && !readable[sk] {
			continue
		}
		if _, ok := bySpace[sk]; !ok {
			order = append(order, sk)
		}
		if len(bySpace[sk]) < pagesPerSpace {
			bySpace[sk] = append(bySpace[sk], k)
		}
	}
	window := order[min(offset, len(order)):min(len(order), offset+p.Size())]
	var wanted []int64
	for _, sk := range window {
		wanted = append(wanted, bySpace[sk]...)
	}
	pages, err := s.searchHits(ctx, wanted, found)
	if err != nil {
		return empty, err
	}
	out := store.List[*store.SearchSpaceHits]{Count: len(order), Items: make([]*store.SearchSpaceHits, 0, len(window))}
	// pages come in window order, a space's pages together, its best page first.
	for _, pg := range pages {
		if n := len(out.Items); n == 0 || out.Items[n-1].SpaceID != pg.SpaceID {
			out.Items = append(out.Items, &store.SearchSpaceHits{SpaceID: pg.SpaceID, Score: pg.Score})
		}
		last := out.Items[len(out.Items)-1]
		last.Pages = append(last.Pages, pg)
	}
	if offset+len(window) < len(order) {
		out.Next = store.EncodeCursor(strconv.Itoa(offset + len(window)))
	}
	return out, nil
}

// searchOffset reads a ranked list's cursor: ranked results page by offset, the number of items
// already answered.
func searchOffset(p store.Page) (int, error) {
	cur, err := store.DecodeCursor(p.Cursor, 1)
	if err != nil || cur == nil {
		return 0, err
	}
	n, err := strconv.Atoi(cur[0])
	if err != nil || n < 0 {
		return 0, store.FieldErrorf("page", "not a page cursor this list answered")
	}
	return n, nil
}

// searchFound is what a query found: the keys of the matching pages, best first, and for each
// page its matching sections, whether its title matched and its score (store.SearchPage.Score),
// with each matching section's score by section id.
type searchFound struct {
	keys         []int64
	sections     map[int64][]int64
	inTitle      map[int64]bool
	score        map[int64]float64
	sectionScore map[int64]float64
	rank         map[int64]int // one-based position in keys
}

// searchScope is where a search looks: one space (on SQLite its range of section keys, read
// first; PostgreSQL reads it in the search), or every space of an organization (org).
type searchScope struct {
	org, space string
	lo, hi     int64
}

// searchCandidates finds the pages matching a query within a scope. Pages whose title matches rank first; the rest by the best bm25 rank
// of their sections. Engine ranks are lower-is-better (bm25, or ts_rank negated): the scores
// negate them back.
func (s *Store) searchCandidates(ctx context.Context, scope searchScope, query string) (*searchFound, error) {
	words := store.SearchTokens(query)
	if len(words) == 0 {
		return &searchFound{}, nil
	}
	run := func(either, prefix bool) (*searchFound, error) {
		titleRank, sectionRank, err := s.searchMatches(ctx, scope, words, either, prefix)
		if err != nil {
			return nil, err
		}
		best := make(map[int64]float64, len(sectionRank)+len(titleRank))
		sections := make(map[int64][]int64, len(sectionRank)+len(titleRank))
		sectionScore := make(map[int64]float64, len(sectionRank))
		for _, h := range sectionRank {
			pg := h.id >> 6
			if r, ok := best[pg]; !ok || h.rank < r {
				best[pg] = h.rank
			}
			sections[pg] = append(sections[pg], h.id)
			sectionScore[h.id] = store.SearchScore(-h.rank)
		}
		inTitle := make(map[int64]float64, len(titleRank))
		for _, h := range titleRank {
			inTitle[h.id] = h.rank
			if _, ok := best[h.id]; !ok {
				best[h.id] = h.rank
				sections[h.id] = []int64{h.id << 6} // the page's first section, for its text
			}
		}
		// Sorted on values read once: a comparison that looked them up in the maps cost
		// four lookups, 90,000 for 2,000 candidates (issue 31).
		type candidate struct {
			key         int64
			titled      bool
			title, best float64
		}
		cands := make([]candidate, 0, len(best))
		for pg, b := range best {
			t, ok := inTitle[pg]
			cands = append(cands, candidate{key: pg, titled: ok, title: t, best: b})
		}
		slices.SortFunc(cands, func(a, b candidate) int {
			switch {
			case a.titled != b.titled:
				if a.titled {
					return -1
				}
				return 1
			case a.titled && a.title != b.title:
				return cmp.Compare(a.title, b.title)
			case a.best != b.best:
				return cmp.Compare(a.best, b.best)
			}
			return cmp.Compare(a.key, b.key)
		})
		found := &searchFound{keys: make([]int64, len(cands)), sections: sections, sectionScore: sectionScore,
			inTitle: make(map[int64]bool, len(inTitle)), score: make(map[int64]float64, len(cands)), rank: make(map[int64]int, len(cands))}
		for i, c := range cands {
			found.keys[i] = c.key
			found.rank[c.key] = i + 1
			if c.titled {
				found.inTitle[c.key] = true
				found.score[c.key] = 1 + store.SearchScore(-c.title)
			} else {
				found.score[c.key] = store.SearchScore(-c.best)
			}
		}
		return found, nil
	}
	// All the words; then the last one as a prefix too; then any of them.
	found, err := run(false, false)
	if err == nil && len(found.keys) == 0 {
		found, err = run(false, true)
	}
	if err == nil && len(found.keys) == 0 && len(words) > 1 {
		found, err = run(true, true)
	}
	return found, err
}

// searchHit is a matching title (by page key) or section (by section key) and its engine rank,
// lower is better; 0, below every ranked match, when the query was too common to rank
// (searchCandidates).
type searchHit struct {
	id   int64
	rank float64
}

// searchMatches finds the titles and the sections matching the words within a scope: two
// statements on SQLite, one round trip on PostgreSQL.
func (s *Store) searchMatches(ctx context.Context, scope searchScope, words []string, either, prefix bool) (titles, sections []searchHit, err error) {
	limit := searchCandidates
	if s.candidateBound != 0 {
		limit = s.candidateBound
	}
	scan := func(sc scanner) (searchHit, error) {
		var h searchHit
		var rank sql.NullFloat64
		err := sc.Scan(&h.id, &rank)
		h.rank = rank.Float64
		return h, err
	}
	if !s.d.postgres {
		expr, lo, hi := ftsQuery(scope.org, words, either, prefix), scope.lo, scope.hi
		titles, err = queryAll(ctx, s.reader, "search hits", sqliteSearchTitles, []any{expr, lo >> 6, hi >> 6, limit}, scan)
		if err != nil {
			return nil, nil, err
		}
		sections, err = queryAll(ctx, s.reader, "search hits", sqliteSearchSections, []any{expr, lo, hi, limit}, scan)
		return titles, sections, err
	}
	org := ""
	if scope.org != "" {
		org = "o" + scope.org
	}
	titles, sections = []searchHit{}, []searchHit{}
	q, args := s.d.pg(pgSearch, []any{tsQuery(words, either, prefix), scope.space, limit, org})
	if s.replan != nil { // planned with its words each time (PlanEachTime)
		args = append([]any{s.replan}, args...)
	}
	err = queryEach(ctx, s.reader.pool, "search hits", q, args, func(sc scanner) error {
		var table int
		var h searchHit
		var rank sql.NullFloat64
		if err := sc.Scan(&table, &h.id, &rank); err != nil {
			return err
		}
		h.rank = rank.Float64
		if table == 0 {
			titles = append(titles, h)
		} else {
			sections = append(sections, h)
		}
		return nil
	})
	return titles, sections, err
}

// searchHits loads the pages of search hits, in the order of keys, each with its matching
// sections (in the order found) and its scores: one query whatever the number of hits, which
// reads no more of a section's body than its snippet needs, while another connection reads their
// descriptions, ancestors and link targets (readSearchTree), which need only their keys.
func (s *Store) searchHits(ctx context.Context, keys []int64, found *searchFound) ([]*store.SearchPage, error) {
	if len(keys) == 0 {
		return []*store.SearchPage{}, nil
	}
	sections := found.sections
	var sectionIDs []int64
	for _, k := range keys {
		sectionIDs = append(sectionIDs, sections[k]...)
	}
	inSections, args := inList(s.reader, "s.id", sectionIDs)
	inPages, pageArgs := inList(s.reader, "p.id", keys)
	pages := make(map[int64]*store.SearchPage, len(keys))
	secs := make(map[int64]store.SearchSection, len(sectionIDs))
	var tree searchTree
	var treeErr error
	treeRead := make(chan struct{})
	go func() {
		defer close(treeRead)
		tree, treeErr = s.readSearchTree(ctx, keys)
	}()
	err := queryEach(ctx, s.reader, "search hits", `SELECT p.id, p.space_id, p.page_id, p.title, p.path, s.id, s.anchor, s.title,
		substr(s.body, 1, `+strconv.Itoa(snippetRunes+1)+`)
		FROM search_pages p
		LEFT JOIN search_sections s ON s.page = p.id AND `+inSections+` WHERE `+inPages, append(args, pageArgs...), func(sc scanner) error {
		var key int64
		var id sql.NullInt64
		var anchor, title, body sql.NullString
		sp := &store.SearchPage{Sections: []store.SearchSection{}}
		if err := sc.Scan(&key, &sp.SpaceID, &sp.PageID, &sp.Title, &sp.Path, &id, &anchor, &title, &body); err != nil {
			return err
		}
		if _, ok := pages[key]; !ok {
			pages[key] = sp
		}
		if id.Valid {
			secs[id.Int64] = store.SearchSection{Anchor: anchor.String, Title: title.String, Body: store.Shorten(body.String, snippetRunes)}
		}
		return nil
	})
	<-treeRead
	if err == nil {
		err = treeErr
	}
	if err != nil {
		return nil, err
	}
	out := make([]*store.SearchPage, 0, len(keys))
	for _, k := range keys {
		pg, ok := pages[k]
		if !ok {
			continue
		}
		pg.Score, pg.Rank, pg.MatchedTitle = found.score[k], found.rank[k], found.inTitle[k]
		for _, id := range sections[k] {
			if sec, ok := secs[id]; ok {
				sec.Score, sec.Matched = found.sectionScore[id]
				pg.Sections = append(pg.Sections, sec)
			}
		}
		out = append(out, pg)
	}
	tree.fill(out)
	return out, nil
}

// snippetRunes is the length of a section's text in a hit (store.Shorten): the query reads one
// character more, so that Shorten still sees that the text goes on.
const snippetRunes = 300

// readableSearchSpaces returns the search keys of the organization's spaces a person reads (nil
// when vis is: all of them).
func (s *Store) readableSearchSpaces(ctx context.Context, orgID string, vis *store.Visible) (map[int64]bool, error) {
	if vis == nil {
		return nil, nil
	}
	cond, args := visibleCond("s", vis)
	out := map[int64]bool{}
	err := queryEach(ctx, s.reader, "readable spaces", `SELECT k.key FROM search_spaces k JOIN spaces s ON s.id = k.space_id
		WHERE s.organization_id = ? AND `+cond, append([]any{orgID}, args...), func(sc scanner) error {
		var k int64
		if err := sc.Scan(&k); err != nil {
			return err
		}
		out[k] = true
		return nil
	})
	return out, err
}
