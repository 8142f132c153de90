package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// The rest of an installation's life: its space and site installations one by one, and
// uninstalling. Every change records its event in the same transaction (queued for delivery in
// development mode, as the setup events are).

// contentEvent is the event of a space or site installation: it names its space or its site.
func contentEvent(kind, targetID string, p eventPayload) eventPayload {
	p.Type = kind + p.Type
	if kind == store.InstallOnSite {
		p.SiteID = targetID
	} else {
		p.SpaceID = targetID
	}
	return p
}

// UninstallIntegration removes an installation with its space and site installations and its
// tokens, and records the installation_deleted event.
func (s *Store) UninstallIntegration(ctx context.Context, integrationID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		if integrationID == "" {
			return store.NotFound("Installation")
		}
		n, err := findInstallation(ctx, tx, integrationID, id)
		if err != nil {
			return err
		}
		if err := recordEvent(ctx, tx, n, eventPayload{Type: "installation_deleted",
			Previous: &eventPrevious{Configuration: n.Configuration}}); err != nil {
			return err
		}
		// The tokens go first and explicitly (not only by the foreign key's cascade): a token of
		// an uninstalled installation must not authenticate for a moment longer.
		for _, q := range []string{
			`DELETE FROM installation_tokens WHERE installation_id = ?`,
			`DELETE FROM integration_content_installations WHERE installation_id = ?`,
			`DELETE FROM integration_installations WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return fmt.Errorf("store: unable to uninstall integration: %w", err)
			}
		}
		return nil
	})
}

func findContentInstallation(ctx context.Context, q querier, installationID, kind, targetID string) (*store.ContentInstallation, error) {
	c, err := scanContentInstallation(q.QueryRowContext(ctx, `SELECT `+contentInstallationColumns+`
		FROM integration_content_installations c JOIN integration_installations n ON n.id = c.installation_id
		JOIN integrations i ON i.id = n.integration_id
		WHERE c.installation_id = ? AND c.kind = ? AND c.target_id = ?`, installationID, kind, targetID))
	if errors.Is(err, sql.ErrNoRows) {
		if kind == store.InstallOnSite {
			return nil, store.NotFound("Site installation")
		}
		return nil, store.NotFound("Space installation")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find content installation: %w", err)
	}
	return c, nil
}

// FindContentInstallation returns an installation's space or site installation on one target.
func (s *Store) FindContentInstallation(ctx context.Context, installationID, kind, targetID string) (*store.ContentInstallation, error) {
	return findContentInstallation(pointRead(ctx), s.reader, installationID, kind, targetID)
}

// UpdateContentInstallation applies an update to a space or site installation and records the
// setup event with what it was before.
func (s *Store) UpdateContentInstallation(ctx context.Context, installationID, kind, targetID string, upd store.ContentInstallationUpdate) (*store.ContentInstallation, error) {
	var out *store.ContentInstallation
	err := s.write(ctx, func(tx *Tx) error {
		n, err := findInstallation(ctx, tx, "", installationID)
		if err != nil {
			return err
		}
		before, err := findContentInstallation(ctx, tx, installationID, kind, targetID)
		if err != nil {
			return err
		}
		config := before.Configuration
		if upd.Configuration != nil {
			config = upd.Configuration
		}
		ids := before.ExternalIDs
		if upd.ExternalIDs != nil {
			ids = *upd.ExternalIDs
		}
		if _, err := tx.ExecContext(ctx, `UPDATE integration_content_installations SET status = ?, configuration = ?,
			external_ids = ?, external_ids_idx = ?, updated_at = ? WHERE installation_id = ? AND kind = ? AND target_id = ?`,
			upd.Status, string(config), jsonList(ids), externalIDsIndex(ids), formatTime(tx.now),
			installationID, kind, targetID); err != nil {
			return fmt.Errorf("store: unable to update content installation: %w", err)
		}
		if out, err = findContentInstallation(ctx, tx, installationID, kind, targetID); err != nil {
			return err
		}
		return recordEvent(ctx, tx, n, contentEvent(kind, targetID, eventPayload{Type: "_installation_setup",
			Status: upd.Status, Previous: &eventPrevious{Status: before.Status, Configuration: before.Configuration}}))
	})
	return out, err
}

// UninstallFromContent removes an installation from a space or site and records the deleted event.
func (s *Store) UninstallFromContent(ctx context.Context, installationID, kind, targetID string) error {
	return s.write(ctx, func(tx *Tx) error {
		n, err := findInstallation(ctx, tx, "", installationID)
		if err != nil {
			return err
		}
		c, err := findContentInstallation(ctx, tx, installationID, kind, targetID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM integration_content_installations
			WHERE installation_id = ? AND kind = ? AND target_id = ?`, installationID, kind, targetID); err != nil {
			return fmt.Errorf("store: unable to uninstall from content: %w", err)
		}
		return recordEvent(ctx, tx, n, contentEvent(kind, targetID, eventPayload{Type: "_installation_deleted",
			Previous: &eventPrevious{Configuration: c.Configuration}}))
	})
}

