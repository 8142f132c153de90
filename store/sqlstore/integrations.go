package sqlstore

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/quire-docs/quire/store"
)

const integrationColumns = `i.id, i.name, i.organization_id, i.version, i.title, i.description, i.summary,
	i.visibility, i.target, i.runtime, i.scopes, i.categories, i.manifest, i.content_security_policy,
	i.script, i.has_icon, i.preview_images, i.sealed_secrets, i.sealed_signing_secret,
	i.dev_tunnel_url, i.dev_all, i.created_at, i.updated_at`

func scanIntegration(sc interface{ Scan(...any) error }) (*store.Integration, error) {
	var in store.Integration
	var scopes, categories, manifest, created, updated string
	var tunnel sql.NullString
	if err := sc.Scan(&in.ID, &in.Name, &in.OrganizationID, &in.Version, &in.Title, &in.Description, &in.Summary,
		&in.Visibility, &in.Target, &in.Runtime, &scopes, &categories, &manifest, &in.ContentSecurityPolicy,
		&in.Script, &in.HasIcon, &in.PreviewImages, &in.SealedSecrets, &in.SealedSigningSecret,
		&tunnel, &in.DevAll, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(scopes), &in.Scopes); err != nil {
		return nil, fmt.Errorf("store: integration %s scopes: %w", in.Name, err)
	}
	if err := json.Unmarshal([]byte(categories), &in.Categories); err != nil {
		return nil, fmt.Errorf("store: integration %s categories: %w", in.Name, err)
	}
	in.Manifest = json.RawMessage(manifest)
	in.DevTunnelURL = stringPtr(tunnel)
	in.CreatedAt, in.UpdatedAt = parseTime(created), parseTime(updated)
	return &in, nil
}

// listIndex is the ",a,b," form of a list that LIKE '%,a,%' matches.
func listIndex(values []string) string {
	if len(values) == 0 {
		return ","
	}
	return "," + strings.Join(values, ",") + ","
}

func jsonList(values []string) string {
	if values == nil {
		values = []string{}
	}
	b, _ := json.Marshal(values)
	return string(b)
}

