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

// Reusable contents, versioned per line as pages are (versions.go): a revision holds the version
// valid in the first element of its chain that touched the content; a tombstone there hides it.

const reusableColumns = `r.content_id, r.title, r.body_id, b.markdown, r.created_at, r.updated_at, r.deleted`

func scanReusable(sc scanner) (*store.ReusableContent, bool, error) {
	r := &store.ReusableContent{}
	var created, updated string
	var deleted bool
	if err := sc.Scan(&r.ID, &r.Title, &r.BodyID, &r.Markdown, &created, &updated, &deleted); err != nil {
		return nil, false, err
	}
	r.CreatedAt, r.UpdatedAt = parseTime(created), parseTime(updated)
	return r, deleted, nil
}

// findReusable returns a reusable content of the revision a chain reads, nil when it holds none.
func findReusable(ctx context.Context, q querier, c chain, id string) (*store.ReusableContent, error) {
	for _, el := range c {
		r, deleted, err := scanReusable(q.QueryRowContext(ctx, `SELECT `+reusableColumns+` FROM reusable_content_versions r
			JOIN page_bodies b ON b.id = r.body_id
			WHERE r.line_id = ? AND r.content_id = ? AND r.valid_from <= ? AND r.valid_to > ?`, el.line, id, el.upto, el.upto))
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("store: unable to find reusable content: %w", err)
		}
		if deleted {
			return nil, nil
		}
		return r, nil
	}
	return nil, nil
}

// FindReusableContent returns a reusable content of a revision with its markdown.
func (s *Store) FindReusableContent(ctx context.Context, revisionID, id string) (*store.ReusableContent, error) {
	ctx = pointRead(ctx)
	c, err := revisionChain(ctx, s.reader, revisionID)
	if err != nil {
		return nil, err
	}
	r, err := findReusable(ctx, s.reader, c, id)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, store.NotFound("Reusable content")
	}
	return r, nil
}

// findAllReusable returns every reusable content of the revision a chain reads, in the order they
// were created: each content's version is the one the first element of the chain that touched it holds.
func findAllReusable(ctx context.Context, q querier, c chain) ([]*store.ReusableContent, error) {
	seen := map[string]bool{}
	out := []*store.ReusableContent{}
	for _, el := range c {
		err := queryEach(ctx, q, "reusable contents", `SELECT `+reusableColumns+` FROM reusable_content_versions r
			JOIN page_bodies b ON b.id = r.body_id
			WHERE r.line_id = ? AND r.valid_from <= ? AND r.valid_to > ?`, []any{el.line, el.upto, el.upto}, func(sc scanner) error {
			r, deleted, err := scanReusable(sc)
			if err != nil || seen[r.ID] {
				return err
			}
			seen[r.ID] = true
			if !deleted {
				out = append(out, r)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b *store.ReusableContent) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// FindReusableContents returns every reusable content of a revision with its markdown, in the
// order they were created.
func (s *Store) FindReusableContents(ctx context.Context, revisionID string) ([]*store.ReusableContent, error) {
	ctx = pointRead(ctx)
	c, err := revisionChain(ctx, s.reader, revisionID)
	if err != nil {
		return nil, err
	}
	return findAllReusable(ctx, s.reader, c)
}

// writeReusable writes the reusable contents a revision changed and the tombstones of those it
// deleted at seq of a line; appending to the line, the versions they replace there end at seq.
func writeReusable(ctx context.Context, tx *Tx, line, seq int64, appending bool, changed, deleted map[string]*store.ReusableContent) error {
	write := func(r *store.ReusableContent, tomb bool) error {
		if appending {
			if _, err := tx.ExecContext(ctx, `UPDATE reusable_content_versions SET valid_to = ?
				WHERE line_id = ? AND content_id = ? AND valid_to = ?`, seq, line, r.ID, openSeq); err != nil {
				return fmt.Errorf("store: unable to close reusable content: %w", err)
			}
		}
		if r.BodyID == 0 {
			var err error
			if r.BodyID, err = tx.insertID(ctx, `INSERT INTO page_bodies (markdown) VALUES (?)`, r.Markdown); err != nil {
				return fmt.Errorf("store: unable to write reusable content body: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO reusable_content_versions (line_id, content_id, valid_from, valid_to,
			deleted, title, body_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, line, r.ID, seq, openSeq,
			tomb, r.Title, r.BodyID, formatTime(r.CreatedAt), formatTime(r.UpdatedAt)); err != nil {
			return fmt.Errorf("store: unable to write reusable content: %w", err)
		}
		return nil
	}
	for _, r := range changed {
		if err := write(r, false); err != nil {
			return err
		}
	}
	for _, r := range deleted {
		if err := write(r, true); err != nil {
			return err
		}
	}
	return nil
}

// mergeReusable three-way merges the reusable contents the change request's side changed since
// base (found from the rows written between them) into main: what main must change and delete,
// or the conflicts.
func mergeReusable(ctx context.Context, tx *Tx, base, mainRev, crRev string) (changed, deleted map[string]*store.ReusableContent, conflicts []store.MergeConflict, err error) {
	chains := make([]chain, 3)
	for i, rev := range []string{base, mainRev, crRev} {
		if chains[i], err = revisionChain(ctx, tx, rev); err != nil {
			return nil, nil, nil, err
		}
	}
	ids, err := touchedBetween(ctx, tx, "reusable_content_versions", "content_id", chains[0], chains[2])
	if err != nil {
		return nil, nil, nil, err
	}
	changed, deleted = map[string]*store.ReusableContent{}, map[string]*store.ReusableContent{}
	for _, id := range ids {
		var sides [3]*store.ReusableContent
		for i, c := range chains {
			if sides[i], err = findReusable(ctx, tx, c, id); err != nil {
				return nil, nil, nil, err
			}
		}
		r, take, conflict := store.MergeReusable(sides[0], sides[1], sides[2])
		switch {
		case conflict != nil:
			conflicts = append(conflicts, *conflict)
		case take && r != nil:
			changed[id] = r
		case take && sides[1] != nil:
			deleted[id] = sides[1]
		}
	}
	return changed, deleted, conflicts, nil
}
