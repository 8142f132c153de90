package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/quire-docs/quire/store"
)

// Links are extracted from a page's markdown when a revision is written and stored resolved:
//   /pages/<id>, /pages/<slug path>  a page (by id, else by path)
//   relative .md paths                a page, by path from the linking page's folder
//   /files/<id>                       a file
//   http(s)/mailto URLs               a URL
// A page link that resolves to nothing is stored as written: it is broken. Whether a page or a
// file target is there is decided when links are read, against that revision.

// writeLinks stores the links of newly written page versions (written: the row written for each
// page, by page id). A page whose body and path are those of a row it was read from (readFrom)
// keeps that row's links; the others' are extracted from their markdown and resolved against the
// new content.
func writeLinks(ctx context.Context, tx *Tx, changed []*store.RevisionPage, written map[string]int64, readFrom rowFinder, r store.LinkResolver) error {
	var parse []*store.RevisionPage
	var need []int64
	var copyTo, copyFrom []int64
	for _, p := range changed {
		if row, ok := readFrom.linksOf(p); ok {
			copyTo, copyFrom = append(copyTo, written[p.ID]), append(copyFrom, row.version)
			continue
		}
		parse = append(parse, p)
		if p.Markdown == "" && p.BodyID != 0 {
			need = append(need, p.BodyID)
		}
	}
	if err := copyLinks(ctx, tx, copyTo, copyFrom); err != nil {
		return err
	}
	if len(need) > 0 {
		bodies, err := loadBodies(ctx, tx, need)
		if err != nil {
			return err
		}
		for _, p := range parse {
			if p.Markdown == "" && p.BodyID != 0 {
				p.Markdown = bodies[p.BodyID]
			}
		}
	}
	links := rowSet{table: "page_links", cols: []string{"version_id", "kind", "target"}, types: []colType{colInt, colText, colText}}
	found, sections := store.PageLinksAndSections(parse, r)
	for _, l := range found {
		links.add(written[l.PageID], l.Kind, l.Target)
	}
	for i, p := range parse {
		tx.sections.put(p.BodyID, p.Title, p.Markdown, sections[i])
	}
	return links.write(ctx, tx)
}

// copyLinks gives the versions to the links of the versions from, pairwise: pages whose body and
// path are as they were keep their links. One statement (the pairs as two arrays unnested side by
// side on PostgreSQL; one JSON array of pairs on SQLite, where a statement per page cost a merge of
// 1,000 new pages a third of its time). On PostgreSQL the pairs must be typed arrays: as JSON
// text joined by position the planner could not tell how many versions it looks up and scanned
// every link of the database (28 ms at 20,000 pages) where the key finds ten.
func copyLinks(ctx context.Context, tx *Tx, to, from []int64) error {
	if len(to) == 0 {
		return nil
	}
	if tx.d.postgres {
		if _, err := tx.ExecContext(ctx, `INSERT INTO page_links (version_id, kind, target)
			SELECT u.dst, l.kind, l.target FROM unnest(CAST(? AS BIGINT[]), CAST(? AS BIGINT[])) AS u(dst, src)
			JOIN page_links l ON l.version_id = u.src`, to, from); err != nil {
			return fmt.Errorf("store: unable to copy links: %w", err)
		}
		return nil
	}
	pairs := make([][2]int64, len(to))
	for i := range to {
		pairs[i] = [2]int64{to[i], from[i]}
	}
	pj, _ := json.Marshal(pairs)
	if _, err := tx.ExecContext(ctx, `INSERT INTO page_links (version_id, kind, target)
		SELECT json_extract(n.value, '$[0]'), l.kind, l.target FROM json_each(?) n
		JOIN page_links l ON l.version_id = json_extract(n.value, '$[1]')`, string(pj)); err != nil {
		return fmt.Errorf("store: unable to copy links: %w", err)
	}
	return nil
}

// revisionLinks returns the links of a revision's pages, and its pages and files by id.
func revisionLinks(ctx context.Context, q querier, revisionID string) ([]store.Link, map[string]bool, map[string]bool, error) {
	v, err := newView(ctx, q, revisionID)
	if err != nil {
		return nil, nil, nil, err
	}
	pages, err := v.all(false)
	if err != nil {
		return nil, nil, nil, err
	}
	versions := make(map[int64]bool, len(pages))
	pageSet := make(map[string]bool, len(pages))
	for _, p := range pages {
		versions[v.rows[p.ID].version] = true
		pageSet[p.ID] = true
	}
	var links []store.Link
	for _, el := range v.c {
		if err := queryEach(ctx, q, "links", `SELECT p.id, p.page_id, l.kind, l.target FROM page_versions p
			JOIN page_links l ON l.version_id = p.id
			WHERE p.line_id = ? AND p.valid_to > ? AND p.valid_from <= ?`, []any{el.line, el.upto, el.upto}, func(sc scanner) error {
			var version int64
			var l store.Link
			err := sc.Scan(&version, &l.PageID, &l.Kind, &l.Target)
			if err == nil && versions[version] {
				links = append(links, l)
			}
			return err
		}); err != nil {
			return nil, nil, nil, err
		}
	}
	files, err := revisionFiles(ctx, q, revisionID, "1 = 1")
	if err != nil {
		return nil, nil, nil, err
	}
	fileSet := make(map[string]bool, len(files))
	for _, f := range files {
		fileSet[f.ID] = true
	}
	if err := addOpenAPISpecs(ctx, q, revisionID, links, fileSet); err != nil {
		return nil, nil, nil, err
	}
	return links, pageSet, fileSet, nil
}

