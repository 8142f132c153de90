package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/store"
)

// externalIDsIndex is the "\n"-delimited form of external ids that LIKE '%\nid\n%' matches.
func externalIDsIndex(ids []string) string { return "\n" + strings.Join(ids, "\n") + "\n" }

// filterInstallations adds the conditions of an installation filter to a list of installations
// (n) whose external ids are indexed in the column idx (a constant of the caller).
func filterInstallations(q *listQuery, f store.InstallationFilter, idx string) {
	if f.OrgIDs != nil {
		q.and(`n.organization_id IN (SELECT value FROM json_each(?))`, jsonStrings(f.OrgIDs))
	}
	if f.InstallationID != nil {
		q.and(`n.id = ?`, *f.InstallationID)
	}
	if f.ExternalID != nil {
		q.and(idx+` LIKE ? ESCAPE '\'`, likeContains("\n"+*f.ExternalID+"\n"))
	}
}

// FindInstallation returns an installation of an integration.
func (s *Store) FindInstallation(ctx context.Context, integrationID, id string) (*store.IntegrationInstallation, error) {
	return findInstallation(pointRead(ctx), s.reader, integrationID, id)
}

// InstallIntegration installs an integration on an organization and records the event.
func (s *Store) InstallIntegration(ctx context.Context, integrationID, orgID, status, installedBy string) (*store.IntegrationInstallation, error) {
	var out *store.IntegrationInstallation
	err := s.write(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM integration_installations
			WHERE integration_id = ? AND organization_id = ?`, integrationID, orgID).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to install integration: %w", err)
		}
		if n > 0 {
			return store.Errorf(store.ECONFLICT, "The integration is installed on this organization already.")
		}
		id, now := store.NewID(), formatTime(tx.now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO integration_installations (id, integration_id, organization_id,
			status, space_selection, site_selection, configuration, external_ids, external_ids_idx, created_at, updated_at,
			installed_by) VALUES (?, ?, ?, ?, 'selected', 'selected', '{}', '[]', ?, ?, ?, ?)`,
			id, integrationID, orgID, status, externalIDsIndex(nil), now, now, installedBy); err != nil {
			return fmt.Errorf("store: unable to install integration: %w", err)
		}
		var err error
		if out, err = findInstallation(ctx, tx, integrationID, id); err != nil {
			return err
		}
		return recordEvent(ctx, tx, out, eventPayload{Type: "installation_setup", Status: status})
	})
	return out, err
}

// updatedSettings is an installation's configuration and external ids after an update (of the
// installation or of one of its space or site installations): each kept unless the update names it.
func updatedSettings(config json.RawMessage, ids []string, newConfig json.RawMessage, newIDs *[]string) (json.RawMessage, []string) {
	if newConfig != nil {
		config = newConfig
	}
	if newIDs != nil {
		ids = *newIDs
	}
	return config, ids
}

// UpdateInstallation applies an update and records the installation_setup event.
func (s *Store) UpdateInstallation(ctx context.Context, integrationID, id string, upd store.InstallationUpdate) (*store.IntegrationInstallation, error) {
	var out *store.IntegrationInstallation
	err := s.write(ctx, func(tx *Tx) error {
		before, err := findInstallation(ctx, tx, integrationID, id)
		if err != nil {
			return err
		}
		config, ids := updatedSettings(before.Configuration, before.ExternalIDs, upd.Configuration, upd.ExternalIDs)
		spaceSel, siteSel := before.SpaceSelection, before.SiteSelection
		if upd.SpaceSelection != nil {
			spaceSel = *upd.SpaceSelection
		}
		if upd.SiteSelection != nil {
			siteSel = *upd.SiteSelection
		}
		if _, err := tx.ExecContext(ctx, `UPDATE integration_installations SET status = ?, space_selection = ?,
			site_selection = ?, configuration = ?, external_ids = ?, external_ids_idx = ?, updated_at = ? WHERE id = ?`,
			upd.Status, spaceSel, siteSel, string(config), jsonList(ids), externalIDsIndex(ids), formatTime(tx.now), id); err != nil {
			return fmt.Errorf("store: unable to update installation: %w", err)
		}
		if out, err = findInstallation(ctx, tx, integrationID, id); err != nil {
			return err
		}
		return recordEvent(ctx, tx, out, eventPayload{Type: "installation_setup", Status: upd.Status,
			Previous: &eventPrevious{Status: before.Status, Configuration: before.Configuration}})
	})
	return out, err
}

