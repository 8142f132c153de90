package store

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Links are extracted from a page's markdown when a revision is written and stored resolved:
//   /pages/<id>, /pages/<slug path>  a page (by id, else by path)
//   relative .md paths                a page, by path from the linking page's folder
//   /files/<id>                       a file
//   http(s)/mailto URLs               a URL
// A page link that resolves to nothing is stored as written: it is broken. Whether a page or a
// file target is there is decided when links are read, against that revision.

// Link is one stored link.
type Link struct {
	PageID string // the page holding it
	Kind   string // page | file | url
	Target string
}

var linkParser = goldmark.New(goldmark.WithExtensions(extension.GFM))

// linkDestinations returns the destinations of a markdown's links, images and autolinks.
func linkDestinations(md string) []string {
	src := []byte(md)
	root := linkParser.Parser().Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			out = append(out, string(n.Destination))
		case *ast.Image:
			out = append(out, string(n.Destination))
		case *ast.AutoLink:
			out = append(out, string(n.URL(src)))
		}
		return ast.WalkContinue, nil
	})
	return out
}

// resolveLink turns a link destination of the page at pagePath into a stored link; ok is false
// for what is not a link to record (an anchor in the same page, an unknown scheme).
func resolveLink(dest, pagePath string, byID map[string]bool, byPath map[string]string) (kind, target string, ok bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "#") {
		return "", "", false
	}
	u, err := url.Parse(dest)
	if err != nil {
		return "", "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "mailto":
		return "url", dest, true
	case "":
	default:
		return "", "", false
	}
	p := u.Path
	switch {
	case strings.HasPrefix(p, "/pages/"):
		x := strings.Trim(strings.TrimPrefix(p, "/pages/"), "/")
		if byID[x] {
			return "page", x, true
		}
		if id, ok := byPath[x]; ok {
			return "page", id, true
		}
		return "page", dest, true
	case strings.HasPrefix(p, "/files/"):
		return "file", strings.Trim(strings.TrimPrefix(p, "/files/"), "/"), true
	case strings.HasSuffix(strings.ToLower(p), ".md") && !strings.HasPrefix(p, "/"):
		dir := path.Dir(pagePath)
		target := path.Clean(path.Join(dir, strings.TrimSuffix(p, path.Ext(p))))
		if base := path.Base(target); strings.EqualFold(base, "readme") {
			target = path.Dir(target)
		}
		if id, ok := byPath[target]; ok {
			return "page", id, true
		}
		return "page", dest, true
	}
	return "", "", false
}

// pageLinks extracts and resolves the links of pages (their Markdown set) against a tree.
func pageLinks(pages []*RevisionPage, all []*RevisionPage) []Link {
	byID := make(map[string]bool, len(all))
	byPath := make(map[string]string, len(all))
	for _, p := range all {
		byID[p.ID] = true
		byPath[p.Path] = p.ID
	}
	var out []Link
	for _, p := range pages {
		seen := map[[2]string]bool{}
		for _, d := range linkDestinations(p.Markdown) {
			kind, target, ok := resolveLink(d, p.Path, byID, byPath)
			if !ok || seen[[2]string{kind, target}] {
				continue
			}
			seen[[2]string{kind, target}] = true
			out = append(out, Link{PageID: p.ID, Kind: kind, Target: target})
		}
	}
	return out
}

var refLink = regexp.MustCompile(`\]\(\s*/(pages|files)/([^)\s#?/]+)`)

// relRefLink is a relative link to a batch ref: ./<ref>.md for a page, ./<ref> for a file.
var relRefLink = regexp.MustCompile(`\]\(\s*(?:<\./([^>#?/]+)>|\./([^)\s#?/]+))`)

// rewriteRefs replaces the batch's refs in markdown links (/pages/<ref> and ./<ref>.md for pages,
// /files/<ref> and ./<ref> for files) by the ids they were given, so the stored markdown links to
// ids: /pages/<id> and /files/<id>.
func rewriteRefs(md string, pageRefs, fileRefs map[string]string) string {
	if len(pageRefs) == 0 && len(fileRefs) == 0 {
		return md
	}
	md = refLink.ReplaceAllStringFunc(md, func(m string) string {
		sub := refLink.FindStringSubmatch(m)
		refs := pageRefs
		if sub[1] == "files" {
			refs = fileRefs
		}
		if id, ok := refs[sub[2]]; ok {
			return strings.Replace(m, "/"+sub[1]+"/"+sub[2], "/"+sub[1]+"/"+id, 1)
		}
		return m
	})
	return relRefLink.ReplaceAllStringFunc(md, func(m string) string {
		sub := relRefLink.FindStringSubmatch(m)
		name := sub[1] + sub[2]
		if id, ok := fileRefs[name]; ok {
			return "](/files/" + id
		}
		if strings.HasSuffix(name, ".md") {
			if id, ok := pageRefs[strings.TrimSuffix(name, ".md")]; ok {
				return "](/pages/" + id
			}
		}
		return m
	})
}

