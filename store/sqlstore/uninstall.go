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
		config, ids := updatedSettings(before.Configuration, before.ExternalIDs, upd.Configuration, upd.ExternalIDs)
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
	q := &listQuery{cols: installationColumns,
		from:  `integration_installations n JOIN integrations i ON i.id = n.integration_id`,
		order: byKeys(`n.created_at`, `n.id`)}
	q.and(`n.organization_id = ?`, orgID)
	if search != nil {
		pattern := likeContains(*search)
		q.and(`(lower(i.name) LIKE lower(?) ESCAPE '\' OR lower(i.title) LIKE lower(?) ESCAPE '\')`, pattern, pattern)
	}
	list, err := findList(ctx, s.reader, q, p, "organization installations", func(sc scanner) (*store.OrganizationInstallation, error) {
		n, err := scanInstallation(sc)
		return &store.OrganizationInstallation{Installation: n}, err
	})
	if err != nil {
		return list, err
	}
	integrationIDs := make([]string, len(list.Items))
	for i, it := range list.Items {
		integrationIDs[i] = it.Installation.IntegrationID
	}
	integrations, err := s.integrationsByID(ctx, integrationIDs)
	if err != nil {
		return store.List[*store.OrganizationInstallation]{}, err
	}
	kept := list.Items[:0]
	for _, it := range list.Items {
		// An integration unpublished between the two reads took its installations with it.
		if it.Integration = integrations[it.Installation.IntegrationID]; it.Integration != nil {
			kept = append(kept, it)
		}
	}
	list.Items = kept
	return list, nil
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
