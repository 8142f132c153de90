package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/quire-docs/quire/store"
)

const glossaryColumns = `e.id, e.organization_id, e.translations, e.created_at, e.updated_at`

func scanGlossaryEntry(sc scanner) (*store.GlossaryEntry, error) {
	var g store.GlossaryEntry
	var translations, created, updated string
	if err := sc.Scan(&g.ID, &g.OrganizationID, &translations, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(translations), &g.Translations); err != nil {
		return nil, fmt.Errorf("glossary entry %s: %w", g.ID, err)
	}
	g.CreatedAt, g.UpdatedAt = parseTime(created), parseTime(updated)
	return &g, nil
}

// FindGlossaryEntries lists a glossary's entries, oldest first or by their term in a language.
func (s *Store) FindGlossaryEntries(ctx context.Context, orgID, orderBy string, p store.Page) (store.List[*store.GlossaryEntry], error) {
	q := &listQuery{cols: glossaryColumns, from: `translation_glossary e`, order: byKeys(`e.created_at`, `e.id`)}
	if orderBy != "" {
		// The join is the page statement's only parameter before the filters': its language goes
		// with the columns' arguments, which are bound just before it.
		q.join = ` LEFT JOIN translation_glossary_terms o ON o.entry_id = e.id AND o.language = ?`
		q.colArgs = []any{orderBy}
		q.order = byKeys(`COALESCE(o.term, '')`, `e.id`)
	}
	q.and(`e.organization_id = ?`, orgID)
	return findList(ctx, s.reader, q, p, "glossary entries", scanGlossaryEntry)
}

// FindGlossaryEntry returns an entry of an organization's glossary.
func (s *Store) FindGlossaryEntry(ctx context.Context, orgID, id string) (*store.GlossaryEntry, error) {
	return findGlossaryEntry(ctx, s.reader, orgID, id)
}

func findGlossaryEntry(ctx context.Context, q querier, orgID, id string) (*store.GlossaryEntry, error) {
	g, err := scanGlossaryEntry(q.QueryRowContext(ctx, `SELECT `+glossaryColumns+` FROM translation_glossary e
		WHERE e.id = ? AND e.organization_id = ?`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("GlossaryEntry")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find glossary entry: %w", err)
	}
	return g, nil
}

// FindAllGlossaryEntries returns every entry of a glossary, oldest first.
func (s *Store) FindAllGlossaryEntries(ctx context.Context, orgID string) ([]*store.GlossaryEntry, error) {
	return queryAll(ctx, s.reader, "glossary entries", `SELECT `+glossaryColumns+` FROM translation_glossary e
		WHERE e.organization_id = ? ORDER BY e.created_at, e.id`, []any{orgID}, scanGlossaryEntry)
}

// UpdateGlossary applies a batch of glossary operations in order, all or none.
func (s *Store) UpdateGlossary(ctx context.Context, orgID string, ops []store.GlossaryOperation) error {
	return s.write(ctx, func(tx *Tx) error {
		now := formatTime(tx.now)
		for i, op := range ops {
			if op.Type != "insert" {
				if _, err := findGlossaryEntry(ctx, tx, orgID, op.ID); err != nil {
					if store.ErrorCode(err) == store.ENOTFOUND {
						return store.FieldErrorf(fmt.Sprintf("operations[%d].id", i), "no glossary entry %q", op.ID)
					}
					return err
				}
			}
			switch op.Type {
			case "insert":
				id := store.NewID()
				raw, err := json.Marshal(op.Translations)
				if err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO translation_glossary (id, organization_id, translations, created_at, updated_at)
					VALUES (?, ?, ?, ?, ?)`, id, orgID, string(raw), now, now); err != nil {
					return fmt.Errorf("store: unable to insert glossary entry: %w", err)
				}
				if err := writeGlossaryTerms(ctx, tx, id, op.Translations); err != nil {
					return err
				}
			case "update":
				raw, err := json.Marshal(op.Translations)
				if err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `UPDATE translation_glossary SET translations = ?, updated_at = ? WHERE id = ?`,
					string(raw), now, op.ID); err != nil {
					return fmt.Errorf("store: unable to update glossary entry: %w", err)
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM translation_glossary_terms WHERE entry_id = ?`, op.ID); err != nil {
					return fmt.Errorf("store: unable to update glossary terms: %w", err)
				}
				if err := writeGlossaryTerms(ctx, tx, op.ID, op.Translations); err != nil {
					return err
				}
			case "delete":
				if _, err := tx.ExecContext(ctx, `DELETE FROM translation_glossary_terms WHERE entry_id = ?`, op.ID); err != nil {
					return fmt.Errorf("store: unable to delete glossary terms: %w", err)
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM translation_glossary WHERE id = ?`, op.ID); err != nil {
					return fmt.Errorf("store: unable to delete glossary entry: %w", err)
				}
			default:
				return store.FieldErrorf(fmt.Sprintf("operations[%d].type", i), "not an operation: %q", op.Type)
			}
		}
		return nil
	})
}

func writeGlossaryTerms(ctx context.Context, tx *Tx, id string, terms map[string]string) error {
	langs := make([]string, 0, len(terms))
	for l := range terms {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO translation_glossary_terms (entry_id, language, term) VALUES (?, ?, ?)`,
			id, l, terms[l]); err != nil {
			return fmt.Errorf("store: unable to write glossary term: %w", err)
		}
	}
	return nil
}