// PublishIntegration creates an integration or publishes the next version of it.
func (s *Store) PublishIntegration(ctx context.Context, p *store.IntegrationPublish) (*store.Integration, error) {
	var out *store.Integration
	err := s.write(ctx, func(tx *Tx) error {
		existing, err := findIntegrationByName(ctx, tx, p.Name)
		if err != nil && store.ErrorCode(err) != store.ENOTFOUND {
			return err
		}
		now := formatTime(tx.now)
		args := []any{p.Title, p.Description, p.Summary, p.Visibility, p.Target, p.Runtime,
			jsonList(p.Scopes), jsonList(p.Categories), string(p.Manifest), p.ContentSecurityPolicy, p.Script,
			p.Icon != nil, len(p.Previews), p.SealedSecrets,
			listIndex(p.Scopes), listIndex(p.Categories), listIndex(p.BlockDomains), p.HasBlocks, p.HasContentSources, now}
		var id string
		if existing == nil {
			id = store.NewID()
			_, err = tx.ExecContext(ctx, `INSERT INTO integrations (title, description, summary, visibility, target,
				runtime, scopes, categories, manifest, content_security_policy, script, has_icon, preview_images,
				sealed_secrets, scopes_idx, categories_idx, block_domains_idx, has_blocks, has_content_sources,
				updated_at, id, name, organization_id, version, sealed_signing_secret, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
				append(args, id, p.Name, p.OrganizationID, p.SealedSigningSecret, now)...)
		} else {
			id = existing.ID
			_, err = tx.ExecContext(ctx, `UPDATE integrations SET title = ?, description = ?, summary = ?,
				visibility = ?, target = ?, runtime = ?, scopes = ?, categories = ?, manifest = ?,
				content_security_policy = ?, script = ?, has_icon = ?, preview_images = ?, sealed_secrets = ?,
				scopes_idx = ?, categories_idx = ?, block_domains_idx = ?, has_blocks = ?, has_content_sources = ?,
				updated_at = ?, version = version + 1 WHERE id = ?`, append(args, id)...)
		}
		if err != nil {
			return fmt.Errorf("store: unable to publish integration: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM integration_assets WHERE integration_id = ?`, id); err != nil {
			return fmt.Errorf("store: unable to publish integration: %w", err)
		}
		assets := map[string]store.IntegrationAsset{}
		if p.Icon != nil {
			assets["icon"] = *p.Icon
		}
		for i, a := range p.Previews {
			assets["preview-"+strconv.Itoa(i)] = a
		}
		for name, a := range assets {
			if _, err := tx.ExecContext(ctx, `INSERT INTO integration_assets (integration_id, name, content_type, data)
				VALUES (?, ?, ?, ?)`, id, name, a.ContentType, base64.StdEncoding.EncodeToString(a.Data)); err != nil {
				return fmt.Errorf("store: unable to store integration asset: %w", err)
			}
		}
		out, err = findIntegrationByName(ctx, tx, p.Name)
		return err
	})
	return out, err
}

func findIntegrationByName(ctx context.Context, q querier, name string) (*store.Integration, error) {
	in, err := scanIntegration(q.QueryRowContext(ctx, `SELECT `+integrationColumns+` FROM integrations i WHERE i.name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.Errorf(store.ENOTFOUND, "Integration %q not found.", name)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find integration: %w", err)
	}
	return in, nil
}

// FindIntegrationByName returns an integration whatever the caller.
func (s *Store) FindIntegrationByName(ctx context.Context, name string) (*store.Integration, error) {
	return findIntegrationByName(pointRead(ctx), s.reader, name)
}

// FindIntegrations lists integrations by name.
func (s *Store) FindIntegrations(ctx context.Context, f store.IntegrationFilter, p store.Page) (store.List[*store.Integration], error) {
	q := &listQuery{cols: integrationColumns, from: `integrations i`, order: byKeys(`i.name`)}
	q.and(`(i.visibility = 'public' OR i.organization_id IN (SELECT value FROM json_each(?)))`, jsonStrings(f.MemberOf))
	if f.Search != nil {
		search := likeContains(strings.ToLower(*f.Search))
		q.and(`(lower(i.name) LIKE ? ESCAPE '\' OR lower(i.title) LIKE ? ESCAPE '\' OR lower(i.description) LIKE ? ESCAPE '\')`,
			search, search, search)
	}
	// The lists of an integration are indexed as ",a,b,": a pattern holding the commas matches
	// one whole element.
	if f.Category != nil {
		q.and(`i.categories_idx LIKE ? ESCAPE '\'`, likeContains(","+*f.Category+","))
	}
	if f.BlockDomain != nil {
		q.and(`i.block_domains_idx LIKE ? ESCAPE '\'`, likeContains(","+strings.ToLower(*f.BlockDomain)+","))
	}
	if f.HasBlocks != nil {
		q.and(`i.has_blocks = ?`, *f.HasBlocks)
	}
	if f.HasContentSources != nil {
		q.and(`i.has_content_sources = ?`, *f.HasContentSources)
	}
	if f.Owner != nil {
		q.and(`i.organization_id = ?`, *f.Owner)
	}
	if f.Scope != nil {
		q.and(`i.scopes_idx LIKE ? ESCAPE '\'`, likeContains(","+*f.Scope+","))
	}
	if f.Target != nil {
		q.and(`(i.target = ? OR i.target = 'all')`, *f.Target)
	}
	return findList(ctx, s.reader, q, p, "integrations", scanIntegration)
}

// FindIntegrationAsset returns an image of an integration.
func (s *Store) FindIntegrationAsset(ctx context.Context, name, asset string) (*store.IntegrationAsset, error) {
	var a store.IntegrationAsset
	var data string
	err := s.reader.QueryRowContext(pointRead(ctx), `SELECT a.content_type, a.data FROM integration_assets a
		JOIN integrations i ON i.id = a.integration_id WHERE i.name = ? AND a.name = ?`, name, asset).Scan(&a.ContentType, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Asset")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find integration asset: %w", err)
	}
	if a.Data, err = base64.StdEncoding.DecodeString(data); err != nil {
		return nil, fmt.Errorf("store: integration asset: %w", err)
	}
	return &a, nil
}

// DeleteIntegration removes an integration with everything that hangs off it.
func (s *Store) DeleteIntegration(ctx context.Context, name string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM integrations WHERE name = ?`, name); err != nil {
			return fmt.Errorf("store: unable to delete integration: %w", err)
		}
		return nil
	})
}

// SetIntegrationDevMode sets or clears the development tunnel.
func (s *Store) SetIntegrationDevMode(ctx context.Context, name string, tunnelURL *string, all bool) error {
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE integrations SET dev_tunnel_url = ?, dev_all = ? WHERE name = ?`,
			nullString(tunnelURL), all, name)
		if err != nil {
			return fmt.Errorf("store: unable to set development mode: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.Errorf(store.ENOTFOUND, "Integration %q not found.", name)
		}
		return nil
	})
}

// FindOrganizationIDByHostname returns the id of the organization with a hostname.
func (s *Store) FindOrganizationIDByHostname(ctx context.Context, hostname string) (string, error) {
	var id string
	err := s.reader.QueryRowContext(pointRead(ctx), `SELECT id FROM organizations WHERE lower(hostname) = lower(?)`, hostname).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.Errorf(store.ENOTFOUND, "Organization %q not found.", hostname)
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to find organization: %w", err)
	}
	return id, nil
}
