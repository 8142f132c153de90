package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/quire-docs/quire/store"
)

// FindTeamMembers lists a team's members by user id.
func (s *Store) FindTeamMembers(ctx context.Context, orgID, teamID string, p store.Page) (store.List[*store.TeamMembership], error) {
	if _, err := findTeam(ctx, s.reader, orgID, teamID, ""); err != nil {
		return store.List[*store.TeamMembership]{}, err
	}
	q := &listQuery{cols: `tm.role, ` + memberColumns, from: `team_members tm JOIN members m ON m.user_id = tm.user_id`,
		join: ` JOIN users u ON u.id = tm.user_id`, order: byKeys(`tm.user_id`)}
	q.and(`tm.team_id = ? AND m.organization_id = ?`, teamID, orgID)
	return findList(ctx, s.reader, q, p, "team members", func(sc scanner) (*store.TeamMembership, error) {
		tm := &store.TeamMembership{Member: &store.Member{}}
		err := scanMember(scanFirst{sc, []any{&tm.Role}}, tm.Member)
		return tm, err
	})
}

// checkTeamRole refuses a team role other than owner and member.
func checkTeamRole(field, role string) error {
	if role != "owner" && role != "member" {
		return store.FieldErrorf(field, "unknown team role %q (owner or member)", role)
	}
	return nil
}

// teamUser finds the member of an organization a field names by user id or email address.
func teamUser(ctx context.Context, tx *Tx, orgID, field, idOrEmail string) (string, error) {
	var id string
	query := `SELECT m.user_id FROM members m WHERE m.organization_id = ? AND m.user_id = ?`
	if strings.Contains(idOrEmail, "@") {
		query = `SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = ? AND lower(u.email) = lower(?)`
	}
	err := tx.QueryRowContext(ctx, query, orgID, strings.TrimSpace(idOrEmail)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", store.FieldErrorf(field, "%q is not a member of this organization", idOrEmail)
	}
	if err != nil {
		return "", fmt.Errorf("store: unable to find member: %w", err)
	}
	return id, nil
}

func setTeamMember(ctx context.Context, tx *Tx, teamID, userID, role string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO team_members (team_id, user_id, role) VALUES (?1, ?2, ?3)
		ON CONFLICT (team_id, user_id) DO UPDATE SET role = ?3`, teamID, userID, role); err != nil {
		return fmt.Errorf("store: unable to set team member: %w", err)
	}
	return nil
}

// SetTeamMember adds a member to a team, or changes their role in it.
func (s *Store) SetTeamMember(ctx context.Context, orgID, teamID, userID, role string) error {
	if err := checkTeamRole("role", role); err != nil {
		return err
	}
	return s.write(ctx, func(tx *Tx) error {
		if _, err := findTeam(ctx, tx, orgID, teamID, ""); err != nil {
			return err
		}
		id, err := teamUser(ctx, tx, orgID, "userId", userID)
		if err != nil {
			return err
		}
		return setTeamMember(ctx, tx, teamID, id, role)
	})
}

// RemoveTeamMember takes a user out of a team.
func (s *Store) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error) {
	var removed bool
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findTeam(ctx, tx, orgID, teamID, ""); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM team_members WHERE team_id = ? AND user_id = ?`, teamID, userID)
		if err != nil {
			return fmt.Errorf("store: unable to remove team member: %w", err)
		}
		n, err := res.RowsAffected()
		removed = n > 0
		return err
	})
	return removed, err
}

// UpdateTeamMembers adds, removes and sets the roles of a team's members in one transaction.
func (s *Store) UpdateTeamMembers(ctx context.Context, orgID, teamID string, upd store.TeamMembersUpdate) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := findTeam(ctx, tx, orgID, teamID, ""); err != nil {
			return err
		}
		for i, a := range upd.Add {
			id, err := teamUser(ctx, tx, orgID, fmt.Sprintf("add[%d]", i), a)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO team_members (team_id, user_id, role) VALUES (?, ?, 'member')
				ON CONFLICT DO NOTHING`, teamID, id); err != nil {
				return fmt.Errorf("store: unable to add team member: %w", err)
			}
		}
		for i, r := range upd.Remove {
			id, err := teamUser(ctx, tx, orgID, fmt.Sprintf("remove[%d]", i), r)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM team_members WHERE team_id = ? AND user_id = ?`, teamID, id); err != nil {
				return fmt.Errorf("store: unable to remove team member: %w", err)
			}
		}
		users := make([]string, 0, len(upd.Roles))
		for u := range upd.Roles {
			users = append(users, u)
		}
		sort.Strings(users)
		for _, u := range users {
			field := "memberships." + u
			if err := checkTeamRole(field+".role", upd.Roles[u]); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `UPDATE team_members SET role = ? WHERE team_id = ? AND user_id = ?`, upd.Roles[u], teamID, u)
			if err != nil {
				return fmt.Errorf("store: unable to set team role: %w", err)
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				if err == nil {
					err = store.FieldErrorf(field, "%q is not in the team", u)
				}
				return err
			}
		}
		return nil
	})
}
