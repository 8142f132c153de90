package sqlstore

import (
	"context"
	"database/sql"
	"maps"
	"slices"
	"strings"

	"github.com/quire-docs/quire/store"
)

// searchTree holds the pages of search hits and their ancestors in their spaces' current
// revisions, by space and page id.
type searchTree map[[2]string]searchNode

type searchNode struct {
	title, description string
	parent             *string
	link               *store.PageTarget
}

// readSearchTree reads the tree of the search hits of keys. On PostgreSQL it is one statement
// (searchAncestrySQL) whatever the number of hits, spaces, levels of the page tree or elements of
// the revisions' chains: a round trip per level and element cost more than the statement. On
// SQLite, where a statement costs no round trip, such a statement (with correlated subqueries:
// SQLite has no LATERAL) cost 4 to 10 times the CPU of reading a level at a time (0.8 to 2.5 ms
// against 0.22 ms for 50 hits two levels deep at 100,000 pages, issue 31), so SQLite reads by
// level (readSearchTreeByLevel).
func (s *Store) readSearchTree(ctx context.Context, keys []int64) (searchTree, error) {
	if !s.d.postgres {
		return s.readSearchTreeByLevel(ctx, keys)
	}
	known := searchTree{}
	in, args := inList(s.reader, "p.id", keys)
	err := queryEach(ctx, s.reader, "the ancestors of search hits", strings.Replace(searchAncestryQuery, "$hits", in, 1), args, func(sc scanner) error {
		var space, id string
		var n searchNode
		var parent, kind, target, targetSpace sql.NullString
		var pageType string
		var deleted bool
		if err := sc.Scan(&space, &id, &parent, &n.title, &n.description, &pageType, &kind, &target, &targetSpace, &deleted); err != nil {
			return err
		}
		if !deleted { // a tombstone: the page is not in the revision
			n.parent = stringPtr(parent)
			if pageType == store.PageLink {
				n.link = scanTarget(kind, target, targetSpace)
			}
			known[[2]string{space, id}] = n
		}
		return nil
	})
	return known, err
}

// readSearchTreeByLevel is readSearchTree a level at a time: the hits' spaces and revisions, then
// per space the hits' pages and their parents a level at a time (view.Pages: a statement per
// element of the chain).
func (s *Store) readSearchTreeByLevel(ctx context.Context, keys []int64) (searchTree, error) {
	in, args := inList(s.reader, "p.id", keys)
	want := map[[2]string][]string{} // page ids by space and revision
	err := queryEach(ctx, s.reader, "search hits", `SELECT p.space_id, sp.revision_id, p.page_id FROM search_pages p
		JOIN spaces sp ON sp.id = p.space_id WHERE `+in, args, func(sc scanner) error {
		var space, rev, id string
		err := sc.Scan(&space, &rev, &id)
		want[[2]string{space, rev}] = append(want[[2]string{space, rev}], id)
		return err
	})
	if err != nil {
		return nil, err
	}
	known := searchTree{}
	for sr, ids := range want {
		v, err := newView(ctx, s.reader, sr[1])
		if err != nil {
			return nil, err
		}
		for len(ids) > 0 {
			got, err := v.Pages(ids, false)
			if err != nil {
				return nil, err
			}
			for id, p := range got {
				n := searchNode{title: p.Title, description: p.Description, parent: p.ParentID}
				if p.Kind() == store.PageLink {
					n.link = p.Target
				}
				known[[2]string{sr[0], id}] = n
			}
			next := map[string]bool{}
			for _, p := range got {
				if p.ParentID != nil {
					if _, ok := known[[2]string{sr[0], *p.ParentID}]; !ok {
						next[*p.ParentID] = true
					}
				}
			}
			ids = slices.Collect(maps.Keys(next))
		}
	}
	return known, nil
}

// fill gives search hits their description, ancestors (from the top level down) and link target.
func (known searchTree) fill(hits []*store.SearchPage) {
	for _, h := range hits {
		h.Ancestors = []store.SearchAncestor{}
		n, ok := known[[2]string{h.SpaceID, h.PageID}]
		if !ok {
			continue // changed since the index was read: no more than its title and path
		}
		h.Description, h.Link = n.description, n.link
		for seen := 0; n.parent != nil && seen < len(known); seen++ {
			id := *n.parent
			if n, ok = known[[2]string{h.SpaceID, id}]; !ok {
				break
			}
			h.Ancestors = append(h.Ancestors, store.SearchAncestor{PageID: id, Title: n.title})
		}
		slices.Reverse(h.Ancestors)
	}
}

// searchAncestrySQL reads, on PostgreSQL, the pages of search hits ($hits: a condition on their
// search_pages rows p) and all their ancestors in their spaces' current revisions, by recursion on
// both the revisions' chains (c, as readChain) and the page tree (a). A page's row in a revision
// is the one valid at the closest element of the chain that has one, as view.Pages reads it
// ($closest, a LATERAL subquery per page, which the LIMIT keeps a probe of page_versions_page for
// each element); a tombstone means the page is deleted, and the walk stops at it. The revisions
// are probed by id too (a LATERAL that OFFSET 0 keeps from being flattened: a semi-join scanned
// every revision of the database). UNION keeps the walk finite whatever the rows. Each row
// answers its space, page id, parent, title, description, kind and link target, and whether it is
// a tombstone.
const searchAncestrySQL = `WITH RECURSIVE
	h(space_id, rev, page_id) AS (SELECT p.space_id, sp.revision_id, p.page_id FROM search_pages p
		JOIN spaces sp ON sp.id = p.space_id WHERE $hits),
	c(rev, depth, line, upto) AS (SELECT r.id, 0, r.line_id, r.seq FROM (SELECT DISTINCT rev FROM h) x
		CROSS JOIN LATERAL (SELECT id, line_id, seq FROM revisions WHERE id = x.rev OFFSET 0) r
		UNION ALL SELECT c.rev, c.depth + 1, l.parent_id, l.parent_seq FROM c JOIN lines l ON l.id = c.line
		WHERE l.parent_id IS NOT NULL),
	a(space_id, rev, page_id, parent_id, title, description, page_type, target_kind, target, target_space, deleted) AS (
		SELECT h.space_id, h.rev, v.* FROM h
		CROSS JOIN LATERAL ($closest c.rev = h.rev AND v.page_id = h.page_id ORDER BY c.depth LIMIT 1) v
		UNION
		SELECT a.space_id, a.rev, v.* FROM a
		CROSS JOIN LATERAL ($closest c.rev = a.rev AND v.page_id = a.parent_id ORDER BY c.depth LIMIT 1) v
		WHERE a.deleted = 0 AND a.parent_id IS NOT NULL)
	SELECT space_id, page_id, parent_id, title, description, page_type, target_kind, target, target_space, deleted FROM a`

// searchAncestryQuery is searchAncestrySQL with the rows of a page valid at the elements of c
// written out.
var searchAncestryQuery = strings.Replace(searchAncestrySQL, "$closest", `SELECT v.page_id, v.parent_id, v.title,
	v.description, v.page_type, v.target_kind, v.target, v.target_space, v.deleted FROM c JOIN page_versions v
	ON v.line_id = c.line AND v.valid_from <= c.upto AND v.valid_to > c.upto WHERE`, 2)
