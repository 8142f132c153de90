package sqlstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image dimensions of uploaded GIFs
	_ "image/jpeg"
	_ "image/png"
	"sort"

	"github.com/quire-docs/quire/store"
)

const fileColumns = `f.file_id, f.name, f.content_type, b.size, b.sha256, f.width, f.height`

func scanFile(sc interface{ Scan(...any) error }, f *store.RevisionFile) error {
	var w, h sql.NullInt64
	if err := sc.Scan(&f.ID, &f.Name, &f.ContentType, &f.Size, &f.SHA256, &w, &h); err != nil {
		return err
	}
	if w.Valid && h.Valid {
		wi, hi := int(w.Int64), int(h.Int64)
		f.Width, f.Height = &wi, &hi
	}
	return nil
}

// revisionFiles returns the files of a revision (cond narrows them, on file row f), by id. A file
// is in a revision when a line of its chain added it at or before the seq the chain reads it at,
// and the first line of the chain that has a row for it had not removed it by then.
func revisionFiles(ctx context.Context, q querier, revisionID, cond string, args ...any) ([]*store.RevisionFile, error) {
	c, err := revisionChain(ctx, q, revisionID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []*store.RevisionFile
	for _, el := range c {
		if err := queryEach(ctx, q, "files", `SELECT `+fileColumns+`, f.deleted_from FROM file_versions f JOIN blobs b ON b.id = f.blob_id
			WHERE f.line_id = ? AND f.valid_from <= ? AND `+cond, append([]any{el.line, el.upto}, args...), func(sc scanner) error {
			f := &store.RevisionFile{}
			var deleted sql.NullInt64
			if err := scanFile(scanWith{row: sc, extra: []any{&deleted}}, f); err != nil {
				return err
			}
			if !seen[f.ID] {
				seen[f.ID] = true
				if !deleted.Valid || deleted.Int64 > el.upto {
					out = append(out, f)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// FindFiles lists the files of a revision, by id.
func (s *Store) FindFiles(ctx context.Context, revisionID string, p store.Page) (store.List[*store.RevisionFile], error) {
	cur, err := store.DecodeCursor(p.Cursor, 1)
	if err != nil {
		return store.List[*store.RevisionFile]{}, err
	}
	all, err := revisionFiles(ctx, s.reader, revisionID, "1 = 1")
	if err != nil {
		return store.List[*store.RevisionFile]{}, err
	}
	var items []*store.RevisionFile
	for _, f := range all {
		if (cur == nil || f.ID > cur[0]) && len(items) <= p.Size() {
			items = append(items, f)
		}
	}
	return store.FinishPage(items, p.Size(), len(all), func(f *store.RevisionFile) []string { return []string{f.ID} }), nil
}

// FindFile returns a file of a revision.
func (s *Store) FindFile(ctx context.Context, revisionID, fileID string) (*store.RevisionFile, error) {
	files, err := revisionFiles(pointRead(ctx), s.reader, revisionID, "f.file_id = ?", fileID)
	if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
		return nil, fmt.Errorf("store: unable to find file: %w", err)
	}
	if len(files) == 0 {
		return nil, store.NotFound("File")
	}
	return files[0], nil
}

// FindFilesByID returns the files of a revision with the given ids.
func (s *Store) FindFilesByID(ctx context.Context, revisionID string, ids []string) (map[string]*store.RevisionFile, error) {
	out := map[string]*store.RevisionFile{}
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		files, err := revisionFiles(ctx, s.reader, revisionID, "f.file_id IN ("+placeholders(len(chunk))+")", args...)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			out[f.ID] = f
		}
	}
	return out, nil
}

// FindBlob returns the bytes stored under a SHA-256 (hex) and a content type a revision gave
// them under that name, for serving a download URL.
func (s *Store) FindBlob(ctx context.Context, sha, name string) (data []byte, contentType string, err error) {
	err = s.reader.QueryRowContext(ctx, `SELECT b.data, f.content_type FROM blobs b
		JOIN file_versions f ON f.blob_id = b.id AND f.name = ?
		WHERE b.sha256 = ? LIMIT 1`, name, sha).Scan(&data, &contentType)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", store.NotFound("File")
	}
	if err != nil {
		return nil, "", fmt.Errorf("store: unable to read file: %w", err)
	}
	return data, contentType, nil
}

// insertFiles adds uploaded files (their ids set) to a revision.
func insertFiles(ctx context.Context, tx *Tx, revisionID string, files []store.FileUpload) error {
	if len(files) == 0 {
		return nil
	}
	ref, err := revisionLine(ctx, tx, revisionID)
	if err != nil {
		return err
	}
	for _, f := range files {
		sum := sha256.Sum256(f.Data)
		sha := hex.EncodeToString(sum[:])
		if _, err := tx.ExecContext(ctx, `INSERT INTO blobs (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING`,
			sha, len(f.Data), f.Data); err != nil {
			return fmt.Errorf("store: unable to store file: %w", err)
		}
		var w, h any
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data)); err == nil {
			w, h = cfg.Width, cfg.Height
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO file_versions (line_id, file_id, valid_from, name, content_type, blob_id, width, height)
			SELECT ?, ?, ?, ?, ?, id, ?, ? FROM blobs WHERE sha256 = ?`, ref.line, f.ID, ref.upto, f.Name, f.ContentType, w, h, sha); err != nil {
			return fmt.Errorf("store: unable to add file: %w", err)
		}
	}
	return nil
}

// deleteFiles removes files from a revision (the head of its line, just written): a row of the
// line that added a file is ended there; a file the line inherited gets a row there that ends it.
func deleteFiles(ctx context.Context, tx *Tx, revisionID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	ref, err := revisionLine(ctx, tx, revisionID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		res, err := tx.ExecContext(ctx, `UPDATE file_versions SET deleted_from = ? WHERE line_id = ? AND file_id = ? AND deleted_from IS NULL`,
			ref.upto, ref.line, id)
		if err != nil {
			return fmt.Errorf("store: unable to remove a file: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			continue
		}
		files, err := revisionFiles(ctx, tx, revisionID, "f.file_id = ?", id)
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return store.FieldErrorf("files", "no file %q in the content", id)
		}
		f := files[0]
		if _, err := tx.ExecContext(ctx, `INSERT INTO file_versions (line_id, file_id, valid_from, name, content_type, blob_id, width, height, deleted_from)
			SELECT ?, ?, ?, ?, ?, id, ?, ?, ? FROM blobs WHERE sha256 = ?`, ref.line, f.ID, ref.upto, f.Name, f.ContentType, f.Width, f.Height,
			ref.upto, f.SHA256); err != nil {
			return fmt.Errorf("store: unable to remove a file: %w", err)
		}
	}
	return nil
}

// mergeFiles brings into a revision what another did to files since base, the revision they
// share: the files it added (that to lacks) and the files it removed (that to still has). Only
// the files added or removed since the two revisions parted are looked at.
func mergeFiles(ctx context.Context, tx *Tx, to, other, base string) error {
	x, err := revisionChain(ctx, tx, to)
	if err != nil {
		return err
	}
	y, err := revisionChain(ctx, tx, other)
	if err != nil {
		return err
	}
	ids, err := touchedBetween(ctx, tx, "file_versions", "file_id", x, y, "deleted_from")
	if err != nil || len(ids) == 0 {
		return err
	}
	removed, err := filesRemoved(ctx, tx, ids, to, other, base)
	if err != nil {
		return err
	}
	if err := deleteFiles(ctx, tx, to, removed); err != nil {
		return err
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	cond := "f.file_id IN (" + placeholders(len(ids)) + ")"
	have, err := revisionFiles(ctx, tx, to, cond, args...)
	if err != nil {
		return err
	}
	present := map[string]bool{}
	for _, f := range have {
		present[f.ID] = true
	}
	inBase, err := fileSet(ctx, tx, base, ids)
	if err != nil {
		return err
	}
	for id := range inBase { // removed by to: not brought back
		present[id] = true
	}
	args = args[:0]
	for _, id := range ids {
		if !present[id] {
			args = append(args, id)
		}
	}
	if len(args) == 0 {
		return nil
	}
	cond = "f.file_id IN (" + placeholders(len(args)) + ")"
	for _, el := range y {
		if _, err := tx.ExecContext(ctx, `INSERT INTO file_versions (line_id, file_id, valid_from, name, content_type, blob_id, width, height)
			SELECT ?, f.file_id, ?, f.name, f.content_type, f.blob_id, f.width, f.height FROM file_versions f
			WHERE f.line_id = ? AND f.valid_from <= ? AND `+cond+`
			ON CONFLICT (line_id, file_id) DO NOTHING`, append([]any{x[0].line, x[0].upto, el.line, el.upto}, args...)...); err != nil {
			return fmt.Errorf("store: unable to merge files: %w", err)
		}
	}
	return nil
}

// fileSet answers which of the files ids a revision has.
func fileSet(ctx context.Context, tx *Tx, revisionID string, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if revisionID == "" || len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	files, err := revisionFiles(ctx, tx, revisionID, "f.file_id IN ("+placeholders(len(ids))+")", args...)
	for _, f := range files {
		out[f.ID] = true
	}
	return out, err
}

// filesRemoved answers the files of ids that base and to have and other does not: other removed
// them.
func filesRemoved(ctx context.Context, tx *Tx, ids []string, to, other, base string) ([]string, error) {
	var sets [3]map[string]bool
	for i, rev := range []string{to, other, base} {
		var err error
		if sets[i], err = fileSet(ctx, tx, rev, ids); err != nil {
			return nil, err
		}
	}
	var out []string
	for _, id := range ids {
		if sets[0][id] && sets[2][id] && !sets[1][id] {
			out = append(out, id)
		}
	}
	return out, nil
}

// FindAllFiles returns every file of a revision, by id.
func (s *Store) FindAllFiles(ctx context.Context, revisionID string) ([]*store.RevisionFile, error) {
	return revisionFiles(ctx, s.reader, revisionID, "1 = 1")
}
