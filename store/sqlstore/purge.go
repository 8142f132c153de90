package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
)

// purgeContent removes the content of spaces that no longer exist: their lines with every page
// version, link and file row on them, then the page bodies and blobs no remaining row uses. A
// line another space's line forked from (a duplicate) stays as long as that fork does: it is
// removed by the purge that removes the last space reading it.
func purgeContent(ctx context.Context, tx *Tx) error {
	ids, err := queryAll(ctx, tx, "the lines to purge", `SELECT id FROM lines WHERE space_id NOT IN (SELECT id FROM spaces)`, nil, scanInt64)
	if err != nil {
		return err
	}
	dead := make(map[int64]bool, len(ids))
	for _, id := range ids {
		dead[id] = true
	}
	needed := map[int64]bool{}
	var isNeeded func(id int64) (bool, error)
	isNeeded = func(id int64) (bool, error) {
		if v, ok := needed[id]; ok {
			return v, nil
		}
		needed[id] = false
		kids, err := queryAll(ctx, tx, "forks", `SELECT id FROM lines WHERE parent_id = ?`, []any{id}, scanInt64)
		if err != nil {
			return false, err
		}
		for _, k := range kids {
			n := !dead[k]
			if !n {
				if n, err = isNeeded(k); err != nil {
					return false, err
				}
			}
			if n {
				needed[id] = true
				return true, nil
			}
		}
		return false, nil
	}
	var drop []any
	for _, id := range ids {
		n, err := isNeeded(id)
		if err != nil {
			return err
		}
		if !n {
			drop = append(drop, id)
		}
	}
	// Forks are newer than what they fork from: children go first.
	sort.Slice(drop, func(i, j int) bool { return drop[i].(int64) > drop[j].(int64) })
	for start := 0; start < len(drop); start += 500 {
		chunk := drop[start:min(start+500, len(drop))]
		if err := dropLines(ctx, tx, chunk); err != nil {
			return err
		}
	}
	return nil
}

// dropLines deletes lines and their rows, then the bodies and blobs only they used.
func dropLines(ctx context.Context, tx *Tx, lines []any) error {
	in := `(` + placeholders(len(lines)) + `)`
	ids := func(sc scanner) (any, error) {
		var id sql.NullInt64
		err := sc.Scan(&id)
		return id.Int64, err
	}
	bodies, err := queryAll(ctx, tx, "the bodies to purge", `SELECT DISTINCT body_id FROM page_versions WHERE line_id IN `+in+`
		UNION SELECT DISTINCT body_id FROM reusable_content_versions WHERE line_id IN `+in, append(lines, lines...), ids)
	if err != nil {
		return err
	}
	blobs, err := queryAll(ctx, tx, "the blobs to purge", `SELECT DISTINCT blob_id FROM file_versions WHERE line_id IN `+in, lines, ids)
	if err != nil {
		return err
	}
	for _, q := range []string{
		`DELETE FROM page_links WHERE version_id IN (SELECT id FROM page_versions WHERE line_id IN ` + in + `)`,
		`DELETE FROM page_versions WHERE line_id IN ` + in,
		`DELETE FROM file_versions WHERE line_id IN ` + in,
		`DELETE FROM reusable_content_versions WHERE line_id IN ` + in,
		`DELETE FROM lines WHERE id IN ` + in,
	} {
		if _, err := tx.ExecContext(ctx, q, lines...); err != nil {
			return fmt.Errorf("store: unable to purge content: %w", err)
		}
	}
	tx.dropChains()
	for start := 0; start < len(bodies); start += 500 {
		chunk := bodies[start:min(start+500, len(bodies))]
		if _, err := tx.ExecContext(ctx, `DELETE FROM page_bodies WHERE id IN (`+placeholders(len(chunk))+`)
			AND NOT EXISTS (SELECT 1 FROM page_versions v WHERE v.body_id = page_bodies.id)
			AND NOT EXISTS (SELECT 1 FROM reusable_content_versions r WHERE r.body_id = page_bodies.id)`, chunk...); err != nil {
			return fmt.Errorf("store: unable to purge content: %w", err)
		}
	}
	for start := 0; start < len(blobs); start += 500 {
		chunk := blobs[start:min(start+500, len(blobs))]
		if _, err := tx.ExecContext(ctx, `DELETE FROM blobs WHERE id IN (`+placeholders(len(chunk))+`)
			AND NOT EXISTS (SELECT 1 FROM file_versions f WHERE f.blob_id = blobs.id)`, chunk...); err != nil {
			return fmt.Errorf("store: unable to purge content: %w", err)
		}
	}
	return nil
}
