package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// memberColumns read a member with its user (u) and the counts of the organization's spaces and
// sites the member can read (server/access's rules, written in SQL) and of the teams the member
// is in. An admin reads them all. A member with a role reads content whose default level is not
// null, `inherit` reaching the organization or a collection whose level is not null (memberSpaces
// walks the collections down from the top); anyone reads what is granted to them or their teams,
// and for spaces what is under a collection granted so.
const memberColumns = userColumns + `, m.organization_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
	` + memberSpaces + `,
	(SELECT count(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id
		WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id),
	(SELECT count(*) FROM sites x WHERE x.organization_id = m.organization_id AND (m.role = 'admin'
		OR (m.role IS NOT NULL AND x.default_level IS NOT NULL)
		OR EXISTS (SELECT 1 FROM content_grants g WHERE g.target_id = x.id AND ` + grantsOfMember + `)))`

func scanMember(sc interface{ Scan(...any) error }, m *store.Member) error {
	var role, seen sql.NullString
	var joined string
	if err := scanUser(sc, &m.User, &m.OrganizationID, &role, &m.Disabled, &m.SSO, &joined, &seen, &m.Spaces, &m.Teams, &m.Sites); err != nil {
		return err
	}
	m.Role = store.Role(role.String)
	m.JoinedAt = parseTime(joined)
	m.LastSeenAt = parseNullTime(seen)
	return nil
}

// FindMember returns a user's membership of an organization.
func (s *Store) FindMember(ctx context.Context, orgID, userID string) (*store.Member, error) {
	return findMember(ctx, s.reader, orgID, userID)
}

func findMember(ctx context.Context, q querier, orgID, userID string) (*store.Member, error) {
	var m store.Member
	err := scanMember(q.QueryRowContext(ctx, `SELECT `+memberColumns+`
		FROM members m JOIN users u ON u.id = m.user_id
		WHERE m.organization_id = ? AND m.user_id = ?`, orgID, userID), &m)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Member")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find member: %w", err)
	}
	return &m, nil
}

// FindMemberRole returns only the role of a user in an organization: the cheap check every
// request makes. ENOTFOUND when the user is not a member.
func (s *Store) FindMemberRole(ctx context.Context, orgID, userID string) (store.Role, error) {
	var role sql.NullString
	err := s.reader.QueryRowContext(pointRead(ctx), `SELECT role FROM members WHERE organization_id = ? AND user_id = ?`,
		orgID, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.NotFound("Organization")
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to find membership: %w", err)
	}
	return store.Role(role.String), nil
}

// FindMembers lists an organization's members.
func (s *Store) FindMembers(ctx context.Context, orgID string, f store.MemberFilter, p store.Page) (store.List[*store.Member], error) {
	q := &listQuery{cols: memberColumns, from: `members m JOIN users u ON u.id = m.user_id`,
		order: byKeys(`m.joined_at`, `m.user_id`), desc: !f.Asc}
	q.and(`m.organization_id = ?`, orgID)
	if f.Role != nil {
		if *f.Role == "guest" {
			q.and(`m.role IS NULL`)
		} else {
			q.and(`m.role = ?`, *f.Role)
		}
	}
	if f.Search != "" {
		q.and(`(u.display_name LIKE ? ESCAPE '\' OR u.email LIKE ? ESCAPE '\')`, likeContains(f.Search), likeContains(f.Search))
	}
	if f.ByLastSeen {
		q.order = byKeys(`m.last_seen_at`, `m.user_id`)
		q.and(`m.last_seen_at IS NOT NULL`)
	}
	return findList(ctx, s.reader, q, p, "members", fill(scanMember))
}

// checkNotLastAdmin refuses a change that would leave an organization without an admin.
func checkNotLastAdmin(ctx context.Context, tx *Tx, orgID, userID string) error {
	var isAdmin, others int
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM members WHERE organization_id = ?1 AND user_id = ?2 AND role = 'admin'),
		(SELECT count(*) FROM members WHERE organization_id = ?1 AND user_id != ?2 AND role = 'admin')`,
		orgID, userID).Scan(&isAdmin, &others)
	if err != nil {
		return fmt.Errorf("store: unable to count admins: %w", err)
	}
	if isAdmin == 1 && others == 0 {
		return store.Errorf(store.ECONFLICT, "The organization's last admin cannot be removed or demoted.")
	}
	return nil
}

// UpdateMemberRole changes a member's role (RoleGuest makes them a guest).
func (s *Store) UpdateMemberRole(ctx context.Context, orgID, userID string, role store.Role) (*store.Member, error) {
	var m *store.Member
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findMember(ctx, tx, orgID, userID); err != nil {
			return err
		}
		if role != store.RoleAdmin {
			if err := checkNotLastAdmin(ctx, tx, orgID, userID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE members SET role = ? WHERE organization_id = ? AND user_id = ?`,
			nullRole(role), orgID, userID); err != nil {
			return fmt.Errorf("store: unable to update member: %w", err)
		}
		var err error
		m, err = findMember(ctx, tx, orgID, userID)
		return err
	})
	return m, err
}

