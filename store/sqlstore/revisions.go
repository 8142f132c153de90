package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// The content model: revisions that cost what they change.
//
// A revision is immutable content of a space: its page tree, its files and the links its pages
// hold. Revisions are not stored whole. A revision lives on a line: a sequence of revisions
// (seq 1, 2, …) in which each replaces the one before. A space's main content is one line; a
// change request writes to a line of its own, forked from main at the revision it starts from
// (or, after an update from main, at main's revision then). A line forked from another (parent
// line, parent seq) reads from there every page it has not touched itself: a revision's content
// is given by its chain, (its line, its seq), (the parent line, the fork's seq), … up to a line
// with no parent. Duplicating a space forks the copy's main line from the original's revision.
//
// Tables (migration 0008): lines; page_versions, one row per version of a page in a line, valid
// for valid_from <= seq < valid_to (openSeq while valid at the line's head), deleted for a
// tombstone that hides a page the parent line holds; page_links, the links of one page version;
// file_versions, a file added to a line at a seq (files are only ever added); page_bodies and
// blobs hold markdown and bytes, shared by every version and file that uses them.
//
// Invariants:
//   - A page's versions in one line tile [first seq that touched it, ∞): at any seq at most one
//     is valid. So a page's version in element (line, upto) of a chain is the row with
//     valid_from <= upto < valid_to, and "the line touched the page by upto" is "such a row
//     exists"; the first element of the chain that touched a page decides it (a tombstone: gone).
//   - Rows only ever change by closing: valid_to goes from openSeq to the seq of the revision
//     that replaced them, always past every existing revision of the line. Every revision that
//     exists keeps reading exactly the rows it read: revisions are immutable, and a row's page
//     fields never change, so a process may cache decoded versions by id (ids are never reused).
//   - Only the head of a line is appended to, and only by its owner: main writes (merges,
//     templates) by the space, a change request's batches by that change request. Anything else
//     starts a new line forked at the revision it builds on.
//   - A revision writes rows only for the pages it adds, changes or deletes (plus the subpages
//     whose path a move or rename changes), the files it adds and the links of the versions it
//     writes. Reading and editing go through a lazy page tree that loads only what a change
//     reaches (a page by id, a parent's children, a subtree); the pages a change request changed
//     since its base are the rows its line wrote, so a merge or an update reads and writes in
//     proportion to them. Chains are short: one element for main, two for a change request,
//     one more per generation of duplicates.
//   - Purging a space removes its lines with their rows, then the bodies and blobs nothing else
//     uses; a line a surviving duplicate forks from stays until that duplicate is purged.
//
// Nothing here needs more than tables, b-tree indexes and plain SQL: a PostgreSQL backend
// implements the same model on the same tables (and page metadata is one more column of
// page_versions).

// FindRevision returns a revision of a space with its pages (without bodies).
func (s *Store) FindRevision(ctx context.Context, spaceID, id string) (*store.Revision, error) {
	var r *store.Revision
	err := s.snapshot(ctx, func(tx *txConn) (err error) {
		r, err = findRevision(ctx, tx, spaceID, id, &s.versions)
		return err
	})
	return r, err
}

// snapshot runs reads in one read transaction, so they see one state of the database.
func (s *Store) snapshot(ctx context.Context, fn func(tx *txConn) error) error {
	tx, err := s.reader.beginRead(ctx)
	if err != nil {
		return fmt.Errorf("store: unable to begin a read: %w", err)
	}
	defer tx.Rollback()
	return fn(tx)
}

// findRevision reads a revision; cache (nil inside a write transaction, whose rows are not
// committed yet) keeps the versions read.
func findRevision(ctx context.Context, q querier, spaceID, id string, cache *versionCache) (*store.Revision, error) {
	r, ref, err := findRevisionRow(ctx, q, spaceID, id)
	if err != nil {
		return nil, err
	}
	c, err := lineChain(ctx, q, ref)
	if err != nil {
		return nil, err
	}
	v := &view{ctx: ctx, q: q, c: c, snapshot: inTransaction(q)}
	var pages []*store.RevisionPage
	if cache != nil {
		pages, err = v.allCached(cache)
	} else {
		pages, err = v.all(false)
	}
	if err != nil {
		return nil, err
	}
	r.Pages = store.TreeOrder(pages)
	return r, nil
}

// findRevisionRow reads a revision of a space without its pages, and where its line holds it.
func findRevisionRow(ctx context.Context, q querier, spaceID, id string) (*store.Revision, lineRef, error) {
	r := &store.Revision{}
	var parents, created string
	var crID sql.NullString
	var ref lineRef
	err := q.QueryRowContext(ctx, `SELECT id, space_id, type, parents, change_request_id, created_at, line_id, seq
		FROM revisions WHERE id = ? AND space_id = ?`, id, spaceID).Scan(&r.ID, &r.SpaceID, &r.Type, &parents, &crID, &created, &ref.line, &ref.upto)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ref, store.NotFound("Revision")
	}
	if err != nil {
		return nil, ref, fmt.Errorf("store: unable to find revision: %w", err)
	}
	r.ChangeRequestID = stringPtr(crID)
	r.CreatedAt = parseTime(created)
	if err := json.Unmarshal([]byte(parents), &r.Parents); err != nil {
		return nil, ref, fmt.Errorf("store: bad parents of revision %s: %w", id, err)
	}
	return r, ref, nil
}

