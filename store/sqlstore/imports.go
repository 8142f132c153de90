package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

const importRunColumns = `id, organization_id, space_id, change_request, page_id, site_id, source, url, files, enhance,
	status, reason, pages, created_by, created_at, updated_at, started_at, completed_at`

// scanImportRun reads a run as of now: one left behind past store.ImportRunTimeout reads as failed.
func scanImportRun(now func() string) func(sc scanner) (*store.ImportRun, error) {
	return func(sc scanner) (*store.ImportRun, error) {
		var r store.ImportRun
		var files, pages, created, updated string
		var enhance int
		var started, completed sql.NullString
		if err := sc.Scan(&r.ID, &r.OrganizationID, &r.SpaceID, &r.ChangeRequest, &r.Page, &r.Site, &r.Source, &r.URL, &files,
			&enhance, &r.Status, &r.Reason, &pages, &r.CreatedBy, &created, &updated, &started, &completed); err != nil {
			return nil, err
		}
		r.Enhance = enhance != 0
		r.CreatedAt, r.UpdatedAt = parseTime(created), parseTime(updated)
		if started.Valid {
			t := parseTime(started.String)
			r.StartedAt = &t
		}
		if completed.Valid {
			t := parseTime(completed.String)
			r.CompletedAt = &t
		}
		if err := json.Unmarshal([]byte(files), &r.Files); err != nil {
			return nil, fmt.Errorf("import run %s files: %w", r.ID, err)
		}
		if err := json.Unmarshal([]byte(pages), &r.Pages); err != nil {
			return nil, fmt.Errorf("import run %s pages: %w", r.ID, err)
		}
		if active(r.Status) && parseTime(now()).Sub(r.CreatedAt) > store.ImportRunTimeout {
			r.Status, r.Reason = store.ImportFailed, "The import never reported back: it was left behind."
		}
		return &r, nil
	}
}

func active(status string) bool {
	return status == store.ImportPending || status == store.ImportInProgress
}

