package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quire-docs/quire/store"
)

const inviteColumns = `i.id, i.organization_id, i.role, i.email, i.sso, i.created_by, i.expires_at, i.used_at, i.created_at,
	i.target_kind, i.target_id`

func scanInvite(sc scanner, in *store.Invite) error {
	var role, email, by, expires, used, targetKind, targetID sql.NullString
	var created string
	if err := sc.Scan(&in.ID, &in.OrganizationID, &role, &email, &in.SSO, &by, &expires, &used, &created, &targetKind, &targetID); err != nil {
		return err
	}
	if targetKind.Valid {
		in.Target = store.GrantTarget{Kind: targetKind.String, ID: targetID.String, OrganizationID: in.OrganizationID}
	}
	in.Role, in.Email, in.CreatedBy = store.Role(role.String), stringPtr(email), by.String
	in.ExpiresAt, in.UsedAt, in.CreatedAt = parseNullTime(expires), parseNullTime(used), parseTime(created)
	return nil
}

func findInvite(ctx context.Context, q querier, orgID, id string, linksOnly bool) (*store.Invite, error) {
	in := &store.Invite{}
	query := `SELECT ` + inviteColumns + ` FROM organization_invites i WHERE i.organization_id = ? AND i.id = ?`
	if linksOnly {
		query += ` AND i.email IS NULL`
	}
	err := scanInvite(q.QueryRowContext(ctx, query, orgID, id), in)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Invite")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find invite: %w", err)
	}
	return in, nil
}

func insertInvite(ctx context.Context, tx *Tx, in *store.Invite) error {
	in.ID, in.CreatedAt = store.NewID(), tx.now
	var expires any
	if in.ExpiresAt != nil {
		expires = formatTime(*in.ExpiresAt)
	}
	var targetKind, targetID any
	if in.Target.Kind != "" {
		targetKind, targetID = in.Target.Kind, in.Target.ID
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO organization_invites (id, organization_id, role, email, sso, created_by, expires_at, created_at,
		target_kind, target_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, in.ID, in.OrganizationID, nullRole(in.Role), nullString(in.Email), in.SSO, in.CreatedBy, expires,
		formatTime(tx.now), targetKind, targetID); err != nil {
		return fmt.Errorf("store: unable to create invite: %w", err)
	}
	return nil
}

// CreateInvite makes an invite link, to the organization or to one of its spaces or collections.
func (s *Store) CreateInvite(ctx context.Context, orgID, byUserID string, role store.Role, target store.GrantTarget) (*store.Invite, error) {
	in := &store.Invite{OrganizationID: orgID, Role: role, CreatedBy: byUserID}
	if target.Kind != "" {
		in.Target = store.GrantTarget{Kind: target.Kind, ID: target.ID, OrganizationID: orgID}
	}
	err := s.write(ctx, func(tx *Tx) error {
		if in.Target.Kind != "" {
			if err := contentExists(ctx, tx, in.Target); err != nil {
				return err
			}
		}
		return insertInvite(ctx, tx, in)
	})
	if err != nil {
		return nil, err
	}
	return in, nil
}

// FindInvites lists an organization's invite links, oldest first.
func (s *Store) FindInvites(ctx context.Context, orgID string, p store.Page) (store.List[*store.Invite], error) {
	q := &listQuery{cols: inviteColumns, from: `organization_invites i`, order: byKeys(`i.created_at`, `i.id`)}
	q.and(`i.organization_id = ? AND i.email IS NULL`, orgID)
	return findList(ctx, s.reader, q, p, "invites", fill(scanInvite))
}

// FindInvite returns an invite link of an organization.
func (s *Store) FindInvite(ctx context.Context, orgID, id string) (*store.Invite, error) {
	return findInvite(ctx, s.reader, orgID, id, true)
}

// FindInvitation returns an invitation of an organization of either kind.
func (s *Store) FindInvitation(ctx context.Context, orgID, id string) (*store.Invite, error) {
	return findInvite(ctx, s.reader, orgID, id, false)
}

// UpdateInvite changes the role an invite link gives.
func (s *Store) UpdateInvite(ctx context.Context, orgID, id string, role store.Role) (*store.Invite, error) {
	var in *store.Invite
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findInvite(ctx, tx, orgID, id, true); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE organization_invites SET role = ? WHERE id = ?`, nullRole(role), id); err != nil {
			return fmt.Errorf("store: unable to update invite: %w", err)
		}
		var err error
		in, err = findInvite(ctx, tx, orgID, id, true)
		return err
	})
	return in, err
}

// DeleteInvite deletes an invitation of an organization; deleted is false when there was none.
func (s *Store) DeleteInvite(ctx context.Context, orgID, id string) (bool, error) {
	var deleted bool
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM organization_invites WHERE organization_id = ? AND id = ?`, orgID, id)
		if err != nil {
			return fmt.Errorf("store: unable to delete invite: %w", err)
		}
		n, err := res.RowsAffected()
		deleted = n > 0
		return err
	})
	return deleted, err
}