// FindRevisionHeader returns a revision of a space without its pages.
func (s *Store) FindRevisionHeader(ctx context.Context, spaceID, id string) (*store.Revision, error) {
	r, _, err := findRevisionRow(pointRead(ctx), s.reader, spaceID, id)
	return r, err
}

// FindDocument returns a body that a page or reusable content version of the space's content holds: in one of
// the space's lines, or in a line one of them forks from (a duplicate reads what it has not
// changed from its original's line) up to the revision it forks at, so an original's later
// edits are not the duplicate's.
func (s *Store) FindDocument(ctx context.Context, spaceID string, bodyID int64) (*store.Document, error) {
	d := &store.Document{}
	err := s.reader.QueryRowContext(pointRead(ctx), `WITH RECURSIVE chain(id, upto) AS (
			SELECT id, CAST(? AS BIGINT) FROM lines WHERE space_id = ?
			UNION
			SELECT l.parent_id, l.parent_seq FROM lines l JOIN chain c ON l.id = c.id WHERE l.parent_id IS NOT NULL
		)
		SELECT b.markdown, v.path FROM page_versions v JOIN chain c ON c.id = v.line_id AND v.valid_from <= c.upto
		JOIN page_bodies b ON b.id = v.body_id
		WHERE v.body_id = ? AND v.deleted = 0
		UNION ALL
		SELECT b.markdown, '' FROM reusable_content_versions r JOIN chain c ON c.id = r.line_id AND r.valid_from <= c.upto
		JOIN page_bodies b ON b.id = r.body_id
		WHERE r.body_id = ? AND r.deleted = 0 LIMIT 1`, openSeq, spaceID, bodyID, bodyID).Scan(&d.Markdown, &d.PagePath)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Document")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find document: %w", err)
	}
	return d, nil
}

// loadPages returns a revision's pages in tree order, with bodies when asked.
func loadPages(ctx context.Context, q querier, revisionID string, bodies bool) ([]*store.RevisionPage, error) {
	v, err := newView(ctx, q, revisionID)
	if err != nil {
		return nil, err
	}
	pages, err := v.all(bodies)
	if err != nil {
		return nil, err
	}
	return store.TreeOrder(pages), nil
}

// FindPage returns a page of a revision with its body.
func (s *Store) FindPage(ctx context.Context, revisionID, pageID string) (*store.RevisionPage, error) {
	ctx = pointRead(ctx)
	v, err := newView(ctx, s.reader, revisionID)
	if err != nil {
		if store.ErrorCode(err) == store.ENOTFOUND {
			return nil, store.NotFound("RevisionPage")
		}
		return nil, err
	}
	p, err := v.page(pageID, true)
	if err != nil {
		return nil, fmt.Errorf("store: unable to find page: %w", err)
	}
	if p == nil {
		return nil, store.NotFound("RevisionPage")
	}
	return p, nil
}

// FindSubpages returns the pages under a page (by its path) in tree order, without bodies. Paths
// are unique in a revision and a subpage's path extends its parent's with "/", so the subtree is
// one range of the path index.
func (s *Store) FindSubpages(ctx context.Context, revisionID string, page *store.RevisionPage) ([]*store.RevisionPage, error) {
	v, err := newView(ctx, s.reader, revisionID)
	if err != nil {
		return nil, err
	}
	out, err := v.queryKeyed(`p.path > ? AND p.path < ?`, []any{page.Path + "/", page.Path + "0"}, false)
	if err != nil {
		return nil, fmt.Errorf("store: unable to load subpages: %w", err)
	}
	return store.TreeOrderUnder(out, page.ID), nil
}

// FindPageByPath returns the page at a path of a revision, with its body.
func (s *Store) FindPageByPath(ctx context.Context, revisionID, path string) (*store.RevisionPage, error) {
	ctx = pointRead(ctx)
	v, err := newView(ctx, s.reader, revisionID)
	if err != nil {
		if store.ErrorCode(err) == store.ENOTFOUND {
			return nil, store.Errorf(store.ENOTFOUND, "No page at path %q.", path)
		}
		return nil, err
	}
	p, err := v.ByPath(path, true)
	if err != nil {
		return nil, fmt.Errorf("store: unable to find page: %w", err)
	}
	if p == nil {
		return nil, store.Errorf(store.ENOTFOUND, "No page at path %q.", path)
	}
	return p, nil
}

// targetColumns is a link page's target as its columns store it (all NULL when it has none).
func targetColumns(t *store.PageTarget) (kind, target, space any) {
	if t == nil {
		return nil, nil, nil
	}
	switch t.Kind {
	case store.TargetURL:
		return t.Kind, t.URL, nil
	case store.TargetPage:
		if t.Space != "" {
			return t.Kind, t.Page, t.Space
		}
		return t.Kind, t.Page, nil
	}
	return t.Kind, t.Space, nil
}
