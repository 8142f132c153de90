package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/quire-docs/quire/store"
)

const openAPISpecColumns = `s.id, s.organization_id, s.slug, COALESCE(s.source_url, ''), s.visibility, s.processing_state,
	COALESCE(s.last_version_id, ''), s.last_processed_at, COALESCE(s.last_error_code, ''), s.last_errors,
	s.last_error_count, s.created_at, s.updated_at`

func scanOpenAPISpec(sc interface{ Scan(...any) error }) (*store.OpenAPISpec, error) {
	var sp store.OpenAPISpec
	var processed sql.NullString
	var errs, created, updated string
	if err := sc.Scan(&sp.ID, &sp.OrganizationID, &sp.Slug, &sp.SourceURL, &sp.Visibility, &sp.ProcessingState,
		&sp.LastVersionID, &processed, &sp.LastErrorCode, &errs, &sp.LastErrorCount, &created, &updated); err != nil {
		return nil, err
	}
	if processed.Valid {
		t := parseTime(processed.String)
		sp.LastProcessedAt = &t
	}
	if err := json.Unmarshal([]byte(errs), &sp.LastErrors); err != nil {
		return nil, fmt.Errorf("store: unable to read processing errors: %w", err)
	}
	sp.CreatedAt, sp.UpdatedAt = parseTime(created), parseTime(updated)
	return &sp, nil
}

func findOpenAPISpec(ctx context.Context, q querier, where string, args ...any) (*store.OpenAPISpec, error) {
	sp, err := scanOpenAPISpec(q.QueryRowContext(ctx, `SELECT `+openAPISpecColumns+` FROM openapi_specs s WHERE `+where, args...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("OpenAPI specification")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find OpenAPI specification: %w", err)
	}
	return sp, nil
}

// FindOpenAPISpec returns an organization's specification by slug.
func (s *Store) FindOpenAPISpec(ctx context.Context, orgID, slug string) (*store.OpenAPISpec, error) {
	return findOpenAPISpec(ctx, s.reader, `s.organization_id = ? AND s.slug = ?`, orgID, slug)
}

// FindOpenAPISpecByID returns a specification by id, whatever its organization.
func (s *Store) FindOpenAPISpecByID(ctx context.Context, id string) (*store.OpenAPISpec, error) {
	return findOpenAPISpec(ctx, s.reader, `s.id = ?`, id)
}

// sourceColumns are the column values of a source: a URL or a text, the other NULL.
func sourceColumns(src store.OpenAPISource) (any, any) {
	if src.URL != "" {
		return src.URL, nil
	}
	return nil, src.Text
}

// queueOpenAPIProcessing marks a specification pending and queues a processing run unless one
// is queued already.
func queueOpenAPIProcessing(ctx context.Context, tx *Tx, specID string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE openapi_specs SET processing_state = 'pending' WHERE id = ?`, specID); err != nil {
		return fmt.Errorf("store: unable to queue OpenAPI processing: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM jobs WHERE kind = ? AND payload = ? AND state = 'pending'`,
		store.JobProcessOpenAPISpec, specID).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check jobs: %w", err)
	}
	if n > 0 {
		return nil
	}
	return enqueueJob(ctx, tx, store.JobProcessOpenAPISpec, specID, tx.now)
}

// CreateOpenAPISpec creates a specification and queues its processing; ECONFLICT when the slug
// is taken in the organization.
func (s *Store) CreateOpenAPISpec(ctx context.Context, orgID, slug string, src store.OpenAPISource) (*store.OpenAPISpec, error) {
	var sp *store.OpenAPISpec
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findOpenAPISpec(ctx, tx, `s.organization_id = ? AND s.slug = ?`, orgID, slug); err == nil {
			return store.Errorf(store.ECONFLICT, "slug: the organization already has an OpenAPI specification %q.", slug)
		} else if store.ErrorCode(err) != store.ENOTFOUND {
			return err
		}
		var err error
		sp, err = insertOpenAPISpec(ctx, tx, orgID, slug, src)
		return err
	})
	return sp, err
}

