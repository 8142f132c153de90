package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/quire-docs/quire/store"
)

// openSeq is valid_to of a page version still valid at its line's head.
const openSeq = int64(1) << 62

// revisionChain returns the chain of a revision ("" : the empty chain).
func revisionChain(ctx context.Context, q querier, revisionID string) (chain, error) {
	if revisionID == "" {
		return nil, nil
	}
	tx, _ := q.(*Tx)
	if tx != nil {
		if c, ok := tx.chains[revisionID]; ok {
			return c, nil
		}
	}
	c, err := readChain(ctx, q, chainOfRevision, revisionID)
	if err == nil && len(c) == 0 {
		return nil, store.NotFound("Revision")
	}
	if err == nil && tx != nil {
		if tx.chains == nil {
			tx.chains = map[string]chain{}
		}
		c = slices.Clip(c)
		tx.chains[revisionID] = c
	}
	return c, err
}

// validAt is the SQL condition that page version p is valid at an element of the chain. At the
// head of a line the versions valid are the open ones: an equality the index answers directly.
// That holds only while the line's head stays what the chain read, so only in a transaction.
func (v *view) validAt(el lineRef) (string, []any) {
	if v.snapshot && el.upto == el.head {
		return `p.line_id = ? AND p.valid_to = ?`, []any{el.line, openSeq}
	}
	return `p.line_id = ? AND p.valid_to > ? AND p.valid_from <= ?`, []any{el.line, el.upto, el.upto}
}

// keyedValidAt is validAt for a read that names its pages by a key of their own index (ids, or
// paths): one the indexes that lead with the line and then a seq (valid versions, versions by
// seq) must not answer. Its seqs are written so that no index takes them (valid_to + 0), and the
// read goes through the key's index (line_id, page_id or line_id, path), filtering the versions
// of those pages. PostgreSQL's generic plan of a prepared read takes a line for the average line
// (a change request's line holds a few rows; main's, every page), so it found a range of seqs
// as selective as a list of ids: after the sixth run on a connection a read of one page walked
// main's 20,000 current versions (0.8 ms became 35 ms; merges of 10 pages took 50 ms once a
// space had lived through 700 change requests). TestKeyedPageReadsProbeTheirKey checks the
// generic plans.
func (v *view) keyedValidAt(el lineRef) (string, []any) {
	if v.snapshot && el.upto == el.head {
		return `p.line_id = ? AND p.valid_to + 0 = ?`, []any{el.line, openSeq}
	}
	return `p.line_id = ? AND p.valid_to + 0 > ? AND p.valid_from + 0 <= ?`, []any{el.line, el.upto, el.upto}
}

// lineChain returns the chain that starts at a line read up to a seq.
func lineChain(ctx context.Context, q querier, ref lineRef) (chain, error) {
	c, err := readChain(ctx, q, chainOfLine, ref.line, ref.upto)
	if err == nil && len(c) == 0 {
		return nil, fmt.Errorf("store: unable to read line %d: no such line", ref.line)
	}
	return c, err
}

// A chain is read in one statement, a line's ancestors found by recursion (a round trip per
// line cost PostgreSQL a dozen per merge). The first element is a revision's line and seq, or
// a line and seq given.
const (
	chainSteps = ` UNION ALL SELECT c.depth + 1, l.parent_id, l.parent_seq FROM c JOIN lines l ON l.id = c.line
		WHERE l.parent_id IS NOT NULL)
		SELECT c.line, c.upto, l.head FROM c JOIN lines l ON l.id = c.line ORDER BY c.depth`
	chainOfRevision = `WITH RECURSIVE c(depth, line, upto) AS (SELECT 0, line_id, seq FROM revisions WHERE id = ?` + chainSteps
	chainOfLine     = `WITH RECURSIVE c(depth, line, upto) AS (SELECT 0, CAST(? AS BIGINT), CAST(? AS BIGINT)` + chainSteps
)

func readChain(ctx context.Context, q querier, query string, args ...any) (chain, error) {
	var c chain
	err := queryEach(ctx, q, "a revision's lines", query, args, func(sc scanner) error {
		var ref lineRef
		err := sc.Scan(&ref.line, &ref.upto, &ref.head)
		c = append(c, ref)
		return err
	})
	return c, err
}

// view reads the pages of one revision. It keeps the context of the call that made it: a view
// lives only within that call, and it is the PageSource the page tree's pure logic reads lazily
// through methods that take no context (as a *sql.Tx keeps the context it began with).
type view struct {
	ctx      context.Context
	q        querier
	c        chain
	snapshot bool // q is a transaction: what it reads does not move under it
	// rows holds the rows the view read its pages from, by page id (one revision holds one row
	// per page); tombs the tombstones it found pages deleted by: a page brought back on the line
	// that deleted it must end its tombstone.
	rows, tombs map[string]pageRow
}

