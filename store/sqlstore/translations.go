package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

const translationColumns = `id, organization_id, status, source_space_id, source_language, language, instructions,
	result_space_id, result_revision_id, created_by, run_by, last_error, pending_run,
	runs, total_words, total_pages, total_duration_ms, latest_duration_ms, latest_pages, latest_words,
	created_at, updated_at`

func scanTranslation(sc interface{ Scan(...any) error }) (*store.Translation, error) {
	var t store.Translation
	var instructions, resultSpace, resultRevision, pending sql.NullString
	var created, updated string
	st := &t.Stats
	if err := sc.Scan(&t.ID, &t.OrganizationID, &t.Status, &t.SourceSpaceID, &t.SourceLanguage, &t.Language, &instructions,
		&resultSpace, &resultRevision, &t.CreatedBy, &t.RunBy, &t.LastError, &pending,
		&st.Runs, &st.TotalWords, &st.TotalPages, &st.TotalDurationMS, &st.LatestDurationMS, &st.LatestPages, &st.LatestWords,
		&created, &updated); err != nil {
		return nil, err
	}
	if instructions.Valid {
		t.Instructions = json.RawMessage(instructions.String)
	}
	if resultSpace.Valid {
		t.ResultSpaceID = &resultSpace.String
	}
	if resultRevision.Valid {
		t.ResultRevision = &resultRevision.String
	}
	if pending.Valid {
		t.Pending = &store.PendingTranslationRun{}
		if err := json.Unmarshal([]byte(pending.String), t.Pending); err != nil {
			return nil, fmt.Errorf("pending run of translation %s: %w", t.ID, err)
		}
	}
	t.CreatedAt, t.UpdatedAt = parseTime(created), parseTime(updated)
	return &t, nil
}

func nullJSON(doc json.RawMessage) any {
	if doc == nil {
		return nil
	}
	return string(doc)
}

// CreateTranslation creates a pending translation that has never run.
func (s *Store) CreateTranslation(ctx context.Context, orgID string, c store.TranslationCreate) (*store.Translation, error) {
	id := store.NewID()
	var t *store.Translation
	err := s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO translations (id, organization_id, status, source_space_id,
			source_language, language, instructions, created_by, run_by, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, orgID, store.TranslationPending, c.SourceSpaceID, c.SourceLanguage, c.Language, nullJSON(c.Instructions),
			c.CreatedBy, c.CreatedBy, now, now); err != nil {
			return fmt.Errorf("store: unable to create translation: %w", err)
		}
		var err error
		t, err = findTranslation(ctx, tx, orgID, id)
		return err
	})
	return t, err
}

// FindTranslation returns a translation of an organization (any organization when orgID is "").
func (s *Store) FindTranslation(ctx context.Context, orgID, id string) (*store.Translation, error) {
	return findTranslation(ctx, s.reader, orgID, id)
}

func findTranslation(ctx context.Context, q querier, orgID, id string) (*store.Translation, error) {
	t, err := scanTranslation(q.QueryRowContext(ctx, `SELECT `+translationColumns+` FROM translations
		WHERE id = ? AND (? = '' OR organization_id = ?)`, id, orgID, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Translation")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find translation: %w", err)
	}
	return t, nil
}

// FindTranslations lists an organization's translations, oldest first.
func (s *Store) FindTranslations(ctx context.Context, orgID string, p store.Page) (store.List[*store.Translation], error) {
	q := &listQuery{cols: translationColumns, from: `translations`, order: byKeys(`created_at`, `id`)}
	q.and(`organization_id = ?`, orgID)
	return findList(ctx, s.reader, q, p, "translations", scanTranslation)
}

// UpdateTranslationInstructions replaces a translation's instructions.
func (s *Store) UpdateTranslationInstructions(ctx context.Context, orgID, id string, doc json.RawMessage) (*store.Translation, error) {
	var t *store.Translation
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findTranslation(ctx, tx, orgID, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE translations SET instructions = ?, updated_at = ? WHERE id = ?`,
			nullJSON(doc), formatTime(tx.now), id); err != nil {
			return fmt.Errorf("store: unable to update translation: %w", err)
		}
		var err error
		t, err = findTranslation(ctx, tx, orgID, id)
		return err
	})
	return t, err
}

// DeleteTranslation deletes a translation and its page records; its result space stays.
func (s *Store) DeleteTranslation(ctx context.Context, orgID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM translation_pages WHERE translation_id IN
			(SELECT id FROM translations WHERE id = ? AND organization_id = ?)`, id, orgID); err != nil {
			return fmt.Errorf("store: unable to delete translation pages: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM translations WHERE id = ? AND organization_id = ?`, id, orgID); err != nil {
			return fmt.Errorf("store: unable to delete translation: %w", err)
		}
		return nil
	})
}

