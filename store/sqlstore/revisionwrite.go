package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/quire-docs/quire/store"
)

// revisionWrite is a new revision: the content of revision from with pages changed (added or
// updated) and deleted. Only those are written; the rest is read through from's line.
type revisionWrite struct {
	spaceID string
	typ     string // edits | merge | update
	parents []string
	crID    *string // merge revisions: the change request merged
	from    string  // "": a space's first, empty revision
	// owner is the change request whose line the revision goes on ("": the space's main line).
	// The revision is appended to from's line when from is that line's head and the line is the
	// owner's; otherwise it starts a line forked from from.
	owner   string
	changed []*store.RevisionPage
	deleted []*store.RevisionPage
	tree    *store.PageTree    // the tree changed and deleted come from: it knows the rows they replace
	links   store.LinkResolver // resolves the links of changed pages against the new content
	// readFrom knows the rows the changed pages were read from: one with the body and path it
	// had there keeps that row's links.
	readFrom rowFinder
	// reusable holds the reusable contents changed and deleted, by id.
	reusableChanged, reusableDeleted map[string]*store.ReusableContent
}

// writeRevision stores a new revision and returns its id.
func writeRevision(ctx context.Context, tx *Tx, w revisionWrite) (string, error) {
	id := store.NewID()
	line, seq, appending, err := lineFor(ctx, tx, w)
	if err != nil {
		return "", err
	}
	pj, _ := json.Marshal(w.parents)
	if w.parents == nil {
		pj = []byte("[]")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO revisions (id, space_id, type, parents, change_request_id, created_at, line_id, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, w.spaceID, w.typ, string(pj), nullString(w.crID), formatTime(tx.now), line, seq); err != nil {
		return "", fmt.Errorf("store: unable to write revision: %w", err)
	}
	if appending && w.tree != nil {
		if err := closeVersions(ctx, tx, seq, replaced(w.tree, line, w.changed, w.deleted)); err != nil {
			return "", err
		}
	}
	written, err := writeVersions(ctx, tx, line, seq, w.changed, w.deleted)
	if err != nil {
		return "", err
	}
	if err := writeReusable(ctx, tx, line, seq, appending, w.reusableChanged, w.reusableDeleted); err != nil {
		return "", err
	}
	if err := writeLinks(ctx, tx, w.changed, written, w.readFrom, w.links); err != nil {
		return "", err
	}
	return id, nil
}

// lineFor picks the line and seq of a new revision, appending to from's line or forking a new one.
func lineFor(ctx context.Context, tx *Tx, w revisionWrite) (line, seq int64, appending bool, err error) {
	var parent any
	var parentSeq any
	if w.from != "" {
		var fromLine, fromSeq, head int64
		var space string
		var owner sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT r.line_id, r.seq, l.space_id, l.change_request_id, l.head
			FROM revisions r JOIN lines l ON l.id = r.line_id WHERE r.id = ?`, w.from).Scan(&fromLine, &fromSeq, &space, &owner, &head)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, 0, false, store.NotFound("Revision")
		}
		if err != nil {
			return 0, 0, false, fmt.Errorf("store: unable to read revision: %w", err)
		}
		if space == w.spaceID && owner.String == w.owner && head == fromSeq {
			if _, err := tx.ExecContext(ctx, `UPDATE lines SET head = ? WHERE id = ?`, head+1, fromLine); err != nil {
				return 0, 0, false, fmt.Errorf("store: unable to write revision: %w", err)
			}
			tx.movedHead(fromLine, head+1)
			return fromLine, head + 1, true, nil
		}
		parent, parentSeq = fromLine, fromSeq
	}
	var owner any
	if w.owner != "" {
		owner = w.owner
	}
	line, err = tx.insertID(ctx, `INSERT INTO lines (space_id, parent_id, parent_seq, change_request_id, head) VALUES (?, ?, ?, ?, 1)`,
		w.spaceID, parent, parentSeq, owner)
	if err != nil {
		return 0, 0, false, fmt.Errorf("store: unable to write revision: %w", err)
	}
	return line, 1, false, nil
}

// closeVersions ends, at seq, the versions of a line that a new revision on it replaces (the rows
// of other lines it read stay as they are: the new rows hide them).
func closeVersions(ctx context.Context, tx *Tx, seq int64, replaced []int64) error {
	for start := 0; start < len(replaced); start += 500 {
		in, args := inList(tx, "id", replaced[start:min(start+500, len(replaced))])
		if _, err := tx.ExecContext(ctx, `UPDATE page_versions SET valid_to = ? WHERE `+in, append([]any{seq}, args...)...); err != nil {
			return fmt.Errorf("store: unable to close page versions: %w", err)
		}
	}
	return nil
}

// writeVersions writes the changed pages and the tombstones of the deleted ones at seq of a line,
// and returns the rows written for the changed pages, by page id: the new bodies as one set,
// then the versions as one set (rowSet).
func writeVersions(ctx context.Context, tx *Tx, line, seq int64, changed, deleted []*store.RevisionPage) (map[string]int64, error) {
	bodies := rowSet{table: "page_bodies", cols: []string{"markdown"}, types: []colType{colText}}
	var unwritten []*store.RevisionPage
	all := append(slices.Clip(changed), deleted...)
	for _, p := range all {
		if p.BodyID == 0 {
			bodies.add(p.Markdown)
			unwritten = append(unwritten, p)
		}
	}
	bodyIDs, err := bodies.writeIDs(ctx, tx)
	if err != nil {
		return nil, err
	}
	for i, p := range unwritten {
		p.BodyID = bodyIDs[i]
	}
	versions := rowSet{table: "page_versions", cols: []string{"line_id", "page_id", "valid_from", "valid_to", "deleted",
		"parent_id", "position", "title", "slug", "path", "emoji", "description", "hidden", "icon", "no_index", "no_robots_index",
		"visitor_condition", "page_type", "target_kind", "target", "target_space", "body_id", "created_at", "updated_at", "link_title", "cover"},
		types: []colType{colInt, colText, colInt, colInt, colInt, colText, colReal, colText, colText, colText, colText, colText, colInt,
			colText, colInt, colInt, colText, colText, colText, colText, colText, colInt, colText, colText, colText, colText}}
	for i, p := range all {
		targetKind, target, targetSpace := targetColumns(p.Target)
		versions.add(line, p.ID, seq, openSeq, i >= len(changed), nullString(p.ParentID), p.Position, p.Title,
			p.Slug, p.Path, nullString(p.Emoji), p.Description, p.Hidden, nullString(p.Icon), p.NoIndex, p.NoRobotsIndex,
			nullString(p.Condition), p.Kind(), targetKind, target, targetSpace, p.BodyID, formatTime(p.CreatedAt), formatTime(p.UpdatedAt),
			nullString(p.LinkTitle), coverColumn(p.Cover))
	}
	ids, err := versions.writeIDs(ctx, tx)
	if err != nil {
		return nil, err
	}
	written := make(map[string]int64, len(changed))
	for i, p := range changed {
		written[p.ID] = ids[i]
	}
	return written, nil
}

// coverColumn is a page's cover as its column holds it: JSON, or NULL for none.
func coverColumn(c *store.PageCover) any {
	if c == nil {
		return nil
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// replaced returns the rows of line that pages changed or deleted by the tree were read from.
func replaced(t *store.PageTree, line int64, changed, deleted []*store.RevisionPage) []int64 {
	v, ok := t.Src.(*view)
	if !ok || v == nil {
		return nil
	}
	var out []int64
	for _, list := range [][]*store.RevisionPage{changed, deleted} {
		for _, p := range list {
			if row, ok := v.rows[p.ID]; ok && t.Orig[p.ID] != nil && row.line == line {
				out = append(out, row.version)
			}
		}
	}
	// A page back on the line that deleted it (revert_page): its tombstone ends here.
	for _, p := range changed {
		if tomb, ok := v.tombs[p.ID]; ok && t.Orig[p.ID] == nil && tomb.line == line {
			out = append(out, tomb.version)
		}
	}
	return out
}
