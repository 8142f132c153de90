package server

import (
	"context"
	"strconv"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Custom fonts (issue 30 item 4): an organization's fonts, made of font files uploaded through
// generateStorageUploadURL (kind customization_font), checked to be fonts by their first bytes and
// kept with the font. Members read them; the create role in the organization changes them. Each
// weight is served at {BaseURL}/fonts/{fontId}/{weight}, and by every site of the organization at
// its own ~fonts/{fontId}/{weight}, which a customization's styling.font puts in the site's
// ~theme.css.

// fontFormats are the FontSource formats the API names; TrueType and OpenType files have none.
var fontFormats = map[string]gen.FontSourceFormat{"woff2": gen.FontSourceFormatWoff2, "woff": gen.FontSourceFormatWoff}

func (s *Server) toAPIFont(f *store.CustomFont, edit bool) gen.CustomFont {
	out := gen.CustomFont{Id: f.ID, Custom: true, FontFamily: f.Family, FontFaces: make([]gen.FontFace, 0, len(f.Faces))}
	out.Permissions.Edit = edit
	for _, face := range f.Faces {
		src := gen.FontSource{Url: s.BaseURL + "/fonts/" + f.ID + "/" + strconv.Itoa(face.Weight)}
		if format, ok := fontFormats[face.Format]; ok {
			src.Format = &format
		}
		out.FontFaces = append(out.FontFaces, gen.FontFace{Weight: face.Weight, Sources: []gen.FontSource{src}})
	}
	return out
}

// fontFace reads an uploaded font file: it must be an upload of the organization for a font,
// done, and a font.
func (s *Server) fontFace(ctx context.Context, orgID string, i, weight int, key string) (store.CustomFontFace, error) {
	field := "fontFaces[" + strconv.Itoa(i) + "].storageKey"
	u, data, err := s.Store.FindStorageUpload(ctx, orgID, key)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return store.CustomFontFace{}, store.FieldErrorf(field, "no upload %s in this organization", key)
	}
	if err != nil {
		return store.CustomFontFace{}, err
	}
	if u.Kind != string(gen.GenerateStorageUploadURLRequestKindCustomizationFont) {
		return store.CustomFontFace{}, store.FieldErrorf(field, "the upload %s is not a font upload (kind customization_font)", key)
	}
	if data == nil {
		return store.CustomFontFace{}, store.FieldErrorf(field, "the file of upload %s has not been PUT yet", key)
	}
	format := store.FontFormat(data)
	if format == "" {
		return store.CustomFontFace{}, store.FieldErrorf(field, "the file of upload %s is not a font (woff2, woff, TrueType or OpenType)", key)
	}
	return store.CustomFontFace{Weight: weight, Format: format, StorageKey: key, Data: data}, nil
}

// uniqueWeights refuses a weight given twice.
func uniqueWeights(weights []int) error {
	seen := map[int]bool{}
	for i, w := range weights {
		if seen[w] {
			return store.FieldErrorf("fontFaces["+strconv.Itoa(i)+"].weight", "the weight %d is given twice", w)
		}
		seen[w] = true
	}
	return nil
}

func (s *Server) ListCustomFonts(ctx context.Context, req gen.ListCustomFontsRequestObject) (gen.ListCustomFontsResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	fonts, err := s.Store.FindCustomFonts(ctx, req.OrganizationId)
	if err != nil {
		return nil, err
	}
	out := gen.ListCustomFonts200JSONResponse{Items: make([]gen.CustomFont, 0, len(fonts)), Count: len(fonts)}
	for _, f := range fonts {
		out.Items = append(out.Items, s.toAPIFont(f, role.AtLeast(store.RoleCreate)))
	}
	return out, nil
}

func (s *Server) GetCustomFont(ctx context.Context, req gen.GetCustomFontRequestObject) (gen.GetCustomFontResponseObject, error) {
	role, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleRead)
	if err != nil {
		return nil, err
	}
	f, err := s.Store.FindCustomFont(ctx, req.OrganizationId, req.FontId)
	if err != nil {
		return nil, err
	}
	return gen.GetCustomFont200JSONResponse(s.toAPIFont(f, role.AtLeast(store.RoleCreate))), nil
}

func (s *Server) CreateCustomFont(ctx context.Context, req gen.CreateCustomFontRequestObject) (gen.CreateCustomFontResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleCreate); err != nil {
		return nil, err
	}
	b := req.Body
	weights := make([]int, 0, len(b.FontFaces))
	for _, f := range b.FontFaces {
		weights = append(weights, f.Weight)
	}
	if err := uniqueWeights(weights); err != nil {
		return nil, err
	}
	faces := make([]store.CustomFontFace, 0, len(b.FontFaces))
	for i, f := range b.FontFaces {
		face, err := s.fontFace(ctx, req.OrganizationId, i, f.Weight, f.StorageKey)
		if err != nil {
			return nil, err
		}
		faces = append(faces, face)
	}
	font, err := s.Store.CreateCustomFont(ctx, req.OrganizationId, b.FontFamily, faces)
	if err != nil {
		return nil, err
	}
	return gen.CreateCustomFont201JSONResponse(s.toAPIFont(font, true)), nil
}

func (s *Server) UpdateCustomFont(ctx context.Context, req gen.UpdateCustomFontRequestObject) (gen.UpdateCustomFontResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleCreate); err != nil {
		return nil, err
	}
	if _, err := s.Store.FindCustomFont(ctx, req.OrganizationId, req.FontId); err != nil {
		return nil, err
	}
	b := req.Body
	upd := store.CustomFontUpdate{Family: b.FontFamily}
	if b.FontFaces != nil {
		weights := make([]int, 0, len(*b.FontFaces))
		for _, f := range *b.FontFaces {
			weights = append(weights, f.Weight)
		}
		if err := uniqueWeights(weights); err != nil {
			return nil, err
		}
		for i, f := range *b.FontFaces {
			key, err := f.StorageKey.Get()
			if err != nil {
				upd.Remove = append(upd.Remove, f.Weight)
				continue
			}
			face, err := s.fontFace(ctx, req.OrganizationId, i, f.Weight, key)
			if err != nil {
				return nil, err
			}
			upd.Set = append(upd.Set, face)
		}
	}
	font, err := s.Store.UpdateCustomFont(ctx, req.OrganizationId, req.FontId, upd)
	if err != nil {
		return nil, err
	}
	return gen.UpdateCustomFont201JSONResponse(s.toAPIFont(font, true)), nil
}

func (s *Server) DeleteCustomFont(ctx context.Context, req gen.DeleteCustomFontRequestObject) (gen.DeleteCustomFontResponseObject, error) {
	if _, err := s.Access.RequireOrgRole(ctx, req.OrganizationId, store.RoleCreate); err != nil {
		return nil, err
	}
	gone, err := s.Store.DeleteCustomFont(ctx, req.OrganizationId, req.FontId)
	if err != nil {
		return nil, err
	}
	if !gone {
		return gen.DeleteCustomFont204Response{}, nil
	}
	return gen.DeleteCustomFont205Response{}, nil
}
