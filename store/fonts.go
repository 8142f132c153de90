package store

import (
	"bytes"
	"context"
	"time"
)

// CustomFont is a font an organization uploaded for its sites' customization: a family with one
// file per weight.
type CustomFont struct {
	ID             string
	OrganizationID string
	Family         string
	Faces          []CustomFontFace // by weight
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// CustomFontFace is one weight of a font: its file's format (FontFormat), the upload it came
// from, its digest, and (when written) its bytes.
type CustomFontFace struct {
	Weight     int
	Format     string
	StorageKey string
	SHA256     string
	Data       []byte // given to write; not read back with the font
}

// FontFormat names the format of a font file by its first bytes: woff2, woff, truetype or
// opentype; "" for anything else.
func FontFormat(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("wOF2")):
		return "woff2"
	case bytes.HasPrefix(data, []byte("wOFF")):
		return "woff"
	case bytes.HasPrefix(data, []byte{0, 1, 0, 0}), bytes.HasPrefix(data, []byte("true")):
		return "truetype"
	case bytes.HasPrefix(data, []byte("OTTO")):
		return "opentype"
	}
	return ""
}

// CustomFontUpdate changes a font: a new family, faces to set (a weight it has is replaced) and
// weights to remove. A font keeps its regular weight (400).
type CustomFontUpdate struct {
	Family *string
	Set    []CustomFontFace
	Remove []int
}

// CustomFonts are the organizations' custom fonts.
type CustomFonts interface {
	// CreateCustomFont stores a font with its faces (each with its bytes); one without a regular
	// face (weight 400) is invalid.
	CreateCustomFont(ctx context.Context, orgID, family string, faces []CustomFontFace) (*CustomFont, error)
	// UpdateCustomFont applies an update to an organization's font.
	UpdateCustomFont(ctx context.Context, orgID, id string, upd CustomFontUpdate) (*CustomFont, error)
	// FindCustomFont returns an organization's font (orgID "": whatever its organization).
	FindCustomFont(ctx context.Context, orgID, id string) (*CustomFont, error)
	// FindCustomFonts lists an organization's fonts, oldest first.
	FindCustomFonts(ctx context.Context, orgID string) ([]*CustomFont, error)
	// DeleteCustomFont deletes an organization's font; false when there was none.
	DeleteCustomFont(ctx context.Context, orgID, id string) (bool, error)
	// FindCustomFontFile returns the bytes and format of a weight of an organization's font.
	FindCustomFontFile(ctx context.Context, orgID, id string, weight int) ([]byte, string, error)
}
