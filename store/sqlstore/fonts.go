package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"

	"github.com/quire-docs/quire/store"
)

// Custom fonts: a row per font, a row per weight with its file.

func fontDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// putFontFace writes (or replaces) a face of a font.
func putFontFace(ctx context.Context, tx *Tx, fontID string, f store.CustomFontFace) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM custom_font_faces WHERE font_id = ? AND weight = ?`, fontID, f.Weight); err != nil {
		return fmt.Errorf("store: unable to replace font face: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO custom_font_faces (font_id, weight, format, storage_key, sha256, data) VALUES (?, ?, ?, ?, ?, ?)`,
		fontID, f.Weight, f.Format, f.StorageKey, fontDigest(f.Data), f.Data); err != nil {
		return fmt.Errorf("store: unable to add font face: %w", err)
	}
	return nil
}

// CreateCustomFont stores a font with its faces.
func (s *Store) CreateCustomFont(ctx context.Context, orgID, family string, faces []store.CustomFontFace) (*store.CustomFont, error) {
	var out *store.CustomFont
	err := s.write(ctx, func(tx *Tx) error {
		id, now := store.NewID(), formatTime(s.Now())
		if _, err := tx.ExecContext(ctx, `INSERT INTO custom_fonts (id, organization_id, family, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			id, orgID, family, now, now); err != nil {
			return fmt.Errorf("store: unable to create font: %w", err)
		}
		for _, f := range faces {
			if err := putFontFace(ctx, tx, id, f); err != nil {
				return err
			}
		}
		var err error
		out, err = findFont(ctx, tx, orgID, id)
		if err == nil {
			err = checkRegular(out)
		}
		return err
	})
	return out, err
}

// checkRegular refuses a font without its regular weight.
func checkRegular(f *store.CustomFont) error {
	for _, face := range f.Faces {
		if face.Weight == 400 {
			return nil
		}
	}
	return store.FieldErrorf("fontFaces", "a font needs its regular weight (400)")
}

// UpdateCustomFont applies an update to an organization's font.
func (s *Store) UpdateCustomFont(ctx context.Context, orgID, id string, upd store.CustomFontUpdate) (*store.CustomFont, error) {
	var out *store.CustomFont
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findFont(ctx, tx, orgID, id); err != nil {
			return err
		}
		for _, w := range upd.Remove {
			if _, err := tx.ExecContext(ctx, `DELETE FROM custom_font_faces WHERE font_id = ? AND weight = ?`, id, w); err != nil {
				return fmt.Errorf("store: unable to remove font face: %w", err)
			}
		}
		for _, f := range upd.Set {
			if err := putFontFace(ctx, tx, id, f); err != nil {
				return err
			}
		}
		if err := updateRow(ctx, tx, "custom_fonts", id,
			columnChange{upd.Family != nil, "family", nullString(upd.Family)},
			columnChange{true, "updated_at", formatTime(s.Now())}); err != nil {
			return err
		}
		var err error
		out, err = findFont(ctx, tx, orgID, id)
		if err == nil {
			err = checkRegular(out)
		}
		return err
	})
	return out, err
}

// FindCustomFont returns an organization's font.
func (s *Store) FindCustomFont(ctx context.Context, orgID, id string) (*store.CustomFont, error) {
	return findFont(ctx, s.reader, orgID, id)
}

func findFont(ctx context.Context, q querier, orgID, id string) (*store.CustomFont, error) {
	fonts, err := queryFonts(ctx, q, `WHERE f.id = ? AND (? = '' OR f.organization_id = ?)`, id, orgID, orgID)
	if err != nil {
		return nil, err
	}
	if len(fonts) == 0 {
		return nil, store.NotFound("Font")
	}
	return fonts[0], nil
}

// FindCustomFonts lists an organization's fonts, oldest first.
func (s *Store) FindCustomFonts(ctx context.Context, orgID string) ([]*store.CustomFont, error) {
	return queryFonts(ctx, s.reader, `WHERE f.organization_id = ?`, orgID)
}

// queryFonts reads fonts (a filter on f) with their faces, in two queries.
func queryFonts(ctx context.Context, q querier, where string, args ...any) ([]*store.CustomFont, error) {
	fonts, err := queryAll(ctx, q, "fonts", `SELECT f.id, f.organization_id, f.family, f.created_at, f.updated_at FROM custom_fonts f `+where+
		` ORDER BY f.created_at, f.id`, args, func(sc scanner) (*store.CustomFont, error) {
		var f store.CustomFont
		var created, updated string
		err := sc.Scan(&f.ID, &f.OrganizationID, &f.Family, &created, &updated)
		f.CreatedAt, f.UpdatedAt = parseTime(created), parseTime(updated)
		return &f, err
	})
	if err != nil || len(fonts) == 0 {
		return fonts, err
	}
	byID := map[string]*store.CustomFont{}
	ids := make([]string, 0, len(fonts))
	for _, f := range fonts {
		byID[f.ID] = f
		ids = append(ids, f.ID)
	}
	type face struct {
		font string
		store.CustomFontFace
	}
	faces, err := queryAll(ctx, q, "font faces", `SELECT font_id, weight, format, storage_key, sha256 FROM custom_font_faces
		WHERE font_id IN (SELECT value FROM json_each(?)) ORDER BY font_id, weight`, []any{jsonStrings(ids)}, func(sc scanner) (face, error) {
		var f face
		err := sc.Scan(&f.font, &f.Weight, &f.Format, &f.StorageKey, &f.SHA256)
		return f, err
	})
	if err != nil {
		return nil, err
	}
	for _, f := range faces {
		byID[f.font].Faces = append(byID[f.font].Faces, f.CustomFontFace)
	}
	for _, f := range fonts {
		sort.Slice(f.Faces, func(i, j int) bool { return f.Faces[i].Weight < f.Faces[j].Weight })
	}
	return fonts, nil
}

// DeleteCustomFont deletes an organization's font.
func (s *Store) DeleteCustomFont(ctx context.Context, orgID, id string) (bool, error) {
	var gone bool
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM custom_fonts WHERE id = ? AND organization_id = ?`, id, orgID)
		if err != nil {
			return fmt.Errorf("store: unable to delete font: %w", err)
		}
		n, _ := res.RowsAffected()
		gone = n > 0
		return nil
	})
	return gone, err
}

// FindCustomFontFile returns the bytes and format of a weight of an organization's font.
func (s *Store) FindCustomFontFile(ctx context.Context, orgID, id string, weight int) ([]byte, string, error) {
	var data []byte
	var format string
	err := s.reader.QueryRowContext(ctx, `SELECT ff.data, ff.format FROM custom_font_faces ff JOIN custom_fonts f ON f.id = ff.font_id
		WHERE ff.font_id = ? AND ff.weight = ? AND (? = '' OR f.organization_id = ?)`, id, weight, orgID, orgID).Scan(&data, &format)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", store.NotFound("Font file")
	}
	if err != nil {
		return nil, "", fmt.Errorf("store: unable to read font file: %w", err)
	}
	return data, format, nil
}