// pageRow is the page_versions row a page was read from, with its line and the body and path
// the page had there: a page written again with both unchanged keeps that row's links.
type pageRow struct {
	version, line, body int64
	path                string
}

// record notes the row a page of the view was read from (a tombstone when deleted).
func (v *view) record(p *store.RevisionPage, row pageRow, deleted bool) {
	m := &v.rows
	if deleted {
		m = &v.tombs
	}
	if *m == nil {
		*m = map[string]pageRow{}
	}
	(*m)[p.ID] = row
}

func newView(ctx context.Context, q querier, revisionID string) (*view, error) {
	c, err := revisionChain(ctx, q, revisionID)
	if err != nil {
		return nil, err
	}
	return &view{ctx: ctx, q: q, c: c, snapshot: inTransaction(q)}, nil
}

func inTransaction(q querier) bool {
	switch q.(type) {
	case *Tx, *txConn:
		return true
	}
	return false
}

// shadowed is the SQL condition that page version p is not hidden by a closer element of the
// chain than element i (one that touched the page).
func (v *view) shadowed(i int) (string, []any) {
	var b strings.Builder
	var args []any
	for j := 0; j < i; j++ {
		b.WriteString(` AND NOT EXISTS (SELECT 1 FROM page_versions x WHERE x.line_id = ? AND x.page_id = p.page_id AND x.valid_from <= ?)`)
		args = append(args, v.c[j].line, v.c[j].upto)
	}
	return b.String(), args
}

// query returns the pages of the revision matching cond (on page version p), with bodies when
// asked. Each element of the chain answers for the pages no closer element touched.
func (v *view) query(cond string, args []any, bodies bool) ([]*store.RevisionPage, error) {
	return v.queryValid(v.validAt, cond, args, bodies)
}

// queryKeyed is query for a cond on a key with an index of its own (keyedValidAt).
func (v *view) queryKeyed(cond string, args []any, bodies bool) ([]*store.RevisionPage, error) {
	return v.queryValid(v.keyedValidAt, cond, args, bodies)
}

