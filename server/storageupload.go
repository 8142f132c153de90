package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// Uploads for import runs and fonts: generateStorageUploadURL records a file to come and answers
// a signed link, {BaseURL}/storage/uploads/{token}, valid for an hour, to PUT its bytes to once;
// the run (or createCustomFont) then names the file by its key. quire keeps uploads of kinds
// import_file and customization_font (a font file, checked by its first bytes).

// uploadRoute receives the bytes of an upload.
const uploadRoute = "/storage/uploads/:token"

// importMaxUpload caps one uploaded file for an import, fontMaxUpload one font file.
const (
	importMaxUpload = 50 << 20
	fontMaxUpload   = 5 << 20
)

var uploadLinks = linkKind{
	audience: "quire/upload-links",
	ttl:      time.Hour,
	notFound: "No such upload link: it is not one quire made.",
	expired:  "This upload link has expired: links last an hour; ask the API for a new one.",
}

type uploadClaims struct {
	Key string `json:"k"`
	jwt.RegisteredClaims
}

func (c *uploadClaims) registered() *jwt.RegisteredClaims { return &c.RegisteredClaims }

func (s *Server) GenerateStorageUploadURL(ctx context.Context, req gen.GenerateStorageUploadURLRequestObject) (gen.GenerateStorageUploadURLResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleEdit); err != nil {
		return nil, err
	}
	b := req.Body
	limit, prefix := int64(importMaxUpload), "import/"
	switch b.Kind {
	case gen.GenerateStorageUploadURLRequestKindImportFile:
	case gen.GenerateStorageUploadURLRequestKindCustomizationFont:
		limit, prefix = fontMaxUpload, "font/"
	default:
		return nil, store.FieldErrorf("kind", "quire keeps uploads for import runs (import_file) and fonts (customization_font), not %s", b.Kind)
	}
	size := float64(b.File.Size)
	if size != math.Trunc(size) || size > float64(limit) {
		return nil, store.FieldErrorf("file.size", "must be a whole number of bytes, at most %d", limit)
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	key := prefix + hex.EncodeToString(raw)
	u := &store.StorageUpload{Key: key, OrganizationID: req.OrganizationId, Kind: string(b.Kind), Name: b.File.Name,
		ContentType: b.File.Type, Size: int64(size), CreatedBy: access.Caller(ctx).ID}
	if err := s.Store.CreateStorageUpload(ctx, u); err != nil {
		return nil, err
	}
	token, err := s.signLink(uploadLinks, &uploadClaims{Key: key}, s.Store.Now())
	if err != nil {
		return nil, err
	}
	return gen.GenerateStorageUploadURL201JSONResponse{Object: gen.StorageSignedUrl, Key: key,
		Url: s.BaseURL + "/storage/uploads/" + token}, nil
}

// serveUpload stores the bytes PUT to an upload link: exactly the size announced, once.
func (s *Server) serveUpload(c echo.Context) error {
	var claims uploadClaims
	if err := s.readLink(uploadLinks, c.Param("token"), &claims, s.Store.Now()); err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, _, err := s.Store.FindStorageUpload(ctx, "", claims.Key)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(c.Request().Body, u.Size+1))
	if err != nil {
		return err
	}
	if int64(len(data)) != u.Size {
		return badRequest(fmt.Sprintf("The file has %d bytes; %d were announced.", len(data), u.Size))
	}
	if u.Kind == string(gen.GenerateStorageUploadURLRequestKindCustomizationFont) && store.FontFormat(data) == "" {
		return badRequest("The file is not a font: quire takes woff2, woff, TrueType and OpenType files.")
	}
	if err := s.Store.PutStorageUpload(ctx, u.Key, data); err != nil {
		return err
	}
	return c.NoContent(http.StatusOK)
}
