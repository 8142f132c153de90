package server

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/quire-docs/quire/internal/gitsync"
	"github.com/quire-docs/quire/internal/webimport"
	"github.com/quire-docs/quire/store"
)

// runImportRun is the job of an import run: it reads the source into Git Sync layouts
// (internal/webimport), applies each with internal/gitsync's importer, and ends the run completed
// with its pages, or failed with why. A cancelled run stops at its next step.
func (s *Server) runImportRun(ctx context.Context, id string) error {
	r, err := s.Store.FindImportRun(ctx, "", id)
	if err != nil {
		return err
	}
	if _, err := s.Store.UpdateImportRun(ctx, r.ID, store.ImportRunUpdate{Status: store.ImportInProgress}); err != nil {
		if store.ErrorCode(err) == store.ECONFLICT {
			return nil // cancelled before it started
		}
		return err
	}
	pages, err := s.importRun(ctx, r)
	if store.ErrorCode(err) == store.ECONFLICT && errors.Is(err, errRunStopped) {
		return nil
	}
	u := store.ImportRunUpdate{Status: store.ImportCompleted, Pages: pages}
	if err != nil {
		u = store.ImportRunUpdate{Status: store.ImportFailed, Reason: err.Error(), Pages: pages}
	}
	if _, uerr := s.Store.UpdateImportRun(ctx, r.ID, u); uerr != nil && store.ErrorCode(uerr) != store.ECONFLICT {
		return errors.Join(err, uerr)
	}
	return nil
}

// errRunStopped marks the end of a run that was cancelled while it ran.
var errRunStopped = store.Errorf(store.ECONFLICT, "the import run was cancelled")

// stillRunning records a run's progress; errRunStopped once it was cancelled.
func (s *Server) stillRunning(ctx context.Context, id string, pages []store.ImportRunPage) error {
	_, err := s.Store.UpdateImportRun(ctx, id, store.ImportRunUpdate{Status: store.ImportInProgress, Pages: pages})
	if store.ErrorCode(err) == store.ECONFLICT {
		return errRunStopped
	}
	return err
}

// importRun does a run's work and answers the pages it imported.
func (s *Server) importRun(ctx context.Context, r *store.ImportRun) ([]store.ImportRunPage, error) {
	tmp, err := os.MkdirTemp("", "quire-import-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var dirs []string
	sources := map[string]string{} // layout file (in dirs[0]) → the URL it came from
	switch r.Source {
	case store.ImportFromWebsite:
		docs, err := webimport.Crawl(ctx, s.Fetcher, r.URL, webimport.DefaultLimits, func(docs []webimport.Doc) error {
			pending := make([]store.ImportRunPage, len(docs))
			for i, d := range docs {
				pending[i] = store.ImportRunPage{SourceURL: d.SourceURL, Type: "page", Status: "pending"}
			}
			return s.stillRunning(ctx, r.ID, pending)
		})
		if err != nil {
			return nil, err
		}
		files, err := webimport.WriteLayout(tmp, docs)
		if err != nil {
			return nil, err
		}
		for i, f := range files {
			sources[f] = docs[i].SourceURL
		}
		dirs = append(dirs, tmp)
	case store.ImportFromFiles:
		if dirs, err = s.uploadedLayouts(ctx, r, tmp); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown source %q", r.Source)
	}
	var out []store.ImportRunPage
	for i, dir := range dirs {
		im, err := gitsync.Read(dir, nil)
		if err != nil {
			return out, err
		}
		if len(im.Pages) == 0 {
			return out, errors.New("there is no page to import")
		}
		if err := s.stillRunning(ctx, r.ID, out); err != nil {
			return out, err
		}
		subject := "Import from " + r.URL
		if r.Source == store.ImportFromFiles {
			subject = "Import of uploaded files"
		}
		_, applied, err := gitsync.Apply(ctx, s.Store, im, gitsync.ApplyOptions{OrgID: r.OrganizationID, SpaceID: r.SpaceID,
			UserID: r.CreatedBy, Subject: subject, ChangeRequest: r.ChangeRequest, Parent: r.Page}, nil)
		if err != nil {
			return out, err
		}
		if r.ChangeRequest == "" { // merged into the space: a linked space pushes it
			if err := s.pushContent(ctx, r.SpaceID, r.CreatedBy, subject); err != nil {
				s.Log.ErrorContext(ctx, "queueing the push of an import run", "run", r.ID, "err", err)
			}
		}
		for _, p := range im.Pages {
			pg := store.ImportRunPage{ID: applied.PageIDs[p.Ref], Type: "page", Status: "complete"}
			if p.Kind == gitsync.KindGroup {
				pg.Type = "folder"
			}
			if i == 0 {
				pg.SourceURL = sources[p.File]
			}
			out = append(out, pg)
		}
		for _, n := range im.Notes {
			s.Log.InfoContext(ctx, "import note", "run", r.ID, "note", n.Error())
		}
	}
	return out, nil
}

// uploadedLayouts writes a run's uploaded files as layouts under tmp: the markdown and HTML files
// together, in the order given, and each zip (in the Git Sync layout) apart.
func (s *Server) uploadedLayouts(ctx context.Context, r *store.ImportRun, tmp string) ([]string, error) {
	var docs []webimport.Doc
	var zips []string
	for i, key := range r.Files {
		u, data, err := s.Store.FindStorageUpload(ctx, r.OrganizationID, key)
		if err != nil {
			return nil, fmt.Errorf("file %s: %w", key, err)
		}
		switch uploadFormat(u.Name, u.ContentType) {
		case "markdown":
			docs = append(docs, webimport.FromMarkdown(u.Name, data))
		case "html":
			d, err := webimport.FromHTML(data, "")
			if err != nil {
				return nil, fmt.Errorf("%s: not readable HTML: %w", u.Name, err)
			}
			if d.Title == "" {
				d.Title = webimport.FromMarkdown(u.Name, nil).Title
			}
			docs = append(docs, d)
		case "zip":
			dir, err := webimport.Unzip(data, filepath.Join(tmp, fmt.Sprintf("zip-%d", i)), s.importMaxBytes())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", u.Name, err)
			}
			zips = append(zips, dir)
		default:
			return nil, fmt.Errorf("%s: quire imports markdown, HTML and zip files, not %s", u.Name, u.ContentType)
		}
	}
	var dirs []string
	if len(docs) > 0 {
		dir := filepath.Join(tmp, "files")
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, err
		}
		if _, err := webimport.WriteLayout(dir, docs); err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	return append(dirs, zips...), nil
}

// uploadFormat tells an upload's format by its name, else its content type.
func uploadFormat(name, contentType string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdx":
		return "markdown"
	case ".html", ".htm":
		return "html"
	case ".zip":
		return "zip"
	}
	switch mt, _, _ := mime.ParseMediaType(contentType); mt {
	case "text/markdown", "text/x-markdown":
		return "markdown"
	case "text/html":
		return "html"
	case "application/zip", "application/x-zip-compressed":
		return "zip"
	}
	return ""
}

// importMaxBytes caps a zip once extracted: what a git run may hold.
func (s *Server) importMaxBytes() int64 {
	if s.gitMaxBytes > 0 {
		return s.gitMaxBytes
	}
	return gitsync.DefaultMaxRepoBytes
}
