package store

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
)

// RevisionFile is a file of a revision.
type RevisionFile struct {
	ID          string
	Name        string
	ContentType string
	Size        int64
	SHA256      string // hex: the download URL names the bytes by it
	Width       *int
	Height      *int
}

// FileUpload is a file an insert_files change brings.
type FileUpload struct {
	ID          string // given when the batch is applied
	Ref         *string
	Name        string
	ContentType string
	Data        []byte
}

const fileColumns = `f.file_id, f.name, f.content_type, b.size, b.sha256, f.width, f.height`

func scanFile(sc interface{ Scan(...any) error }, f *RevisionFile) error {
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

// FindFiles lists the files of a revision, by id.
func (s *Store) FindFiles(ctx context.Context, revisionID string, p Page) (List[*RevisionFile], error) {
	cur, err := decodeCursor(p.Cursor, 1)
	if err != nil {
		return List[*RevisionFile]{}, err
	}
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM revision_files WHERE revision_id = ?`, revisionID).Scan(&count); err != nil {
		return List[*RevisionFile]{}, fmt.Errorf("store: unable to count files: %w", err)
	}
	after := ""
	if cur != nil {
		after = cur[0]
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT `+fileColumns+` FROM revision_files f JOIN blobs b ON b.id = f.blob_id
		WHERE f.revision_id = ? AND f.file_id > ? ORDER BY f.file_id LIMIT ?`, revisionID, after, p.limit()+1)
	if err != nil {
		return List[*RevisionFile]{}, fmt.Errorf("store: unable to list files: %w", err)
	}
	defer rows.Close()
	var items []*RevisionFile
	for rows.Next() {
		f := &RevisionFile{}
		if err := scanFile(rows, f); err != nil {
			return List[*RevisionFile]{}, fmt.Errorf("store: unable to list files: %w", err)
		}
		items = append(items, f)
	}
	if err := rows.Err(); err != nil {
		return List[*RevisionFile]{}, fmt.Errorf("store: unable to list files: %w", err)
	}
	return finishPage(items, p.limit(), count, func(f *RevisionFile) []string { return []string{f.ID} }), nil
}

// FindFile returns a file of a revision.
func (s *Store) FindFile(ctx context.Context, revisionID, fileID string) (*RevisionFile, error) {
	f := &RevisionFile{}
	err := scanFile(s.reader.QueryRowContext(ctx, `SELECT `+fileColumns+` FROM revision_files f JOIN blobs b ON b.id = f.blob_id
		WHERE f.revision_id = ? AND f.file_id = ?`, revisionID, fileID), f)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("File")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find file: %w", err)
	}
	return f, nil
}

// FindFilesByID returns the files of a revision with the given ids, in one query.
func (s *Store) FindFilesByID(ctx context.Context, revisionID string, ids []string) (map[string]*RevisionFile, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT `+fileColumns+` FROM revision_files f JOIN blobs b ON b.id = f.blob_id
		WHERE f.revision_id = ? AND f.file_id IN (SELECT value FROM json_each(?))`, revisionID, jsonStrings(ids))
	if err != nil {
		return nil, fmt.Errorf("store: unable to find files: %w", err)
	}
	defer rows.Close()
	out := map[string]*RevisionFile{}
	for rows.Next() {
		f := &RevisionFile{}
		if err := scanFile(rows, f); err != nil {
			return nil, fmt.Errorf("store: unable to find files: %w", err)
		}
		out[f.ID] = f
	}
	return out, rows.Err()
}

// FindBlob returns the bytes stored under a SHA-256 (hex) and a content type a revision gave
// them under that name, for serving a download URL.
func (s *Store) FindBlob(ctx context.Context, sha, name string) (data []byte, contentType string, err error) {
	err = s.reader.QueryRowContext(ctx, `SELECT b.data, f.content_type FROM blobs b
		JOIN revision_files f ON f.blob_id = b.id AND f.name = ?
		WHERE b.sha256 = ? LIMIT 1`, name, sha).Scan(&data, &contentType)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", notFound("File")
	}
	if err != nil {
		return nil, "", fmt.Errorf("store: unable to read file: %w", err)
	}
	return data, contentType, nil
}

// insertFiles adds uploaded files (their ids set) to a revision.
func insertFiles(ctx context.Context, tx *Tx, revisionID string, files []FileUpload) error {
	for _, f := range files {
		sum := sha256.Sum256(f.Data)
		sha := hex.EncodeToString(sum[:])
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO blobs (sha256, size, data) VALUES (?, ?, ?)`, sha, len(f.Data), f.Data); err != nil {
			return fmt.Errorf("store: unable to store file: %w", err)
		}
		var w, h any
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(f.Data)); err == nil {
			w, h = cfg.Width, cfg.Height
		}
		id := f.ID
		if _, err := tx.ExecContext(ctx, `INSERT INTO revision_files (revision_id, file_id, name, content_type, blob_id, width, height)
			SELECT ?, ?, ?, ?, id, ?, ? FROM blobs WHERE sha256 = ?`, revisionID, id, f.Name, f.ContentType, w, h, sha); err != nil {
			return fmt.Errorf("store: unable to add file: %w", err)
		}
	}
	return nil
}

// mergeFiles adds to a revision the files of another it lacks: files are only ever added, so a
// merge holds the files of both sides.
func mergeFiles(ctx context.Context, tx *Tx, to, other string) error {
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO revision_files (revision_id, file_id, name, content_type, blob_id, width, height)
		SELECT ?, file_id, name, content_type, blob_id, width, height FROM revision_files WHERE revision_id = ?`, to, other); err != nil {
		return fmt.Errorf("store: unable to merge files: %w", err)
	}
	return nil
}

// copyFiles gives a new revision the files of another.
func copyFiles(ctx context.Context, tx *Tx, to, from string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO revision_files (revision_id, file_id, name, content_type, blob_id, width, height)
		SELECT ?, file_id, name, content_type, blob_id, width, height FROM revision_files WHERE revision_id = ?`, to, from); err != nil {
		return fmt.Errorf("store: unable to copy files: %w", err)
	}
	return nil
}

// FindAllFiles returns every file of a revision, by id.
func (s *Store) FindAllFiles(ctx context.Context, revisionID string) ([]*RevisionFile, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT `+fileColumns+` FROM revision_files f JOIN blobs b ON b.id = f.blob_id
		WHERE f.revision_id = ? ORDER BY f.file_id`, revisionID)
	if err != nil {
		return nil, fmt.Errorf("store: unable to list files: %w", err)
	}
	defer rows.Close()
	var out []*RevisionFile
	for rows.Next() {
		f := &RevisionFile{}
		if err := scanFile(rows, f); err != nil {
			return nil, fmt.Errorf("store: unable to list files: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