// writeLinks stores the links of a new revision: those of pages it copied unchanged come from the
// revision copied from; the changed pages' are extracted from their markdown.
func writeLinks(ctx context.Context, tx *Tx, revisionID, from string, changed, all []*RevisionPage) error {
	if from != "" {
		keep := make(map[string]bool, len(all))
		for _, p := range all {
			keep[p.ID] = true
		}
		skip := make([]string, 0, len(changed))
		for _, p := range changed {
			skip = append(skip, p.ID)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO revision_links (revision_id, page_id, kind, target)
			SELECT ?, l.page_id, l.kind, l.target FROM revision_links l
			JOIN revision_pages p ON p.revision_id = ? AND p.page_id = l.page_id
			WHERE l.revision_id = ? AND l.page_id NOT IN (SELECT value FROM json_each(?))`,
			revisionID, revisionID, from, jsonStrings(skip)); err != nil {
			return fmt.Errorf("store: unable to copy links: %w", err)
		}
	}
	var need []int64
	for _, p := range changed {
		if p.Markdown == "" && p.BodyID != 0 {
			need = append(need, p.BodyID)
		}
	}
	if len(need) > 0 {
		bodies, err := loadBodies(ctx, tx, need)
		if err != nil {
			return err
		}
		for _, p := range changed {
			if p.Markdown == "" && p.BodyID != 0 {
				p.Markdown = bodies[p.BodyID]
			}
		}
	}
	ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO revision_links (revision_id, page_id, kind, target) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("store: unable to write links: %w", err)
	}
	defer ins.Close()
	for _, l := range pageLinks(changed, all) {
		if _, err := ins.ExecContext(ctx, revisionID, l.PageID, l.Kind, l.Target); err != nil {
			return fmt.Errorf("store: unable to write links: %w", err)
		}
	}
	return nil
}

// LinkTarget is a target of a revision's links, with its status and the pages linking to it.
type LinkTarget struct {
	Kind    string
	Target  string
	Status  string // ok | broken | in-app
	Sources []string
}

// LinkStats counts a revision's links (each page's link to a target once).
type LinkStats struct {
	Total  int
	Broken int
}

// LinkFilter narrows a link list: to one page's links, to one status. AppPrefix is the URL
// prefix of quire's own app: URL links under it are `in-app`.
type LinkFilter struct {
	PageID    *string
	Status    *string
	AppPrefix string
}

// linkTargets is a CTE of the targets of a revision's links (?1), with status; ?2 is the app
// prefix, ?3 the linking page or NULL.
const linkTargets = `WITH t AS (
	SELECT l.kind, l.target, group_concat(l.page_id) AS sources, count(*) AS n,
		CASE
			WHEN l.kind = 'page' THEN CASE WHEN EXISTS (SELECT 1 FROM revision_pages p
				WHERE p.revision_id = ?1 AND p.page_id = l.target) THEN 'ok' ELSE 'broken' END
			WHEN l.kind = 'file' THEN CASE WHEN EXISTS (SELECT 1 FROM revision_files f
				WHERE f.revision_id = ?1 AND f.file_id = l.target) THEN 'ok' ELSE 'broken' END
			WHEN ?2 != '' AND substr(l.target, 1, length(?2)) = ?2 THEN 'in-app'
			ELSE 'ok'
		END AS status
	FROM revision_links l
	WHERE l.revision_id = ?1 AND (?3 IS NULL OR l.page_id = ?3)
	GROUP BY l.kind, l.target)`

// FindLinks lists the targets of a revision's links, by kind and target, with the stats of all
// of them (whatever the status filter).
func (s *Store) FindLinks(ctx context.Context, revisionID string, f LinkFilter, p Page) (List[*LinkTarget], LinkStats, error) {
	var stats LinkStats
	cur, err := decodeCursor(p.Cursor, 2)
	if err != nil {
		return List[*LinkTarget]{}, stats, err
	}
	args := []any{revisionID, f.AppPrefix, nullString(f.PageID), nullString(f.Status)}
	var count int
	if err := s.reader.QueryRowContext(ctx, linkTargets+`
		SELECT COALESCE(sum(n), 0), COALESCE(sum(CASE WHEN status = 'broken' THEN n ELSE 0 END), 0),
			COALESCE(sum(CASE WHEN ?4 IS NULL OR status = ?4 THEN 1 ELSE 0 END), 0) FROM t`, args...).Scan(&stats.Total, &stats.Broken, &count); err != nil {
		return List[*LinkTarget]{}, stats, fmt.Errorf("store: unable to count links: %w", err)
	}
	after := []any{"", ""}
	if cur != nil {
		after = []any{cur[0], cur[1]}
	}
	rows, err := s.reader.QueryContext(ctx, linkTargets+`
		SELECT kind, target, status, sources FROM t
		WHERE (?4 IS NULL OR status = ?4) AND (kind, target) > (?5, ?6)
		ORDER BY kind, target LIMIT ?7`, append(args, after[0], after[1], p.limit()+1)...)
	if err != nil {
		return List[*LinkTarget]{}, stats, fmt.Errorf("store: unable to list links: %w", err)
	}
	defer rows.Close()
	var items []*LinkTarget
	for rows.Next() {
		lt := &LinkTarget{}
		var sources string
		if err := rows.Scan(&lt.Kind, &lt.Target, &lt.Status, &sources); err != nil {
			return List[*LinkTarget]{}, stats, fmt.Errorf("store: unable to list links: %w", err)
		}
		lt.Sources = strings.Split(sources, ",")
		items = append(items, lt)
	}
	if err := rows.Err(); err != nil {
		return List[*LinkTarget]{}, stats, fmt.Errorf("store: unable to list links: %w", err)
	}
	return finishPage(items, p.limit(), count, func(lt *LinkTarget) []string { return []string{lt.Kind, lt.Target} }), stats, nil
}

// brokenLink is the condition that link l (of revision ?rev) is broken, for kind page or file.
func brokenLinkCond(alias, rev string) string {
	return `((` + alias + `.kind = 'page' AND NOT EXISTS (SELECT 1 FROM revision_pages p WHERE p.revision_id = ` + rev + ` AND p.page_id = ` + alias + `.target))
		OR (` + alias + `.kind = 'file' AND NOT EXISTS (SELECT 1 FROM revision_files f WHERE f.revision_id = ` + rev + ` AND f.file_id = ` + alias + `.target)))`
}

// CountLinksBrokenSince counts the broken links of a revision that were not broken (or not
// there) in another: the links a change request broke.
func (s *Store) CountLinksBrokenSince(ctx context.Context, revisionID, baseID string) (int, error) {
	var n int
	err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM revision_links l WHERE l.revision_id = ?1 AND `+brokenLinkCond("l", "?1")+`
		AND NOT EXISTS (SELECT 1 FROM revision_links b WHERE b.revision_id = ?2 AND b.page_id = l.page_id
			AND b.kind = l.kind AND b.target = l.target AND `+brokenLinkCond("b", "?2")+`)`, revisionID, baseID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: unable to count broken links: %w", err)
	}
	return n, nil
}

// FindBacklinks lists the pages of a revision that link to a page or a file, by page id.
func (s *Store) FindBacklinks(ctx context.Context, revisionID, kind, target string, p Page) (List[string], error) {
	cur, err := decodeCursor(p.Cursor, 1)
	if err != nil {
		return List[string]{}, err
	}
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(DISTINCT page_id) FROM revision_links
		WHERE revision_id = ? AND kind = ? AND target = ?`, revisionID, kind, target).Scan(&count); err != nil {
		return List[string]{}, fmt.Errorf("store: unable to count backlinks: %w", err)
	}
	after := ""
	if cur != nil {
		after = cur[0]
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT DISTINCT page_id FROM revision_links
		WHERE revision_id = ? AND kind = ? AND target = ? AND page_id > ? ORDER BY page_id LIMIT ?`,
		revisionID, kind, target, after, p.limit()+1)
	if err != nil {
		return List[string]{}, fmt.Errorf("store: unable to list backlinks: %w", err)
	}
	defer rows.Close()
	var items []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return List[string]{}, fmt.Errorf("store: unable to list backlinks: %w", err)
		}
		items = append(items, id)
	}
	if err := rows.Err(); err != nil {
		return List[string]{}, fmt.Errorf("store: unable to list backlinks: %w", err)
	}
	return finishPage(items, p.limit(), count, func(id string) []string { return []string{id} }), nil
}
