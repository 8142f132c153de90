package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"
)

// Revision is an immutable state of a space's content: its page tree and its parents.
type Revision struct {
	ID              string
	SpaceID         string
	Type            string // edits | merge | update
	Parents         []string
	ChangeRequestID *string // merge revisions: the change request merged
	CreatedAt       time.Time
	Pages           []*RevisionPage // in tree order: parents before children, siblings by position
}

// RevisionPage is a page of a revision. Its body (markdown) is loaded only where asked for.
type RevisionPage struct {
	ID            string
	ParentID      *string
	Position      float64
	Title         string
	Slug          string
	Path          string
	Emoji         *string
	Description   string
	Hidden        bool
	Icon          *string
	NoIndex       bool    // kept out of search
	NoRobotsIndex bool    // published with a robots noindex
	Condition     *string // the visitor condition deciding whether it shows
	BodyID        int64   // 0: not yet written (Markdown holds the new body)
	Markdown      string  // set by the queries that load bodies, and for new bodies
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

func (p *RevisionPage) clone() *RevisionPage {
	c := *p
	return &c
}

// FindRevision returns a revision of a space with its pages (without bodies).
func (s *Store) FindRevision(ctx context.Context, spaceID, id string) (*Revision, error) {
	return findRevision(ctx, s.reader, spaceID, id)
}

func findRevision(ctx context.Context, q querier, spaceID, id string) (*Revision, error) {
	r := &Revision{}
	var parents, created string
	var crID sql.NullString
	err := q.QueryRowContext(ctx, `SELECT id, space_id, type, parents, change_request_id, created_at
		FROM revisions WHERE id = ? AND space_id = ?`, id, spaceID).Scan(&r.ID, &r.SpaceID, &r.Type, &parents, &crID, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Revision")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find revision: %w", err)
	}
	r.ChangeRequestID = stringPtr(crID)
	r.CreatedAt = parseTime(created)
	if err := json.Unmarshal([]byte(parents), &r.Parents); err != nil {
		return nil, fmt.Errorf("store: bad parents of revision %s: %w", id, err)
	}
	if r.Pages, err = loadPages(ctx, q, id, false); err != nil {
		return nil, err
	}
	return r, nil
}

const pageColumns = `p.page_id, p.parent_id, p.position, p.title, p.slug, p.path, p.emoji, p.description,
	p.hidden, p.icon, p.no_index, p.no_robots_index, p.visitor_condition, p.body_id, p.created_at, p.updated_at`

func scanPage(sc interface{ Scan(...any) error }, p *RevisionPage, extra ...any) error {
	var parent, emoji, icon, condition sql.NullString
	var created, updated string
	if err := sc.Scan(append([]any{&p.ID, &parent, &p.Position, &p.Title, &p.Slug, &p.Path, &emoji, &p.Description,
		&p.Hidden, &icon, &p.NoIndex, &p.NoRobotsIndex, &condition, &p.BodyID, &created, &updated}, extra...)...); err != nil {
		return err
	}
	p.ParentID, p.Emoji = stringPtr(parent), stringPtr(emoji)
	p.Icon, p.Condition = stringPtr(icon), stringPtr(condition)
	p.CreatedAt, p.UpdatedAt = parseTime(created), parseTime(updated)
	return nil
}