// FindLinks lists the targets of a revision's links, by kind and target, with the stats of all
// of them (whatever the status filter).
func (s *Store) FindLinks(ctx context.Context, revisionID string, f store.LinkFilter, p store.Page) (store.List[*store.LinkTarget], store.LinkStats, error) {
	var stats store.LinkStats
	cur, err := store.DecodeCursor(p.Cursor, 2)
	if err != nil {
		return store.List[*store.LinkTarget]{}, stats, err
	}
	var links []store.Link
	var pages, files map[string]bool
	if err := s.snapshot(ctx, func(tx *txConn) (err error) {
		links, pages, files, err = revisionLinks(ctx, tx, revisionID)
		return err
	}); err != nil {
		return store.List[*store.LinkTarget]{}, stats, err
	}
	byTarget := map[[2]string]*store.LinkTarget{}
	var targets []*store.LinkTarget
	for _, l := range links {
		if f.PageID != nil && l.PageID != *f.PageID {
			continue
		}
		key := [2]string{l.Kind, l.Target}
		lt := byTarget[key]
		if lt == nil {
			lt = &store.LinkTarget{Kind: l.Kind, Target: l.Target, Status: store.LinkStatus(l, pages, files, f.AppPrefix)}
			byTarget[key] = lt
			targets = append(targets, lt)
		}
		lt.Sources = append(lt.Sources, l.PageID)
		stats.Total++
		if lt.Status == "broken" {
			stats.Broken++
		}
	}
	sort.Slice(targets, func(i, j int) bool {
		if targets[i].Kind != targets[j].Kind {
			return targets[i].Kind < targets[j].Kind
		}
		return targets[i].Target < targets[j].Target
	})
	count := 0
	var items []*store.LinkTarget
	for _, lt := range targets {
		if f.Status != nil && lt.Status != *f.Status {
			continue
		}
		count++
		sort.Strings(lt.Sources)
		if cur != nil && (lt.Kind < cur[0] || (lt.Kind == cur[0] && lt.Target <= cur[1])) {
			continue
		}
		if len(items) <= p.Size() {
			items = append(items, lt)
		}
	}
	return store.FinishPage(items, p.Size(), count, func(lt *store.LinkTarget) []string { return []string{lt.Kind, lt.Target} }), stats, nil
}

// CountLinksBrokenSince counts the broken links of a revision that were not broken (or not
// there) in another: the links a change request broke.
func (s *Store) CountLinksBrokenSince(ctx context.Context, revisionID, baseID string) (int, error) {
	var links, baseLinks []store.Link
	var pages, files, basePages, baseFiles map[string]bool
	if err := s.snapshot(ctx, func(tx *txConn) (err error) {
		if links, pages, files, err = revisionLinks(ctx, tx, revisionID); err != nil {
			return err
		}
		baseLinks, basePages, baseFiles, err = revisionLinks(ctx, tx, baseID)
		return err
	}); err != nil {
		return 0, err
	}
	brokenBefore := map[store.Link]bool{}
	for _, l := range baseLinks {
		if store.LinkStatus(l, basePages, baseFiles, "") == "broken" {
			brokenBefore[l] = true
		}
	}
	n := 0
	for _, l := range links {
		if store.LinkStatus(l, pages, files, "") == "broken" && !brokenBefore[l] {
			n++
		}
	}
	return n, nil
}

// FindBacklinks lists the pages of a revision that link to a page or a file, by page id: the
// page versions holding such a link, kept when they are the versions the revision holds.
func (s *Store) FindBacklinks(ctx context.Context, revisionID, kind, target string, p store.Page) (store.List[string], error) {
	cur, err := store.DecodeCursor(p.Cursor, 1)
	if err != nil {
		return store.List[string]{}, err
	}
	v, err := newView(ctx, s.reader, revisionID)
	if err != nil {
		return store.List[string]{}, err
	}
	candidates := map[int64]string{}
	var ids []string
	if err := queryEach(ctx, s.reader, "backlinks", `SELECT p.id, p.page_id FROM page_links l JOIN page_versions p ON p.id = l.version_id
		WHERE l.kind = ? AND l.target = ?`, []any{kind, target}, func(sc scanner) error {
		var version int64
		var id string
		err := sc.Scan(&version, &id)
		candidates[version] = id
		ids = append(ids, id)
		return err
	}); err != nil {
		return store.List[string]{}, err
	}
	held, err := v.Pages(ids, false)
	if err != nil {
		return store.List[string]{}, err
	}
	var all []string
	for id, pg := range held {
		if candidates[v.rows[pg.ID].version] == id {
			all = append(all, id)
		}
	}
	sort.Strings(all)
	var items []string
	for _, id := range all {
		if (cur == nil || id > cur[0]) && len(items) <= p.Size() {
			items = append(items, id)
		}
	}
	return store.FinishPage(items, p.Size(), len(all), func(id string) []string { return []string{id} }), nil
}