func (v *view) queryValid(validAt func(lineRef) (string, []any), cond string, args []any, bodies bool) ([]*store.RevisionPage, error) {
	var out []*store.RevisionPage
	for i, el := range v.c {
		shadow, sargs := v.shadowed(i)
		valid, vargs := validAt(el)
		q := versionSelect(bodies) + ` WHERE ` + valid + ` AND p.deleted = 0 AND ` + cond + shadow
		all := append(vargs, args...)
		rows, err := v.q.QueryContext(v.ctx, q, append(all, sargs...)...)
		if err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		if err := scanVersions(rows, bodies, el.line, func(p *store.RevisionPage, row pageRow, _ bool) {
			v.record(p, row, false)
			out = append(out, p)
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// all returns every page of the revision (unordered). The closer elements are read first and
// hide what they touched from the farther ones, in Go rather than with a probe per row.
func (v *view) all(bodies bool) ([]*store.RevisionPage, error) {
	var out []*store.RevisionPage
	seen := map[string]bool{}
	for i, el := range v.c {
		valid, vargs := v.validAt(el)
		rows, err := v.q.QueryContext(v.ctx, versionSelect(bodies)+` WHERE `+valid, vargs...)
		if err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		last := i == len(v.c)-1
		if err := scanVersions(rows, bodies, el.line, func(p *store.RevisionPage, row pageRow, deleted bool) {
			if seen[p.ID] {
				return
			}
			if !last {
				seen[p.ID] = true
			}
			if !deleted {
				v.record(p, row, false)
				out = append(out, p)
			}
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Pages returns the pages of the revision with the given ids (those it holds), by id.
func (v *view) Pages(ids []string, bodies bool) (map[string]*store.RevisionPage, error) {
	out := make(map[string]*store.RevisionPage, len(ids))
	rest := ids
	for _, el := range v.c {
		if len(rest) == 0 {
			break
		}
		touched := map[string]bool{}
		for start := 0; start < len(rest); start += 500 {
			in, inArgs := inList(v.q, "p.page_id", rest[start:min(start+500, len(rest))])
			// + 0: the ids' index answers (keyedValidAt).
			rows, err := v.q.QueryContext(v.ctx, versionSelect(bodies)+` WHERE p.line_id = ? AND p.valid_from + 0 <= ? AND p.valid_to + 0 > ?
				AND `+in, append([]any{el.line, el.upto, el.upto}, inArgs...)...)
			if err != nil {
				return nil, fmt.Errorf("store: unable to load pages: %w", err)
			}
			if err := scanVersions(rows, bodies, el.line, func(p *store.RevisionPage, row pageRow, deleted bool) {
				touched[p.ID] = true
				v.record(p, row, deleted)
				if !deleted {
					out[p.ID] = p
				}
			}); err != nil {
				return nil, err
			}
		}
		next := rest[:0:0]
		for _, id := range rest {
			if !touched[id] {
				next = append(next, id)
			}
		}
		rest = next
	}
	return out, nil
}

// page returns one page of the revision, nil when it holds none with that id.
func (v *view) page(id string, bodies bool) (*store.RevisionPage, error) {
	m, err := v.Pages([]string{id}, bodies)
	if err != nil {
		return nil, err
	}
	return m[id], nil
}

// Children returns the pages of the revision under a parent (nil: the top level), unordered.
func (v *view) Children(parent *string) ([]*store.RevisionPage, error) {
	if parent == nil {
		return v.query(`p.parent_id IS NULL`, nil, false)
	}
	return v.query(`p.parent_id = ?`, []any{*parent}, false)
}

// ByPath returns the page of the revision at a path, nil when there is none.
func (v *view) ByPath(path string, bodies bool) (*store.RevisionPage, error) {
	pages, err := v.queryKeyed(`p.path = ?`, []any{path}, bodies)
	if err != nil || len(pages) == 0 {
		return nil, err
	}
	return pages[0], nil
}

// ByPaths returns the pages of the revision at the given paths, by path: what ByPath answers
// for each, a read per element of the chain for them all.
func (v *view) ByPaths(paths []string) (map[string]*store.RevisionPage, error) {
	out := make(map[string]*store.RevisionPage, len(paths))
	for start := 0; start < len(paths); start += 500 {
		in, args := inList(v.q, "p.path", paths[start:min(start+500, len(paths))])
		pages, err := v.queryKeyed(in, args, false)
		if err != nil {
			return nil, err
		}
		for _, p := range pages { // the closer elements' first, as ByPath takes them
			if _, ok := out[p.Path]; !ok {
				out[p.Path] = p
			}
		}
	}
	return out, nil
}

// touchedBetween returns the ids (idColumn of table: page or file versions) that may differ
// between the revisions of chains x and y: what the elements the two chains do not share
// touched. Where the chains part inside one line, what that line touched between the two seqs
// counts; chains with different roots share nothing (every row of both counts).
func touchedBetween(ctx context.Context, q querier, table, idColumn string, x, y chain, ended ...string) ([]string, error) {
	i, j := len(x)-1, len(y)-1
	type span struct{ line, lo, hi int64 }
	var spans []span
	for i >= 0 && j >= 0 && x[i].line == y[j].line {
		if x[i].upto != y[j].upto {
			spans = append(spans, span{x[i].line, min(x[i].upto, y[j].upto), max(x[i].upto, y[j].upto)})
			i, j = i-1, j-1
			break
		}
		i, j = i-1, j-1
	}
	for ; i >= 0; i-- {
		spans = append(spans, span{x[i].line, 0, x[i].upto})
	}
	for ; j >= 0; j-- {
		spans = append(spans, span{y[j].line, 0, y[j].upto})
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range spans {
		cond, args := `valid_from > ? AND valid_from <= ?`, []any{s.line, s.lo, s.hi}
		for _, col := range ended { // a row ended in the span (its file removed) counts too
			cond += ` OR ` + col + ` > ? AND ` + col + ` <= ?`
			args = append(args, s.lo, s.hi)
		}
		ids, err := queryAll(ctx, q, "the changes between revisions", `SELECT DISTINCT `+idColumn+` FROM `+table+`
			WHERE line_id = ? AND (`+cond+`)`, args, scanString)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// changedPageIDs lists the pages that may differ between two revisions (a superset: a page
// touched and set back counts), in time proportional to what was written between them.
func changedPageIDs(ctx context.Context, q querier, a, b string) ([]string, error) {
	x, err := revisionChain(ctx, q, a)
	if err != nil {
		return nil, err
	}
	y, err := revisionChain(ctx, q, b)
	if err != nil {
		return nil, err
	}
	return touchedBetween(ctx, q, "page_versions", "page_id", x, y)
}

// versionSelect selects page version rows (as p) with their row id and tombstone flag, and their
// body when asked: what scanVersions reads.
func versionSelect(bodies bool) string {
	if bodies {
		return `SELECT ` + pageColumns + `, p.id, p.deleted, b.markdown FROM page_versions p JOIN page_bodies b ON b.id = p.body_id`
	}
	return `SELECT ` + pageColumns + `, p.id, p.deleted FROM page_versions p`
}

// scanVersions reads the rows of a versionSelect on one line, handing each page to fn with the
// row it was read from and whether that row is a tombstone; it closes the rows.
func scanVersions(rows *sql.Rows, bodies bool, line int64, fn func(p *store.RevisionPage, row pageRow, deleted bool)) error {
	defer rows.Close()
	for rows.Next() {
		p := &store.RevisionPage{}
		row := pageRow{line: line}
		var deleted bool
		extra := []any{&row.version, &deleted}
		if bodies {
			extra = append(extra, &p.Markdown)
		}
		if err := scanPage(rows, p, extra...); err != nil {
			return fmt.Errorf("store: unable to load pages: %w", err)
		}
		row.body, row.path = p.BodyID, p.Path
		fn(p, row, deleted)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: unable to load pages: %w", err)
	}
	return nil
}

// allCached is view.all without bodies, through the cache: per element of the chain, the ids of
// the versions valid there, then the rows of those not cached yet.
func (v *view) allCached(c *versionCache) ([]*store.RevisionPage, error) {
	var out []*store.RevisionPage
	seen := map[string]bool{}
	for i, el := range v.c {
		valid, vargs := v.validAt(el)
		rows, err := v.q.QueryContext(v.ctx, `SELECT p.id FROM page_versions p WHERE `+valid, vargs...)
		if err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: unable to load pages: %w", err)
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		found, missing := c.lookup(ids)
		if len(missing) > 0 {
			read, err := v.versionsByID(missing)
			if err != nil {
				return nil, err
			}
			c.add(read)
			for k, id := range ids {
				if found[k] == nil {
					found[k] = read[id]
				}
			}
		}
		// One allocation for the pages of the element: a large revision makes no garbage per page.
		slab := make([]store.RevisionPage, 0, len(ids))
		for _, e := range found {
			if e == nil || seen[e.page.ID] {
				continue
			}
			if i < len(v.c)-1 {
				seen[e.page.ID] = true
			}
			if !e.deleted {
				slab = append(slab, e.page)
				out = append(out, &slab[len(slab)-1])
			}
		}
	}
	return out, nil
}

// versionsByID reads page versions by row id.
func (v *view) versionsByID(ids []int64) (map[int64]*cachedVersion, error) {
	out := make(map[int64]*cachedVersion, len(ids))
	for start := 0; start < len(ids); start += 500 {
		in, args := inList(v.q, "p.id", ids[start:min(start+500, len(ids))])
		rows, err := v.q.QueryContext(v.ctx, `SELECT `+pageColumns+`, p.id, p.deleted FROM page_versions p WHERE `+in, args...)
		if err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		for rows.Next() {
			e := &cachedVersion{}
			if err := scanPage(rows, &e.page, &e.version, &e.deleted); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: unable to load pages: %w", err)
			}
			out[e.version] = e
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
	}
	return out, nil
}

// rowFinder finds the row a page being written was read from, by page id. The pages of a tree
// come from the revision it reads (src), except those listed in from: put back from another
// revision (revert_page) or taken from a side of a merge. A page found in neither is new.
type rowFinder struct {
	src  *view
	from map[string]pageRow
	// other is, for a page a merge took from one side, the other side's row: the page may have
	// merged to its body and path (an edit of a change request merged into main).
	other map[string]pageRow
}

// linksOf finds the row a page's links can be copied from: one it was read from with its body
// and path.
func (f rowFinder) linksOf(p *store.RevisionPage) (pageRow, bool) {
	if row, ok := f.find(p.ID); ok && p.BodyID == row.body && p.Path == row.path {
		return row, true
	}
	if row, ok := f.other[p.ID]; ok && p.BodyID == row.body && p.Path == row.path {
		return row, true
	}
	return pageRow{}, false
}

func (f rowFinder) find(id string) (pageRow, bool) {
	if row, ok := f.from[id]; ok {
		return row, true
	}
	if f.src == nil {
		return pageRow{}, false
	}
	row, ok := f.src.rows[id]
	return row, ok
}

// revisionLine returns the line and seq of a revision.
func revisionLine(ctx context.Context, q querier, revisionID string) (lineRef, error) {
	var ref lineRef
	err := q.QueryRowContext(ctx, `SELECT line_id, seq FROM revisions WHERE id = ?`, revisionID).Scan(&ref.line, &ref.upto)
	if errors.Is(err, sql.ErrNoRows) {
		return ref, store.NotFound("Revision")
	}
	if err != nil {
		return ref, fmt.Errorf("store: unable to read revision: %w", err)
	}
	return ref, nil
}