// CreateImportRun records a pending run and queues its job.
func (s *Store) CreateImportRun(ctx context.Context, r *store.ImportRun) (*store.ImportRun, error) {
	files, err := json.Marshal(r.Files)
	if err != nil {
		return nil, err
	}
	var out *store.ImportRun
	err = s.write(ctx, func(tx *Tx) error {
		id, now := store.NewID(), formatTime(tx.now)
		site := r.Site
		if site == "" { // the space's site, when it belongs to exactly one
			var sites []string
			if err := queryEach(ctx, tx, "a space's sites", `SELECT DISTINCT site_id FROM site_spaces WHERE space_id = ? ORDER BY site_id`,
				[]any{r.SpaceID}, func(sc scanner) error {
					var id string
					sites = append(sites, id)
					return sc.Scan(&sites[len(sites)-1])
				}); err != nil {
				return err
			}
			if len(sites) == 1 {
				site = sites[0]
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO import_runs (id, organization_id, space_id, change_request, page_id,
			site_id, source, url, files, enhance, status, created_by, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, r.OrganizationID, r.SpaceID, r.ChangeRequest, r.Page, site,
			r.Source, r.URL, string(files), boolInt(r.Enhance), store.ImportPending, r.CreatedBy, now, now); err != nil {
			return fmt.Errorf("store: unable to record an import run: %w", err)
		}
		if err := enqueueJob(ctx, tx, store.ImportRunJob, id, tx.now); err != nil {
			return err
		}
		out, err = findImportRun(ctx, tx, now, r.OrganizationID, id)
		return err
	})
	return out, err
}

func findImportRun(ctx context.Context, q querier, now, orgID, id string) (*store.ImportRun, error) {
	where, args := `id = ?`, []any{id}
	if orgID != "" {
		where, args = where+` AND organization_id = ?`, append(args, orgID)
	}
	r, err := scanImportRun(func() string { return now })(q.QueryRowContext(ctx, `SELECT `+importRunColumns+` FROM import_runs WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Import run")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find an import run: %w", err)
	}
	return r, nil
}

// FindImportRun returns an organization's run.
func (s *Store) FindImportRun(ctx context.Context, orgID, id string) (*store.ImportRun, error) {
	return findImportRun(ctx, s.reader, formatTime(s.Now()), orgID, id)
}

// FindImportRuns lists an organization's runs, most recent first.
func (s *Store) FindImportRuns(ctx context.Context, orgID string, f store.ImportRunFilter, p store.Page) (store.List[*store.ImportRun], error) {
	now := formatTime(s.Now())
	left := formatTime(s.Now().Add(-store.ImportRunTimeout))
	q := &listQuery{cols: importRunColumns, from: `import_runs`, order: byKeys(`created_at`, `id`), desc: true}
	q.and(`organization_id = ?`, orgID)
	if f.Space != "" {
		q.and(`space_id = ?`, f.Space)
	}
	if f.ChangeRequest != "" {
		q.and(`change_request = ?`, f.ChangeRequest)
	}
	if f.Site != "" {
		q.and(`site_id = ?`, f.Site)
	}
	// A run left behind reads as failed: the filters see it so.
	switch f.Status {
	case "":
	case "active":
		q.and(`status IN ('pending', 'in-progress') AND created_at >= ?`, left)
	case store.ImportPending, store.ImportInProgress:
		q.and(`status = ? AND created_at >= ?`, f.Status, left)
	case store.ImportFailed:
		q.and(`(status = 'failed' OR (status IN ('pending', 'in-progress') AND created_at < ?))`, left)
	default:
		q.and(`status = ?`, f.Status)
	}
	return findList(ctx, s.reader, q, p, "import runs", scanImportRun(func() string { return now }))
}

// UpdateImportRun moves an active run on.
func (s *Store) UpdateImportRun(ctx context.Context, id string, u store.ImportRunUpdate) (*store.ImportRun, error) {
	var out *store.ImportRun
	err := s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		r, err := findImportRun(ctx, tx, now, "", id)
		if err != nil {
			return err
		}
		if !active(r.Status) {
			return store.Errorf(store.ECONFLICT, "The import run is %s.", r.Status)
		}
		pages := r.Pages
		if u.Pages != nil {
			pages = u.Pages
		}
		raw, err := json.Marshal(pages)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE import_runs SET status = ?, reason = ?, pages = ?, updated_at = ?,
			started_at = COALESCE(started_at, ?),
			completed_at = CASE WHEN ? IN ('completed', 'failed') THEN ? ELSE completed_at END WHERE id = ?`,
			u.Status, u.Reason, string(raw), now, now, u.Status, now, id); err != nil {
			return fmt.Errorf("store: unable to update an import run: %w", err)
		}
		out, err = findImportRun(ctx, tx, now, "", id)
		return err
	})
	return out, err
}

// CancelImportRun cancels an active run.
func (s *Store) CancelImportRun(ctx context.Context, orgID, id string) (*store.ImportRun, error) {
	var out *store.ImportRun
	err := s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		r, err := findImportRun(ctx, tx, now, orgID, id)
		if err != nil {
			return err
		}
		if !active(r.Status) {
			return store.Errorf(store.ECONFLICT, "The import run is %s: only a pending or in-progress run can be cancelled.", r.Status)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE import_runs SET status = ?, updated_at = ? WHERE id = ?`,
			store.ImportCancelled, now, id); err != nil {
			return fmt.Errorf("store: unable to cancel an import run: %w", err)
		}
		out, err = findImportRun(ctx, tx, now, orgID, id)
		return err
	})
	return out, err
}

// CreateStorageUpload records an upload to come.
func (s *Store) CreateStorageUpload(ctx context.Context, u *store.StorageUpload) error {
	return s.write(ctx, func(tx *Tx) error {
		u.CreatedAt = tx.now
		if _, err := tx.ExecContext(ctx, `INSERT INTO storage_uploads (key, organization_id, kind, name, content_type, size,
			created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, u.Key, u.OrganizationID, u.Kind, u.Name, u.ContentType,
			u.Size, u.CreatedBy, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to record an upload: %w", err)
		}
		return nil
	})
}

// PutStorageUpload stores an upload's bytes, once.
func (s *Store) PutStorageUpload(ctx context.Context, key string, data []byte) error {
	if data == nil {
		data = []byte{}
	}
	return s.write(ctx, func(tx *Tx) error {
		u, _, err := findStorageUpload(ctx, tx, "", key)
		if err != nil {
			return err
		}
		if u.Uploaded {
			return store.Errorf(store.ECONFLICT, "The file was uploaded already.")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE storage_uploads SET data = ? WHERE key = ?`, data, key); err != nil {
			return fmt.Errorf("store: unable to store an upload: %w", err)
		}
		return nil
	})
}

// FindStorageUpload returns an organization's upload and its bytes.
func (s *Store) FindStorageUpload(ctx context.Context, orgID, key string) (*store.StorageUpload, []byte, error) {
	return findStorageUpload(ctx, s.reader, orgID, key)
}

func findStorageUpload(ctx context.Context, q querier, orgID, key string) (*store.StorageUpload, []byte, error) {
	var u store.StorageUpload
	var created string
	var data []byte
	err := q.QueryRowContext(ctx, `SELECT key, organization_id, kind, name, content_type, size, created_by, created_at, data
		FROM storage_uploads WHERE key = ? AND (? = '' OR organization_id = ?)`, key, orgID, orgID).Scan(&u.Key,
		&u.OrganizationID, &u.Kind, &u.Name, &u.ContentType, &u.Size, &u.CreatedBy, &created, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, store.NotFound("Upload")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: unable to find an upload: %w", err)
	}
	u.CreatedAt, u.Uploaded = parseTime(created), data != nil
	return &u, data, nil
}
