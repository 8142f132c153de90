package server

import (
	"context"
	"net/http"
	"net/url"
	"regexp"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// Per-operation wrappers (the generated strict interface gives every operation its own method,
// request and response types, so these stay one thin wrapper each): ListFiles and
// ListFilesInChangeRequestById, GetFileById and GetFileInChangeRequestById differ only in the
// revision they read (content.go's spaceRevision or changeRequestRevision).

// fileRoute serves the files of revisions at their downloadURL. The URL names the bytes by their
// SHA-256, so it is unguessable without read access to a revision holding the file.
const fileRoute = "/files/:hash/:name"

func (s *Server) toAPIFile(f *store.RevisionFile) gen.RevisionFile {
	out := gen.RevisionFile{Id: f.ID, Name: f.Name, ContentType: f.ContentType, Size: int(f.Size),
		DownloadURL: s.BaseURL + "/files/" + f.SHA256 + "/" + url.PathEscape(f.Name)}
	if f.Width != nil && f.Height != nil {
		out.Dimensions = &struct {
			Height int `json:"height"`
			Width  int `json:"width"`
		}{Height: *f.Height, Width: *f.Width}
	}
	return out
}

func (s *Server) filesResponse(ctx context.Context, revisionID string, cursor *string, limit *int) (gen.RevisionFileList, error) {
	list, err := s.Store.FindFiles(ctx, revisionID, page(cursor, limit))
	if err != nil {
		return gen.RevisionFileList{}, err
	}
	items := make([]gen.RevisionFile, 0, len(list.Items))
	for _, f := range list.Items {
		items = append(items, s.toAPIFile(f))
	}
	return gen.RevisionFileList{Items: items, Count: list.Count, Next: listNext(list.Next)}, nil
}

func (s *Server) ListFiles(ctx context.Context, req gen.ListFilesRequestObject) (gen.ListFilesResponseObject, error) {
	_, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	out, err := s.filesResponse(ctx, rev, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListFiles200JSONResponse(out), nil
}

func (s *Server) ListFilesInChangeRequestById(ctx context.Context, req gen.ListFilesInChangeRequestByIdRequestObject) (gen.ListFilesInChangeRequestByIdResponseObject, error) {
	_, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	out, err := s.filesResponse(ctx, rev, req.Params.Page, req.Params.Limit)
	if err != nil {
		return nil, err
	}
	return gen.ListFilesInChangeRequestById200JSONResponse(out), nil
}

func (s *Server) GetFileById(ctx context.Context, req gen.GetFileByIdRequestObject) (gen.GetFileByIdResponseObject, error) {
	_, rev, err := s.spaceRevision(ctx, req.SpaceId)
	if err != nil {
		return nil, err
	}
	f, err := s.Store.FindFile(ctx, rev, req.FileId)
	if err != nil {
		return nil, err
	}
	return gen.GetFileById200JSONResponse(s.toAPIFile(f)), nil
}

func (s *Server) GetFileInChangeRequestById(ctx context.Context, req gen.GetFileInChangeRequestByIdRequestObject) (gen.GetFileInChangeRequestByIdResponseObject, error) {
	_, rev, err := s.changeRequestRevision(ctx, req.SpaceId, req.ChangeRequestId)
	if err != nil {
		return nil, err
	}
	f, err := s.Store.FindFile(ctx, rev, req.FileId)
	if err != nil {
		return nil, err
	}
	return gen.GetFileInChangeRequestById200JSONResponse(s.toAPIFile(f)), nil
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// serveFile answers a file's bytes by its SHA-256 and name.
func (s *Server) serveFile(c echo.Context) error {
	hash := c.Param("hash")
	name, err := url.PathUnescape(c.Param("name"))
	if err != nil || !sha256Hex.MatchString(hash) {
		return store.Errorf(store.ENOTFOUND, "File not found.")
	}
	data, contentType, err := s.Store.FindBlob(c.Request().Context(), hash, name)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable") // the URL names the bytes
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	return c.Blob(http.StatusOK, contentType, data)
}