// FindInstallations lists an integration's installations, oldest first.
func (s *Store) FindInstallations(ctx context.Context, integrationID string, f store.InstallationFilter, p store.Page) (store.List[*store.IntegrationInstallation], error) {
	q := &listQuery{cols: installationColumns, from: `integration_installations n`, join: ` JOIN integrations i ON i.id = n.integration_id`,
		order: byKeys(`n.created_at`, `n.id`)}
	q.and(`n.integration_id = ?`, integrationID)
	filterInstallations(q, f, `n.external_ids_idx`)
	return findList(ctx, s.reader, q, p, "installations", scanInstallation)
}

const contentInstallationColumns = `c.installation_id, i.name, n.organization_id, c.kind, c.target_id, c.status,
	c.configuration, c.external_ids, c.created_at`

func scanContentInstallation(sc interface{ Scan(...any) error }) (*store.ContentInstallation, error) {
	var c store.ContentInstallation
	var config, ids, created string
	if err := sc.Scan(&c.InstallationID, &c.IntegrationName, &c.OrganizationID, &c.Kind, &c.TargetID, &c.Status,
		&config, &ids, &created); err != nil {
		return nil, err
	}
	c.Configuration = json.RawMessage(config)
	if err := json.Unmarshal([]byte(ids), &c.ExternalIDs); err != nil {
		return nil, fmt.Errorf("store: content installation external ids: %w", err)
	}
	c.CreatedAt = parseTime(created)
	return &c, nil
}

// InstallOnContent sets an installation up on a space or site of its organization.
func (s *Store) InstallOnContent(ctx context.Context, installationID, kind, targetID, status string) (*store.ContentInstallation, error) {
	var out *store.ContentInstallation
	err := s.write(ctx, func(tx *Tx) error {
		n, err := findInstallation(ctx, tx, "", installationID)
		if err != nil {
			return err
		}
		table, what := "spaces", "Space"
		if kind == store.InstallOnSite {
			table, what = "sites", "Site"
		}
		var found int
		// table is one of two constants above, never input.
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE id = ? AND organization_id = ?`,
			targetID, n.OrganizationID).Scan(&found); err != nil {
			return fmt.Errorf("store: unable to install on content: %w", err)
		}
		if found == 0 {
			return store.NotFound(what)
		}
		now := formatTime(tx.now)
		res, err := tx.ExecContext(ctx, `INSERT INTO integration_content_installations (installation_id, kind, target_id,
			status, configuration, external_ids, external_ids_idx, created_at, updated_at)
			VALUES (?, ?, ?, ?, '{}', '[]', ?, ?, ?) ON CONFLICT (installation_id, kind, target_id) DO NOTHING`,
			installationID, kind, targetID, status, externalIDsIndex(nil), now, now)
		if err != nil {
			return fmt.Errorf("store: unable to install on content: %w", err)
		}
		if k, _ := res.RowsAffected(); k == 0 {
			return store.Errorf(store.ECONFLICT, "The installation is set up on this %s already.", kind)
		}
		if out, err = scanContentInstallation(tx.QueryRowContext(ctx, `SELECT `+contentInstallationColumns+`
			FROM integration_content_installations c JOIN integration_installations n ON n.id = c.installation_id
			JOIN integrations i ON i.id = n.integration_id
			WHERE c.installation_id = ? AND c.kind = ? AND c.target_id = ?`, installationID, kind, targetID)); err != nil {
			return fmt.Errorf("store: unable to install on content: %w", err)
		}
		ev := eventPayload{Type: kind + "_installation_setup", Status: status}
		if kind == store.InstallOnSite {
			ev.SiteID = targetID
		} else {
			ev.SpaceID = targetID
		}
		return recordEvent(ctx, tx, n, ev)
	})
	return out, err
}

// FindContentInstallations lists an integration's space or site installations, oldest first.
func (s *Store) FindContentInstallations(ctx context.Context, integrationID, kind string, f store.InstallationFilter, p store.Page) (store.List[*store.ContentInstallation], error) {
	q := &listQuery{cols: contentInstallationColumns,
		from:  `integration_content_installations c JOIN integration_installations n ON n.id = c.installation_id`,
		join:  ` JOIN integrations i ON i.id = n.integration_id`,
		order: byKeys(`c.created_at`, `c.installation_id`, `c.target_id`)}
	q.and(`n.integration_id = ?`, integrationID)
	q.and(`c.kind = ?`, kind)
	filterInstallations(q, f, `c.external_ids_idx`)
	return findList(ctx, s.reader, q, p, "content installations", scanContentInstallation)
}