// loadPages returns a revision's pages in tree order, with bodies when asked.
func loadPages(ctx context.Context, q querier, revisionID string, bodies bool) ([]*RevisionPage, error) {
	query := `SELECT ` + pageColumns + ` FROM revision_pages p WHERE p.revision_id = ?`
	if bodies {
		query = `SELECT ` + pageColumns + `, b.markdown FROM revision_pages p JOIN page_bodies b ON b.id = p.body_id
			WHERE p.revision_id = ?`
	}
	rows, err := q.QueryContext(ctx, query, revisionID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to load pages: %w", err)
	}
	defer rows.Close()
	var pages []*RevisionPage
	for rows.Next() {
		p := &RevisionPage{}
		var extra []any
		if bodies {
			extra = []any{&p.Markdown}
		}
		if err := scanPage(rows, p, extra...); err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		pages = append(pages, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: unable to load pages: %w", err)
	}
	return treeOrder(pages), nil
}

// treeOrder sorts pages depth-first: each parent before its children, siblings by position.
func treeOrder(pages []*RevisionPage) []*RevisionPage { return treeOrderUnder(pages, "") }

// treeOrderUnder is treeOrder for the pages under one page (root "": the whole tree).
func treeOrderUnder(pages []*RevisionPage, root string) []*RevisionPage {
	children := map[string][]*RevisionPage{}
	for _, p := range pages {
		key := ""
		if p.ParentID != nil {
			key = *p.ParentID
		}
		children[key] = append(children[key], p)
	}
	for _, list := range children {
		sort.Slice(list, func(i, j int) bool {
			if list[i].Position != list[j].Position {
				return list[i].Position < list[j].Position
			}
			return list[i].ID < list[j].ID
		})
	}
	out := make([]*RevisionPage, 0, len(pages))
	var walk func(parent string)
	walk = func(parent string) {
		for _, p := range children[parent] {
			out = append(out, p)
			walk(p.ID)
		}
	}
	walk(root)
	return out
}

// loadPagesByID returns the pages of a revision with the given ids (without bodies).
func loadPagesByID(ctx context.Context, q querier, revisionID string, ids []string) ([]*RevisionPage, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT `+pageColumns+` FROM revision_pages p
		WHERE p.revision_id = ? AND p.page_id IN (SELECT value FROM json_each(?))`, revisionID, jsonStrings(ids))
	if err != nil {
		return nil, fmt.Errorf("store: unable to load pages: %w", err)
	}
	defer rows.Close()
	var out []*RevisionPage
	for rows.Next() {
		p := &RevisionPage{}
		if err := scanPage(rows, p); err != nil {
			return nil, fmt.Errorf("store: unable to load pages: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// changedPageIDs lists the pages that differ between two revisions: added, deleted, or with any
// stored field changed. It runs inside SQLite, by primary key, without loading the pages.
func changedPageIDs(ctx context.Context, q querier, a, b string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `
		SELECT y.page_id FROM revision_pages y
		LEFT JOIN revision_pages x ON x.revision_id = ?1 AND x.page_id = y.page_id
		WHERE y.revision_id = ?2 AND (x.page_id IS NULL OR x.parent_id IS NOT y.parent_id OR x.position != y.position
			OR x.title != y.title OR x.slug != y.slug OR x.path != y.path OR x.emoji IS NOT y.emoji
			OR x.description != y.description OR x.hidden != y.hidden OR x.body_id != y.body_id
			OR x.icon IS NOT y.icon OR x.no_index != y.no_index OR x.no_robots_index != y.no_robots_index
			OR x.visitor_condition IS NOT y.visitor_condition)
		UNION
		SELECT x.page_id FROM revision_pages x WHERE x.revision_id = ?1
			AND NOT EXISTS (SELECT 1 FROM revision_pages y WHERE y.revision_id = ?2 AND y.page_id = x.page_id)`, a, b)
	if err != nil {
		return nil, fmt.Errorf("store: unable to compare revisions: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: unable to compare revisions: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// FindPage returns a page of a revision with its body.
func (s *Store) FindPage(ctx context.Context, revisionID, pageID string) (*RevisionPage, error) {
	p := &RevisionPage{}
	err := scanPage(s.reader.QueryRowContext(ctx, `SELECT `+pageColumns+`, b.markdown
		FROM revision_pages p JOIN page_bodies b ON b.id = p.body_id
		WHERE p.revision_id = ? AND p.page_id = ?`, revisionID, pageID), p, &p.Markdown)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("RevisionPage")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find page: %w", err)
	}
	return p, nil
}

// FindSubpages returns the pages under a page (by its path) in tree order, without bodies. Paths
// are unique in a revision and a subpage's path extends its parent's with "/", so the subtree is
// one range of the path index.
func (s *Store) FindSubpages(ctx context.Context, revisionID string, page *RevisionPage) ([]*RevisionPage, error) {
	path := page.Path
	rows, err := s.reader.QueryContext(ctx, `SELECT `+pageColumns+` FROM revision_pages p
		WHERE p.revision_id = ? AND p.path > ? AND p.path < ?`, revisionID, path+"/", path+"0")
	if err != nil {
		return nil, fmt.Errorf("store: unable to load subpages: %w", err)
	}
	defer rows.Close()
	var out []*RevisionPage
	for rows.Next() {
		p := &RevisionPage{}
		if err := scanPage(rows, p); err != nil {
			return nil, fmt.Errorf("store: unable to load subpages: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: unable to load subpages: %w", err)
	}
	return treeOrderUnder(out, page.ID), nil
}

// FindPageByPath returns the page at a path of a revision, with its body.
func (s *Store) FindPageByPath(ctx context.Context, revisionID, path string) (*RevisionPage, error) {
	p := &RevisionPage{}
	err := scanPage(s.reader.QueryRowContext(ctx, `SELECT `+pageColumns+`, b.markdown
		FROM revision_pages p JOIN page_bodies b ON b.id = p.body_id
		WHERE p.revision_id = ? AND p.path = ?`, revisionID, path), p, &p.Markdown)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, Errorf(ENOTFOUND, "No page at path %q.", path)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find page: %w", err)
	}
	return p, nil
}

// sameRow reports whether two pages would be stored as the same row.
func sameRow(a, b *RevisionPage) bool {
	return a.BodyID != 0 && a.BodyID == b.BodyID && equalPtr(a.ParentID, b.ParentID) && a.Position == b.Position &&
		a.Title == b.Title && a.Slug == b.Slug && a.Path == b.Path && equalPtr(a.Emoji, b.Emoji) &&
		a.Description == b.Description && a.Hidden == b.Hidden && sameMeta(a, b) && a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
}

// sameMeta reports whether two pages have the same icon, indexing flags and condition.
func sameMeta(a, b *RevisionPage) bool {
	return equalPtr(a.Icon, b.Icon) && a.NoIndex == b.NoIndex && a.NoRobotsIndex == b.NoRobotsIndex && equalPtr(a.Condition, b.Condition)
}

// writeRevision stores a new revision of a space with the given pages (new bodies are written;
// unchanged ones are shared) and returns its id. Pages stored unchanged in the revision from
// (its pages given as fromPages) are copied inside SQLite, not row by row: a small edit to a
// large space writes little.
func writeRevision(ctx context.Context, tx *Tx, spaceID, typ string, parents []string, crID *string, pages []*RevisionPage,
	from string, fromPages []*RevisionPage) (string, error) {
	id := NewID()
	all := pages
	pj, _ := json.Marshal(parents)
	if _, err := tx.ExecContext(ctx, `INSERT INTO revisions (id, space_id, type, parents, change_request_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, id, spaceID, typ, string(pj), nullString(crID), formatTime(tx.now)); err != nil {
		return "", fmt.Errorf("store: unable to write revision: %w", err)
	}
	if from != "" {
		old := make(map[string]*RevisionPage, len(fromPages))
		for _, p := range fromPages {
			old[p.ID] = p
		}
		var changed []*RevisionPage
		skip := []string{}
		kept := 0
		for _, p := range pages {
			if o, ok := old[p.ID]; ok && sameRow(p, o) {
				kept++
				continue
			}
			changed = append(changed, p)
			skip = append(skip, p.ID)
		}
		if kept > 0 {
			keptIDs := make(map[string]bool, len(pages))
			for _, p := range pages {
				keptIDs[p.ID] = true
			}
			for _, p := range fromPages {
				if !keptIDs[p.ID] {
					skip = append(skip, p.ID) // deleted: not copied either
				}
			}
			sj, _ := json.Marshal(skip)
			if _, err := tx.ExecContext(ctx, `INSERT INTO revision_pages (revision_id, page_id, parent_id, position,
				title, slug, path, emoji, description, hidden, icon, no_index, no_robots_index, visitor_condition,
				body_id, created_at, updated_at)
				SELECT ?, page_id, parent_id, position, title, slug, path, emoji, description, hidden, icon, no_index,
				no_robots_index, visitor_condition, body_id, created_at, updated_at
				FROM revision_pages WHERE revision_id = ? AND page_id NOT IN (SELECT value FROM json_each(?))`,
				id, from, string(sj)); err != nil {
				return "", fmt.Errorf("store: unable to copy pages: %w", err)
			}
			pages = changed
		}
	}
	insBody, err := tx.PrepareContext(ctx, `INSERT INTO page_bodies (markdown) VALUES (?)`)
	if err != nil {
		return "", fmt.Errorf("store: unable to write pages: %w", err)
	}
	defer insBody.Close()
	insPage, err := tx.PrepareContext(ctx, `INSERT INTO revision_pages (revision_id, page_id, parent_id, position,
		title, slug, path, emoji, description, hidden, icon, no_index, no_robots_index, visitor_condition,
		body_id, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return "", fmt.Errorf("store: unable to write pages: %w", err)
	}
	defer insPage.Close()
	for _, p := range pages {
		if p.BodyID == 0 {
			res, err := insBody.ExecContext(ctx, p.Markdown)
			if err != nil {
				return "", fmt.Errorf("store: unable to write page body: %w", err)
			}
			if p.BodyID, err = res.LastInsertId(); err != nil {
				return "", fmt.Errorf("store: unable to write page body: %w", err)
			}
		}
		if _, err := insPage.ExecContext(ctx, id, p.ID, nullString(p.ParentID), p.Position, p.Title, p.Slug, p.Path,
			nullString(p.Emoji), p.Description, p.Hidden, nullString(p.Icon), p.NoIndex, p.NoRobotsIndex, nullString(p.Condition),
			p.BodyID, formatTime(p.CreatedAt), formatTime(p.UpdatedAt)); err != nil {
			return "", fmt.Errorf("store: unable to write page: %w", err)
		}
	}
	if from != "" {
		if err := copyFiles(ctx, tx, id, from); err != nil {
			return "", err
		}
	}
	if err := writeLinks(ctx, tx, id, from, pages, all); err != nil {
		return "", err
	}
	return id, nil
}
