package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/store"
)

const samlProviderColumns = `p.id, p.organization_id, p.label, p.entity_id, p.certificate, p.sso_url,
	p.default_team_id, p.default_role, p.created_at`

// scanSAMLProvider reads a provider row; its default team is loaded by withTeam.
func scanSAMLProvider(sc interface{ Scan(...any) error }, p *store.SAMLProvider, teamID *sql.NullString) error {
	var role sql.NullString
	var created string
	if err := sc.Scan(&p.ID, &p.OrganizationID, &p.Label, &p.EntityID, &p.Certificate, &p.SSOURL,
		teamID, &role, &created); err != nil {
		return err
	}
	p.DefaultRole = store.Role(role.String)
	p.CreatedAt = parseTime(created)
	return nil
}

// withTeam loads a provider's default team (none when unset).
func withTeam(ctx context.Context, q querier, p *store.SAMLProvider, teamID sql.NullString) error {
	if !teamID.Valid {
		return nil
	}
	t, err := findTeam(ctx, q, p.OrganizationID, teamID.String, "")
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	p.DefaultTeam = t
	return nil
}

func findSAMLProvider(ctx context.Context, q querier, where string, args ...any) (*store.SAMLProvider, error) {
	var p store.SAMLProvider
	var teamID sql.NullString
	err := scanSAMLProvider(q.QueryRowContext(ctx, `SELECT `+samlProviderColumns+` FROM saml_providers p WHERE `+where, args...), &p, &teamID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("SAML provider")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find SAML provider: %w", err)
	}
	if err := withTeam(ctx, q, &p, teamID); err != nil {
		return nil, err
	}
	return &p, nil
}

// FindSAMLProvider returns a provider of an organization.
func (s *Store) FindSAMLProvider(ctx context.Context, orgID, id string) (*store.SAMLProvider, error) {
	return findSAMLProvider(ctx, s.reader, `p.id = ? AND p.organization_id = ?`, id, orgID)
}

// FindSAMLProviderByID returns a provider whatever its organization.
func (s *Store) FindSAMLProviderByID(ctx context.Context, id string) (*store.SAMLProvider, error) {
	return findSAMLProvider(ctx, s.reader, `p.id = ?`, id)
}

// FindSAMLProviders lists an organization's providers, oldest first.
func (s *Store) FindSAMLProviders(ctx context.Context, orgID string, p store.Page) (store.List[*store.SAMLProvider], error) {
	q := &listQuery{cols: samlProviderColumns, from: `saml_providers p`, order: byKeys(`p.created_at`, `p.id`)}
	q.and(`p.organization_id = ?`, orgID)
	teams := map[*store.SAMLProvider]sql.NullString{}
	list, err := findList(ctx, s.reader, q, p, "SAML providers", func(sc scanner) (*store.SAMLProvider, error) {
		pr := &store.SAMLProvider{}
		var teamID sql.NullString
		err := scanSAMLProvider(sc, pr, &teamID)
		teams[pr] = teamID
		return pr, err
	})
	if err != nil {
		return list, err
	}
	for _, pr := range list.Items {
		if err := withTeam(ctx, s.reader, pr, teams[pr]); err != nil {
			return store.List[*store.SAMLProvider]{}, err
		}
	}
	return list, nil
}