// QueueTranslationRun marks a translation pending and enqueues its run job, at once.
func (s *Store) QueueTranslationRun(ctx context.Context, orgID, id, userID string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := findTranslation(ctx, tx, orgID, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE translations SET status = ?, run_by = ?, updated_at = ? WHERE id = ?`,
			store.TranslationPending, userID, formatTime(tx.now), id); err != nil {
			return fmt.Errorf("store: unable to queue translation: %w", err)
		}
		return enqueueJob(ctx, tx, store.TranslationRunJob, id, tx.now)
	})
}

// StartTranslationRun marks a translation running and returns it.
func (s *Store) StartTranslationRun(ctx context.Context, id string) (*store.Translation, error) {
	var t *store.Translation
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE translations SET status = ?, updated_at = ? WHERE id = ?`,
			store.TranslationRunning, formatTime(tx.now), id); err != nil {
			return fmt.Errorf("store: unable to start translation: %w", err)
		}
		var err error
		t, err = findTranslation(ctx, tx, "", id)
		return err
	})
	return t, err
}

// SetTranslationResultSpace records the result space a first run created.
func (s *Store) SetTranslationResultSpace(ctx context.Context, id, spaceID string) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE translations SET result_space_id = ?, updated_at = ? WHERE id = ?`,
			spaceID, formatTime(tx.now), id)
		if err != nil {
			return fmt.Errorf("store: unable to set translation result: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Translation")
		}
		return nil
	})
}

// StageTranslationRun records a run about to be merged; FinishTranslationRun clears it.
func (s *Store) StageTranslationRun(ctx context.Context, id string, p store.PendingTranslationRun) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE translations SET pending_run = ? WHERE id = ?`, string(raw), id)
		if err != nil {
			return fmt.Errorf("store: unable to stage translation run: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Translation")
		}
		return nil
	})
}

// FindTranslatedPages returns the page records of a translation, by source page id.
func (s *Store) FindTranslatedPages(ctx context.Context, id string) (map[string]store.TranslatedPage, error) {
	out := map[string]store.TranslatedPage{}
	err := queryInto(ctx, s.reader, "translated pages", `SELECT source_page_id, result_page_id, source_hash FROM translation_pages
		WHERE translation_id = ?`, []any{id}, out, func(sc scanner) (string, store.TranslatedPage, error) {
		var p store.TranslatedPage
		err := sc.Scan(&p.SourcePageID, &p.ResultPageID, &p.SourceHash)
		return p.SourcePageID, p, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FinishTranslationRun records a run's outcome and stats, and with a successful run its result
// revision and page records, all at once.
func (s *Store) FinishTranslationRun(ctx context.Context, id string, r store.TranslationRun) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE translations SET status = ?, last_error = ?, pending_run = NULL,
			result_revision_id = COALESCE(?, result_revision_id),
			runs = runs + 1, total_words = total_words + ?, total_pages = total_pages + ?,
			total_duration_ms = total_duration_ms + ?, latest_duration_ms = ?, latest_pages = ?, latest_words = ?,
			updated_at = ? WHERE id = ?`,
			store.TranslationCompleted, r.Err, nullString(r.Revision), r.Words, r.NewPages,
			r.DurationMS, r.DurationMS, r.Pages, r.Words, formatTime(tx.now), id)
		if err != nil {
			return fmt.Errorf("store: unable to finish translation run: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Translation")
		}
		if len(r.Deleted) > 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM translation_pages WHERE translation_id = ?
				AND source_page_id IN (SELECT value FROM json_each(?))`, id, jsonStrings(r.Deleted)); err != nil {
				return fmt.Errorf("store: unable to forget translated pages: %w", err)
			}
		}
		for _, p := range r.Upsert {
			if _, err := tx.ExecContext(ctx, `INSERT INTO translation_pages (translation_id, source_page_id, result_page_id, source_hash)
				VALUES (?, ?, ?, ?) ON CONFLICT (translation_id, source_page_id)
				DO UPDATE SET result_page_id = excluded.result_page_id, source_hash = excluded.source_hash`,
				id, p.SourcePageID, p.ResultPageID, p.SourceHash); err != nil {
				return fmt.Errorf("store: unable to record translated page: %w", err)
			}
		}
		return nil
	})
}

// FindPageAlternates returns the pages standing for a page in other languages: the translations
// of the page, and when the page is itself a translation, its source and the source's other
// translations. One query, on the indexes of migration 0032.
func (s *Store) FindPageAlternates(ctx context.Context, orgID, spaceID, pageID string) ([]store.PageRef, error) {
	const sourceOf = `SELECT t.source_space_id, tp.source_page_id FROM translations t
		JOIN translation_pages tp ON tp.translation_id = t.id
		WHERE t.organization_id = ? AND t.result_space_id = ? AND tp.result_page_id = ?`
	rows, err := queryAll(ctx, s.reader, "page alternates", `SELECT t.result_space_id, tp.result_page_id FROM translations t
		JOIN translation_pages tp ON tp.translation_id = t.id
		WHERE t.organization_id = ? AND t.result_space_id IS NOT NULL
		AND ((t.source_space_id = ? AND tp.source_page_id = ?) OR (t.source_space_id, tp.source_page_id) IN (`+sourceOf+`))
		UNION `+sourceOf+`
		ORDER BY 1, 2`,
		[]any{orgID, spaceID, pageID, orgID, spaceID, pageID, orgID, spaceID, pageID}, value(func(sc scanner, r *store.PageRef) error {
			return sc.Scan(&r.SpaceID, &r.PageID)
		}))
	if err != nil {
		return nil, err
	}
	out := rows[:0]
	for _, r := range rows {
		if r.SpaceID != spaceID || r.PageID != pageID {
			out = append(out, r)
		}
	}
	return out, nil
}