func insertOpenAPISpec(ctx context.Context, tx *Tx, orgID, slug string, src store.OpenAPISource) (*store.OpenAPISpec, error) {
	id := store.NewID()
	u, text := sourceColumns(src)
	now := formatTime(tx.now)
	if _, err := tx.ExecContext(ctx, `INSERT INTO openapi_specs (id, organization_id, slug, source_url, source_text, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, id, orgID, slug, u, text, now, now); err != nil {
		return nil, fmt.Errorf("store: unable to create OpenAPI specification: %w", err)
	}
	if err := queueOpenAPIProcessing(ctx, tx, id); err != nil {
		return nil, err
	}
	return findOpenAPISpec(ctx, tx, `s.id = ?`, id)
}

// PutOpenAPISpec sets the source of the specification with a slug, creating it when absent, and
// queues its processing.
func (s *Store) PutOpenAPISpec(ctx context.Context, orgID, slug string, src store.OpenAPISource) (*store.OpenAPISpec, bool, error) {
	var sp *store.OpenAPISpec
	created := false
	err := s.write(ctx, func(tx *Tx) error {
		old, err := findOpenAPISpec(ctx, tx, `s.organization_id = ? AND s.slug = ?`, orgID, slug)
		if store.ErrorCode(err) == store.ENOTFOUND {
			created = true
			sp, err = insertOpenAPISpec(ctx, tx, orgID, slug, src)
			return err
		}
		if err != nil {
			return err
		}
		u, text := sourceColumns(src)
		if _, err := tx.ExecContext(ctx, `UPDATE openapi_specs SET source_url = ?, source_text = ?, generation = generation + 1,
			updated_at = ? WHERE id = ?`, u, text, formatTime(tx.now), old.ID); err != nil {
			return fmt.Errorf("store: unable to update OpenAPI specification: %w", err)
		}
		if err := queueOpenAPIProcessing(ctx, tx, old.ID); err != nil {
			return err
		}
		sp, err = findOpenAPISpec(ctx, tx, `s.id = ?`, old.ID)
		return err
	})
	return sp, created, err
}

// FindOpenAPISpecs lists an organization's specifications by slug.
func (s *Store) FindOpenAPISpecs(ctx context.Context, orgID string, p store.Page) (store.List[*store.OpenAPISpec], error) {
	q := &listQuery{cols: openAPISpecColumns, from: `openapi_specs s`, order: byKeys(`s.slug`)}
	q.and(`s.organization_id = ?`, orgID)
	return findList(ctx, s.reader, q, p, "OpenAPI specifications", scanOpenAPISpec)
}

// UpdateOpenAPISpecVisibility sets who can read a specification's documents.
func (s *Store) UpdateOpenAPISpecVisibility(ctx context.Context, orgID, slug, visibility string) (*store.OpenAPISpec, error) {
	var sp *store.OpenAPISpec
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE openapi_specs SET visibility = ?, updated_at = ? WHERE organization_id = ? AND slug = ?`,
			visibility, formatTime(tx.now), orgID, slug)
		if err != nil {
			return fmt.Errorf("store: unable to update OpenAPI specification: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("OpenAPI specification")
		}
		sp, err = findOpenAPISpec(ctx, tx, `s.organization_id = ? AND s.slug = ?`, orgID, slug)
		return err
	})
	return sp, err
}

// DeleteOpenAPISpec deletes a specification and its versions; deleting a missing one is no error.
// A processing run still queued finds nothing and ends.
func (s *Store) DeleteOpenAPISpec(ctx context.Context, orgID, slug string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM openapi_spec_versions WHERE spec_id IN
			(SELECT id FROM openapi_specs WHERE organization_id = ? AND slug = ?)`, orgID, slug); err != nil {
			return fmt.Errorf("store: unable to delete OpenAPI versions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM openapi_specs WHERE organization_id = ? AND slug = ?`, orgID, slug); err != nil {
			return fmt.Errorf("store: unable to delete OpenAPI specification: %w", err)
		}
		return nil
	})
}