// checkDefaultTeam returns EINVALID naming defaultTeam unless the team is the organization's.
func checkDefaultTeam(ctx context.Context, tx *Tx, orgID, teamID string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM teams WHERE id = ? AND organization_id = ?`, teamID, orgID).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to check team: %w", err)
	}
	if n == 0 {
		return store.Errorf(store.EINVALID, "defaultTeam: %q is not a team of this organization.", teamID)
	}
	return nil
}

// CreateSAMLProvider adds a provider to an organization and turns the organization's sso flag on.
func (s *Store) CreateSAMLProvider(ctx context.Context, orgID string, c store.SAMLProviderCreate) (*store.SAMLProvider, error) {
	id := store.NewID()
	var p *store.SAMLProvider
	err := s.write(ctx, func(tx *Tx) error {
		var orgRole sql.NullString
		if err := tx.QueryRowContext(ctx, `SELECT default_role FROM organizations WHERE id = ?`, orgID).Scan(&orgRole); errors.Is(err, sql.ErrNoRows) {
			return store.NotFound("Organization")
		} else if err != nil {
			return fmt.Errorf("store: unable to find organization: %w", err)
		}
		role := store.Role(orgRole.String)
		if c.DefaultRole != nil {
			role = *c.DefaultRole
		}
		var team any
		if c.DefaultTeamID != "" {
			if err := checkDefaultTeam(ctx, tx, orgID, c.DefaultTeamID); err != nil {
				return err
			}
			team = c.DefaultTeamID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO saml_providers
			(id, organization_id, label, entity_id, certificate, sso_url, default_team_id, default_role, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, orgID, c.Label, c.EntityID, c.Certificate, c.SSOURL, team, nullRole(role), formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to create SAML provider: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE organizations SET sso = 1 WHERE id = ?`, orgID); err != nil {
			return fmt.Errorf("store: unable to turn on sso: %w", err)
		}
		var err error
		p, err = findSAMLProvider(ctx, tx, `p.id = ?`, id)
		return err
	})
	return p, err
}

// UpdateSAMLProvider applies an update to a provider.
func (s *Store) UpdateSAMLProvider(ctx context.Context, orgID, id string, upd store.SAMLProviderUpdate) (*store.SAMLProvider, error) {
	var p *store.SAMLProvider
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findSAMLProvider(ctx, tx, `p.id = ? AND p.organization_id = ?`, id, orgID); err != nil {
			return err
		}
		var sets []string
		var args []any
		set := func(col string, v any) { sets, args = append(sets, col+" = ?"), append(args, v) }
		if upd.Label != nil {
			set("label", *upd.Label)
		}
		if upd.EntityID != nil {
			set("entity_id", *upd.EntityID)
		}
		if upd.Certificate != nil {
			set("certificate", *upd.Certificate)
		}
		if upd.SSOURL != nil {
			set("sso_url", *upd.SSOURL)
		}
		if upd.DefaultTeamID != nil {
			if *upd.DefaultTeamID == "" {
				set("default_team_id", nil)
			} else {
				if err := checkDefaultTeam(ctx, tx, orgID, *upd.DefaultTeamID); err != nil {
					return err
				}
				set("default_team_id", *upd.DefaultTeamID)
			}
		}
		if upd.DefaultRole != nil {
			set("default_role", nullRole(*upd.DefaultRole))
		}
		if len(sets) > 0 {
			// The column names are the constants above; only values are bound.
			if _, err := tx.ExecContext(ctx, `UPDATE saml_providers SET `+strings.Join(sets, ", ")+` WHERE id = ?`,
				append(args, id)...); err != nil {
				return fmt.Errorf("store: unable to update SAML provider: %w", err)
			}
		}
		var err error
		p, err = findSAMLProvider(ctx, tx, `p.id = ?`, id)
		return err
	})
	return p, err
}

// DeleteSAMLProvider deletes a provider; deleting a missing one is no error.
func (s *Store) DeleteSAMLProvider(ctx context.Context, orgID, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM saml_providers WHERE id = ? AND organization_id = ?`, id, orgID); err != nil {
			return fmt.Errorf("store: unable to delete SAML provider: %w", err)
		}
		return nil
	})
}

// checkSSOOff refuses to turn an organization's sso flag off while it has SAML providers: an
// organization that signs people in through its IdP keeps the flag on.
func checkSSOOff(ctx context.Context, tx *Tx, orgID string, on bool) error {
	if on {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM saml_providers WHERE organization_id = ?`, orgID).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to count SAML providers: %w", err)
	}
	if n > 0 {
		return store.Errorf(store.EINVALID, "sso: the organization signs people in through %d SAML provider(s), so its sso flag stays on; delete them first.", n)
	}
	return nil
}