// RemoveMember removes a user from an organization and its teams; removing a non-member is no error.
func (s *Store) RemoveMember(ctx context.Context, orgID, userID string) error {
	return s.write(ctx, func(tx *Tx) error {
		if err := checkNotLastAdmin(ctx, tx, orgID, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM team_members WHERE user_id = ?
			AND team_id IN (SELECT id FROM teams WHERE organization_id = ?)`, userID, orgID); err != nil {
			return fmt.Errorf("store: unable to remove member from teams: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM content_grants WHERE organization_id = ? AND user_id = ?`, orgID, userID); err != nil {
			return fmt.Errorf("store: unable to remove member's grants: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM members WHERE organization_id = ? AND user_id = ?`, orgID, userID); err != nil {
			return fmt.Errorf("store: unable to remove member: %w", err)
		}
		return nil
	})
}

// TouchMember records that a member was seen now.
func (s *Store) TouchMember(ctx context.Context, orgID, userID string) (*store.Member, error) {
	var m *store.Member
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE members SET last_seen_at = ? WHERE organization_id = ? AND user_id = ?`,
			formatTime(tx.now), orgID, userID)
		if err != nil {
			return fmt.Errorf("store: unable to touch member: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Organization")
		}
		m, err = findMember(ctx, tx, orgID, userID)
		return err
	})
	return m, err
}

// SetMemberSSO marks a member as one who signs in through the organization's SSO.
func (s *Store) SetMemberSSO(ctx context.Context, orgID, userID string) (*store.Member, error) {
	var m *store.Member
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE members SET sso = 1 WHERE organization_id = ? AND user_id = ?`, orgID, userID)
		if err != nil {
			return fmt.Errorf("store: unable to set member sso: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Member")
		}
		m, err = findMember(ctx, tx, orgID, userID)
		return err
	})
	return m, err
}

// JoinOrganization makes a user a member with the organization's default role, when the user's
// verified email domain is one the organization allows. Joining again changes nothing, whatever
// the domains allowed now (the creator of an organization is a member without any).
func (s *Store) JoinOrganization(ctx context.Context, orgID string, u *store.User) error {
	return s.write(ctx, func(tx *Tx) error {
		var member int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE organization_id = ? AND user_id = ?`,
			orgID, u.ID).Scan(&member); err != nil {
			return fmt.Errorf("store: unable to check membership: %w", err)
		}
		if member > 0 {
			return nil
		}
		var allowed int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM organization_email_domains
			WHERE organization_id = ? AND domain = ?`, orgID, u.EmailDomain()).Scan(&allowed); err != nil {
			return fmt.Errorf("store: unable to check email domain: %w", err)
		}
		// A domain the organization does not allow answers as an unknown organization would:
		// an outsider must not learn which organization ids exist.
		if allowed == 0 || !u.EmailVerified {
			return store.NotFound("Organization")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO members (organization_id, user_id, role, joined_at)
			SELECT id, ?, default_role, ? FROM organizations WHERE id = ? ON CONFLICT DO NOTHING`, u.ID, formatTime(tx.now), orgID); err != nil {
			return fmt.Errorf("store: unable to join organization: %w", err)
		}
		return nil
	})
}

// memberSpaces counts the live spaces a member (m) reads.
const memberSpaces = `(WITH RECURSIVE cl(id, open, granted) AS (
		SELECT c.id, CASE WHEN c.default_level IS NULL THEN 0 ELSE 1 END,
			CASE WHEN EXISTS (SELECT 1 FROM content_grants g WHERE g.target_id = c.id AND ` + grantsOfMember + `) THEN 1 ELSE 0 END
		FROM collections c WHERE c.organization_id = m.organization_id AND c.parent_id IS NULL
		UNION ALL
		SELECT c.id, CASE WHEN c.default_level = 'inherit' THEN cl.open WHEN c.default_level IS NULL THEN 0 ELSE 1 END,
			CASE WHEN cl.granted = 1 OR EXISTS (SELECT 1 FROM content_grants g WHERE g.target_id = c.id AND ` + grantsOfMember + `) THEN 1 ELSE 0 END
		FROM collections c JOIN cl ON c.parent_id = cl.id)
	SELECT count(*) FROM spaces s LEFT JOIN cl ON cl.id = s.parent_id
	WHERE s.organization_id = m.organization_id AND s.deleted_at IS NULL AND (m.role = 'admin'
		OR (m.role IS NOT NULL AND s.default_level IS NOT NULL AND (s.default_level <> 'inherit' OR s.parent_id IS NULL OR cl.open = 1))
		OR cl.granted = 1
		OR EXISTS (SELECT 1 FROM content_grants g WHERE g.target_id = s.id AND ` + grantsOfMember + `)))`