const openAPIVersionColumns = `v.id, v.spec_id, v.hash, v.filename, v.format, v.created_at`

func scanOpenAPIVersion(sc interface{ Scan(...any) error }, v *store.OpenAPISpecVersion, extra ...any) error {
	var created string
	if err := sc.Scan(append([]any{&v.ID, &v.SpecID, &v.Hash, &v.Filename, &v.Format, &created}, extra...)...); err != nil {
		return err
	}
	v.CreatedAt = parseTime(created)
	return nil
}

// FindOpenAPISpecVersions lists a specification's versions, newest first.
func (s *Store) FindOpenAPISpecVersions(ctx context.Context, specID string, p store.Page) (store.List[*store.OpenAPISpecVersion], error) {
	q := &listQuery{cols: openAPIVersionColumns, from: `openapi_spec_versions v`, order: byKeys(`v.created_at`, `v.id`), desc: true}
	q.and(`v.spec_id = ?`, specID)
	return findList(ctx, s.reader, q, p, "OpenAPI versions", fill(func(sc scanner, v *store.OpenAPISpecVersion) error { return scanOpenAPIVersion(sc, v) }))
}

// FindOpenAPISpecVersion returns a version of a specification.
func (s *Store) FindOpenAPISpecVersion(ctx context.Context, specID, versionID string) (*store.OpenAPISpecVersion, error) {
	var v store.OpenAPISpecVersion
	err := scanOpenAPIVersion(s.reader.QueryRowContext(ctx, `SELECT `+openAPIVersionColumns+` FROM openapi_spec_versions v
		WHERE v.spec_id = ? AND v.id = ?`, specID, versionID), &v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("OpenAPI specification version")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find OpenAPI version: %w", err)
	}
	return &v, nil
}

// FindOpenAPISpecVersionContent returns a version with its document and parsed files.
func (s *Store) FindOpenAPISpecVersionContent(ctx context.Context, specID, versionID string) (*store.OpenAPISpecVersionContent, error) {
	var c store.OpenAPISpecVersionContent
	var doc, files string
	err := scanOpenAPIVersion(s.reader.QueryRowContext(ctx, `SELECT `+openAPIVersionColumns+`, v.document, v.filesystem
		FROM openapi_spec_versions v WHERE v.spec_id = ? AND v.id = ?`, specID, versionID), &c.OpenAPISpecVersion, &doc, &files)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("OpenAPI specification version")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find OpenAPI version: %w", err)
	}
	c.Document, c.Filesystem = []byte(doc), []byte(files)
	return &c, nil
}

// StartOpenAPIProcessing marks a specification in progress and returns what to process.
func (s *Store) StartOpenAPIProcessing(ctx context.Context, specID string) (*store.OpenAPIWork, error) {
	var w *store.OpenAPIWork
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE openapi_specs SET processing_state = 'progress' WHERE id = ?`, specID); err != nil {
			return fmt.Errorf("store: unable to start OpenAPI processing: %w", err)
		}
		sp, err := findOpenAPISpec(ctx, tx, `s.id = ?`, specID)
		if err != nil {
			return err
		}
		w = &store.OpenAPIWork{Spec: sp}
		var u, text sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT source_url, source_text, generation FROM openapi_specs WHERE id = ?`, specID).
			Scan(&u, &text, &w.Generation); err != nil {
			return fmt.Errorf("store: unable to read OpenAPI source: %w", err)
		}
		w.Source = store.OpenAPISource{URL: u.String, Text: text.String}
		return nil
	})
	return w, err
}

