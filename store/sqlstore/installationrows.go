package sqlstore

// An integration installation's row as every read selects it, and finding one.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

const installationColumns = `n.id, n.integration_id, i.name, n.organization_id, n.status, n.space_selection,
	n.site_selection, n.configuration, n.external_ids, n.created_at, n.updated_at,
	(SELECT count(*) FROM integration_content_installations c WHERE c.installation_id = n.id AND c.kind = 'space')`

func scanInstallation(sc interface{ Scan(...any) error }) (*store.IntegrationInstallation, error) {
	var n store.IntegrationInstallation
	var config, ids, created, updated string
	if err := sc.Scan(&n.ID, &n.IntegrationID, &n.IntegrationName, &n.OrganizationID, &n.Status, &n.SpaceSelection,
		&n.SiteSelection, &config, &ids, &created, &updated, &n.Spaces); err != nil {
		return nil, err
	}
	n.Configuration = json.RawMessage(config)
	if err := json.Unmarshal([]byte(ids), &n.ExternalIDs); err != nil {
		return nil, fmt.Errorf("store: installation %s external ids: %w", n.ID, err)
	}
	n.CreatedAt, n.UpdatedAt = parseTime(created), parseTime(updated)
	return &n, nil
}

func findInstallation(ctx context.Context, q querier, integrationID, id string) (*store.IntegrationInstallation, error) {
	n, err := scanInstallation(q.QueryRowContext(ctx, `SELECT `+installationColumns+`
		FROM integration_installations n JOIN integrations i ON i.id = n.integration_id
		WHERE n.id = ? AND (? = '' OR n.integration_id = ?)`, id, integrationID, integrationID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Installation")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find installation: %w", err)
	}
	return n, nil
}