// FindOrganizationInstallations lists the installations on an organization with their
// integrations, oldest first: one query for the page, one for its integrations.
func (s *Store) FindOrganizationInstallations(ctx context.Context, orgID string, search *string, p store.Page) (store.List[*store.OrganizationInstallation], error) {
	var none store.List[*store.OrganizationInstallation]
	cur, err := store.DecodeCursor(p.Cursor, 2)
	if err != nil {
		return none, err
	}
	var pattern any
	if search != nil {
		pattern = likeContains(*search)
	}
	from := ` FROM integration_installations n JOIN integrations i ON i.id = n.integration_id
		WHERE n.organization_id = ? AND (CAST(? AS TEXT) IS NULL OR lower(i.name) LIKE lower(?) ESCAPE '\'
			OR lower(i.title) LIKE lower(?) ESCAPE '\')`
	args := []any{orgID, pattern, pattern, pattern}
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*)`+from, args...).Scan(&count); err != nil {
		return none, fmt.Errorf("store: unable to count organization installations: %w", err)
	}
	var t, id any
	if cur != nil {
		t, id = cur[0], cur[1]
	}
	args = append(args, t, t, t, id, p.Size()+1)
	rows, err := s.reader.QueryContext(ctx, `SELECT `+installationColumns+from+`
		AND (CAST(? AS TEXT) IS NULL OR n.created_at > ? OR (n.created_at = ? AND n.id > ?))
		ORDER BY n.created_at, n.id LIMIT ?`, args...)
	if err != nil {
		return none, fmt.Errorf("store: unable to list organization installations: %w", err)
	}
	defer rows.Close()
	var items []*store.OrganizationInstallation
	var integrationIDs []string
	for rows.Next() {
		n, err := scanInstallation(rows)
		if err != nil {
			return none, fmt.Errorf("store: unable to list organization installations: %w", err)
		}
		items = append(items, &store.OrganizationInstallation{Installation: n})
		integrationIDs = append(integrationIDs, n.IntegrationID)
	}
	if err := rows.Err(); err != nil {
		return none, fmt.Errorf("store: unable to list organization installations: %w", err)
	}
	rows.Close()
	integrations, err := s.integrationsByID(ctx, integrationIDs)
	if err != nil {
		return none, err
	}
	kept := items[:0]
	for _, it := range items {
		// An integration unpublished between the two reads took its installations with it.
		if it.Integration = integrations[it.Installation.IntegrationID]; it.Integration != nil {
			kept = append(kept, it)
		}
	}
	return store.FinishPage(kept, p.Size(), count, func(o *store.OrganizationInstallation) []string {
		return []string{formatTime(o.Installation.CreatedAt), o.Installation.ID}
	}), nil
}

func (s *Store) integrationsByID(ctx context.Context, ids []string) (map[string]*store.Integration, error) {
	out := map[string]*store.Integration{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.reader.QueryContext(ctx, `SELECT `+integrationColumns+` FROM integrations i
		WHERE i.id IN (SELECT value FROM json_each(?))`, jsonStrings(ids))
	if err != nil {
		return nil, fmt.Errorf("store: unable to find integrations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		in, err := scanIntegration(rows)
		if err != nil {
			return nil, fmt.Errorf("store: unable to find integrations: %w", err)
		}
		out[in.ID] = in
	}
	return out, rows.Err()
}
