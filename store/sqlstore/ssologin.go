package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/store"
)

// LoginWithSAML consumes a verified assertion of a provider: replay check, user, membership,
// default team and token, all in one transaction, so a refused login leaves nothing behind.
func (s *Store) LoginWithSAML(ctx context.Context, providerID string, a store.SAMLAssertion) (*store.SSOLogin, error) {
	email := strings.TrimSpace(a.Email)
	if email == "" || a.ID == "" {
		return nil, store.Errorf(store.EINVALID, "The assertion has no id or no email.")
	}
	var out *store.SSOLogin
	err := s.write(ctx, func(tx *Tx) error {
		out = &store.SSOLogin{}
		p, err := findSAMLProvider(ctx, tx, `p.id = ?`, providerID)
		if err != nil {
			return err
		}
		now := formatTime(tx.now)
		// Ids past their expiry can no longer be replayed (the assertion itself is refused then).
		if _, err := tx.ExecContext(ctx, `DELETE FROM saml_assertions WHERE expires_at < ?`, now); err != nil {
			return fmt.Errorf("store: unable to drop expired assertions: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO saml_assertions (provider_id, assertion_id, expires_at)
			VALUES (?, ?, ?) ON CONFLICT (provider_id, assertion_id) DO NOTHING`,
			providerID, a.ID, formatTime(a.ExpiresAt))
		if err != nil {
			return fmt.Errorf("store: unable to record assertion: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.Errorf(store.ECONFLICT, "replay: assertion %q was already used to sign in.", a.ID)
		}

		var userID string
		err = tx.QueryRowContext(ctx, `SELECT id FROM users WHERE lower(email) = lower(?)`, email).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) {
			userID, out.UserCreated = store.NewID(), true
			name := strings.TrimSpace(a.DisplayName)
			if name == "" {
				name = email[:max(strings.IndexByte(email, '@'), 0)]
			}
			// The identity provider vouches for the address: it counts as verified.
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, email, display_name, email_verified, created_at)
				VALUES (?, ?, ?, ?, ?)`, userID, email, name, true, now); err != nil {
				return fmt.Errorf("store: unable to create user: %w", err)
			}
		} else if err != nil {
			return fmt.Errorf("store: unable to find user: %w", err)
		}

		var member int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE organization_id = ? AND user_id = ?`,
			p.OrganizationID, userID).Scan(&member); err != nil {
			return fmt.Errorf("store: unable to check membership: %w", err)
		}
		if member == 0 && !out.UserCreated {
			// An identity provider is trusted by its organization's admin, not by quire: it may
			// sign in the people it creates and the organization's own members, never take over
			// an account that lives outside the organization.
			return store.Errorf(store.EFORBIDDEN, "email: an account with this email exists outside the organization; "+
				"it must join the organization before signing in through its SSO.")
		}
		if member == 0 {
			out.Joined = true
			if _, err := tx.ExecContext(ctx, `INSERT INTO members (organization_id, user_id, role, sso, joined_at)
				VALUES (?, ?, ?, 1, ?)`, p.OrganizationID, userID, nullRole(p.DefaultRole), now); err != nil {
				return fmt.Errorf("store: unable to add member: %w", err)
			}
			if p.DefaultTeam != nil {
				if _, err := tx.ExecContext(ctx, `INSERT INTO team_members (team_id, user_id, role) VALUES (?, ?, 'member')
					ON CONFLICT (team_id, user_id) DO NOTHING`, p.DefaultTeam.ID, userID); err != nil {
					return fmt.Errorf("store: unable to add member to team: %w", err)
				}
			}
		} else if _, err := tx.ExecContext(ctx, `UPDATE members SET sso = 1 WHERE organization_id = ? AND user_id = ?`,
			p.OrganizationID, userID); err != nil {
			return fmt.Errorf("store: unable to set member sso: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE organizations SET sso = 1 WHERE id = ?`, p.OrganizationID); err != nil {
			return fmt.Errorf("store: unable to turn on sso: %w", err)
		}

		out.Token = store.NewToken()
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, user_id, name, created_at) VALUES (?, ?, ?, ?)`,
			store.HashToken(out.Token), userID, "sso:"+p.Label, now); err != nil {
			return fmt.Errorf("store: unable to create token: %w", err)
		}
		out.Member, err = findMember(ctx, tx, p.OrganizationID, userID)
		if err == nil {
			auditSignedIn(ctx, userID, out.Member.User.Email, out.Joined)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