// FinishOpenAPIProcessing records a run's result unless the source changed since it started.
func (s *Store) FinishOpenAPIProcessing(ctx context.Context, specID string, generation int, r store.OpenAPIResult) (bool, error) {
	applied := false
	err := s.write(ctx, func(tx *Tx) error {
		var current int
		var lastVersion sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT generation, last_version_id FROM openapi_specs WHERE id = ?`, specID).Scan(&current, &lastVersion)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && current != generation) {
			return nil // deleted, or given a new source whose own run is queued
		}
		if err != nil {
			return fmt.Errorf("store: unable to finish OpenAPI processing: %w", err)
		}
		applied = true
		now := formatTime(tx.now)
		if r.ErrorCode != "" {
			errs := r.Errors
			if len(errs) > store.OpenAPIMaxErrors {
				errs = errs[:store.OpenAPIMaxErrors]
			}
			raw, err := json.Marshal(append([]store.OpenAPIError{}, errs...))
			if err != nil {
				return err
			}
			count := max(r.ErrorCount, len(r.Errors))
			_, err = tx.ExecContext(ctx, `UPDATE openapi_specs SET processing_state = 'complete', last_processed_at = ?,
				last_error_code = ?, last_errors = ?, last_error_count = ?, updated_at = ? WHERE id = ?`,
				now, r.ErrorCode, string(raw), count, now, specID)
			if err != nil {
				return fmt.Errorf("store: unable to finish OpenAPI processing: %w", err)
			}
			return nil
		}
		sum := sha256.Sum256(r.Document)
		hash := hex.EncodeToString(sum[:])
		versionID := lastVersion.String
		var lastHash string
		if lastVersion.Valid {
			if err := tx.QueryRowContext(ctx, `SELECT hash FROM openapi_spec_versions WHERE id = ?`, lastVersion.String).Scan(&lastHash); err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("store: unable to read OpenAPI version: %w", err)
			}
		}
		if !lastVersion.Valid || lastHash != hash {
			versionID = store.NewID()
			if _, err := tx.ExecContext(ctx, `INSERT INTO openapi_spec_versions (id, spec_id, hash, filename, format, document, filesystem, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, versionID, specID, hash, r.Filename, r.Format, string(r.Document), string(r.Filesystem), now); err != nil {
				return fmt.Errorf("store: unable to create OpenAPI version: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE openapi_specs SET processing_state = 'complete', last_processed_at = ?,
			last_version_id = ?, last_error_code = NULL, last_errors = '[]', last_error_count = 0, updated_at = ? WHERE id = ?`,
			now, versionID, now, specID); err != nil {
			return fmt.Errorf("store: unable to finish OpenAPI processing: %w", err)
		}
		return nil
	})
	return applied, err
}

// QueueOpenAPIRefresh queues the processing of every URL-sourced specification last processed
// before a time and not already queued.
func (s *Store) QueueOpenAPIRefresh(ctx context.Context, processedBefore time.Time) (int, error) {
	n := 0
	err := s.write(ctx, func(tx *Tx) error {
		n = 0
		ids, err := queryAll(ctx, tx, "OpenAPI specifications to refresh", `SELECT id FROM openapi_specs WHERE source_url IS NOT NULL
			AND processing_state = 'complete' AND (last_processed_at IS NULL OR last_processed_at < ?) ORDER BY id`,
			[]any{formatTime(processedBefore)}, scanString)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := queueOpenAPIProcessing(ctx, tx, id); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// addOpenAPISpecs adds to a revision's files set (store.LinkStatus) the OpenAPI specifications
// of its organization that its links name, so a block naming a missing one is a broken link.
func addOpenAPISpecs(ctx context.Context, q querier, revisionID string, links []store.Link, files map[string]bool) error {
	var slugs []string
	for _, l := range links {
		if l.Kind == "openapi" {
			slugs = append(slugs, l.Target)
		}
	}
	if len(slugs) == 0 {
		return nil
	}
	found, err := queryAll(ctx, q, "OpenAPI specifications", `SELECT o.slug FROM openapi_specs o
		JOIN spaces s ON s.organization_id = o.organization_id
		JOIN revisions r ON r.space_id = s.id
		WHERE r.id = ? AND o.slug IN (SELECT value FROM json_each(?))`, []any{revisionID, jsonStrings(slugs)}, scanString)
	for _, slug := range found {
		files[store.OpenAPILinkKey(slug)] = true
	}
	return err
}
