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
	rows, err := tx.QueryContext(ctx, `SELECT id FROM lines WHERE space_id NOT IN (SELECT id FROM spaces)`)
	if err != nil {
		return fmt.Errorf("store: unable to purge content: %w", err)
	}
	dead := map[int64]bool{}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("store: unable to purge content: %w", err)
		}
		dead[id] = true
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: unable to purge content: %w", err)
	}
	needed := map[int64]bool{}
	var isNeeded func(id int64) (bool, error)
	isNeeded = func(id int64) (bool, error) {
		if v, ok := needed[id]; ok {
			return v, nil
		}
		needed[id] = false
		rows, err := tx.QueryContext(ctx, `SELECT id FROM lines WHERE parent_id = ?`, id)
		if err != nil {
			return false, err
		}
		var kids []int64
		for rows.Next() {
			var k int64
			if err := rows.Scan(&k); err != nil {
				rows.Close()
				return false, err
			}
			kids = append(kids, k)
		}
		rows.Close()
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
		return false, rows.Err()
	}
	var drop []any
	for _, id := range ids {
		n, err := isNeeded(id)
		if err != nil {
			return fmt.Errorf("store: unable to purge content: %w", err)
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
	collect := func(query string) ([]any, error) {
		rows, err := tx.QueryContext(ctx, query, lines...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []any
		for rows.Next() {
			var id sql.NullInt64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			out = append(out, id.Int64)
		}
		return out, rows.Err()
	}
	bodies, err := collect(`SELECT DISTINCT body_id FROM page_versions WHERE line_id IN ` + in)
	if err != nil {
		return fmt.Errorf("store: unable to purge content: %w", err)
	}
	blobs, err := collect(`SELECT DISTINCT blob_id FROM file_versions WHERE line_id IN ` + in)
	if err != nil {
		return fmt.Errorf("store: unable to purge content: %w", err)
	}
	for _, q := range []string{
		`DELETE FROM page_links WHERE version_id IN (SELECT id FROM page_versions WHERE line_id IN ` + in + `)`,
		`DELETE FROM page_versions WHERE line_id IN ` + in,
		`DELETE FROM file_versions WHERE line_id IN ` + in,
		`DELETE FROM lines WHERE id IN ` + in,
	} {
		if _, err := tx.ExecContext(ctx, q, lines...); err != nil {
			return fmt.Errorf("store: unable to purge content: %w", err)
		}
	}
	for start := 0; start < len(bodies); start += 500 {
		chunk := bodies[start:min(start+500, len(bodies))]
		if _, err := tx.ExecContext(ctx, `DELETE FROM page_bodies WHERE id IN (`+placeholders(len(chunk))+`)
			AND NOT EXISTS (SELECT 1 FROM page_versions v WHERE v.body_id = page_bodies.id)`, chunk...); err != nil {
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