// addMember makes a user a member with a role (an SSO user when sso); a member already keeps
// theirs. It answers whether the user was added.
func addMember(ctx context.Context, tx *Tx, orgID, userID string, role store.Role, sso bool) (bool, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO members (organization_id, user_id, role, sso, joined_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, orgID, userID, nullRole(role), sso, formatTime(tx.now))
	if err != nil {
		return false, fmt.Errorf("store: unable to add member: %w", err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// InviteByEmail adds the users of known addresses and invites the others, in one transaction.
func (s *Store) InviteByEmail(ctx context.Context, orgID, byUserID string, invites []store.EmailInvite, ttl time.Duration) (*store.EmailInvites, error) {
	var out *store.EmailInvites
	err := s.write(ctx, func(tx *Tx) error {
		out = &store.EmailInvites{Added: []*store.User{}, Invites: []*store.Invite{}}
		for _, ei := range invites {
			email := strings.TrimSpace(ei.Email)
			u := &store.User{}
			err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users u WHERE lower(u.email) = lower(?)`, email), u)
			switch {
			case err == nil:
				added, err := addMember(ctx, tx, orgID, u.ID, ei.Role, ei.SSO)
				if err != nil {
					return err
				}
				if added {
					out.Added = append(out.Added, u)
				}
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.ExecContext(ctx, `DELETE FROM organization_invites WHERE organization_id = ? AND lower(email) = lower(?)
					AND used_at IS NULL`, orgID, email); err != nil {
					return fmt.Errorf("store: unable to replace invite: %w", err)
				}
				expires := tx.now.Add(ttl)
				in := &store.Invite{OrganizationID: orgID, Role: ei.Role, Email: &email, SSO: ei.SSO, CreatedBy: byUserID, ExpiresAt: &expires}
				if err := insertInvite(ctx, tx, in); err != nil {
					return err
				}
				out.Invites = append(out.Invites, in)
			default:
				return fmt.Errorf("store: unable to find user by email: %w", err)
			}
		}
		return nil
	})
	return out, err
}

// JoinWithInvite makes u a member with the invitation's role.
func (s *Store) JoinWithInvite(ctx context.Context, orgID, inviteID string, u *store.User) error {
	return s.write(ctx, func(tx *Tx) error {
		in, err := findInvite(ctx, tx, orgID, inviteID, false)
		if err != nil {
			return err
		}
		if in.Email == nil {
			var links bool
			if err := tx.QueryRowContext(ctx, `SELECT invite_links FROM organizations WHERE id = ?`, orgID).Scan(&links); err != nil {
				return fmt.Errorf("store: unable to read organization: %w", err)
			}
			if !links {
				return store.Errorf(store.EFORBIDDEN, "The organization has turned invite links off.")
			}
		} else {
			switch {
			case in.UsedAt != nil:
				return store.Errorf(store.ECONFLICT, "This invitation has been used already.")
			case !tx.now.Before(*in.ExpiresAt):
				return store.Errorf(store.ECONFLICT, "This invitation expired at %s; ask for a new one.", in.ExpiresAt.Format(time.RFC3339))
			case !strings.EqualFold(*in.Email, u.Email):
				return store.Errorf(store.EFORBIDDEN, "This invitation is for another email address.")
			case !u.EmailVerified:
				return store.Errorf(store.EFORBIDDEN, "Your email address is not verified: it cannot take an invitation sent to it.")
			}
			if _, err := tx.ExecContext(ctx, `UPDATE organization_invites SET used_at = ?, used_by = ? WHERE id = ?`,
				formatTime(tx.now), u.ID, in.ID); err != nil {
				return fmt.Errorf("store: unable to use invite: %w", err)
			}
		}
		if in.Target.Kind == "" {
			_, err = addMember(ctx, tx, orgID, u.ID, in.Role, in.SSO)
			return err
		}
		if err := contentExists(ctx, tx, in.Target); err != nil {
			return err
		}
		if _, err := addMember(ctx, tx, orgID, u.ID, store.RoleGuest, in.SSO); err != nil {
			return err
		}
		return grantAtLeast(ctx, tx, in.Target, u.ID, in.Role)
	})
}

// contentExists answers ENOTFOUND unless the organization has the space (not deleted) or
// collection a target names.
func contentExists(ctx context.Context, tx *Tx, t store.GrantTarget) error {
	query := `SELECT count(*) FROM spaces WHERE id = ? AND organization_id = ? AND deleted_at IS NULL`
	what := "Space"
	if t.Kind == store.GrantCollection {
		query, what = `SELECT count(*) FROM collections WHERE id = ? AND organization_id = ?`, "Collection"
	}
	var n int
	if err := tx.QueryRowContext(ctx, query, t.ID, t.OrganizationID).Scan(&n); err != nil {
		return fmt.Errorf("store: unable to find %s: %w", strings.ToLower(what), err)
	}
	if n == 0 {
		return store.NotFound(what)
	}
	return nil
}

// grantAtLeast grants a user role on a target unless they hold a stronger grant there.
func grantAtLeast(ctx context.Context, tx *Tx, t store.GrantTarget, userID string, role store.Role) error {
	if role == store.RoleGuest {
		return nil
	}
	var held sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT role FROM content_grants WHERE target_id = ? AND user_id = ?`, t.ID, userID).Scan(&held)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("store: unable to read grant: %w", err)
	}
	if held.Valid && store.Role(held.String).AtLeast(role) {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO content_grants (id, organization_id, target_kind, target_id, user_id, role, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (target_id, user_id) DO UPDATE SET role = excluded.role`,
		store.NewID(), t.OrganizationID, t.Kind, t.ID, userID, string(role), formatTime(tx.now)); err != nil {
		return fmt.Errorf("store: unable to grant access: %w", err)
	}
	return nil
}
