package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Team is a named group of an organization's members.
type Team struct {
	ID             string
	OrganizationID string
	Title          string
	Members        int
	Spaces         int
	CreatedAt      time.Time
	// CallerTeamRole is the caller's role in the team: "owner", "member" or "" when not in it.
	CallerTeamRole string
}

// TeamFilter narrows a team list.
type TeamFilter struct {
	// Manager lists only the teams this user can manage: all of them for an organization admin,
	// else the teams they own.
	Manager *string
	Title   string
}

// MemberTeam is one team of a member, with the member's role in it.
type MemberTeam struct {
	Team *Team
	Role string
}

// teamColumns: the first argument bound is the caller's user id.
const teamColumns = `t.id, t.organization_id, t.title, t.created_at,
	(SELECT count(*) FROM team_members c WHERE c.team_id = t.id),
	COALESCE((SELECT r.role FROM team_members r WHERE r.team_id = t.id AND r.user_id = ?1), '')`

func scanTeam(sc interface{ Scan(...any) error }, t *Team, extra ...any) error {
	var created string
	if err := sc.Scan(append([]any{&t.ID, &t.OrganizationID, &t.Title, &created, &t.Members, &t.CallerTeamRole}, extra...)...); err != nil {
		return err
	}
	t.CreatedAt = parseTime(created)
	return nil
}

// checkMembers returns EINVALID naming the first user id that is not a member of the organization.
func checkMembers(ctx context.Context, tx *Tx, orgID string, userIDs []string) error {
	for _, id := range userIDs {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE organization_id = ? AND user_id = ?`, orgID, id).Scan(&n); err != nil {
			return fmt.Errorf("store: unable to check member: %w", err)
		}
		if n == 0 {
			return Errorf(EINVALID, "members: %q is not a member of this organization.", id)
		}
	}
	return nil
}

// CreateTeam creates a team with the given organization members in it.
func (s *Store) CreateTeam(ctx context.Context, orgID, callerID, title string, members []string) (*Team, error) {
	id := NewID()
	var t *Team
	err := s.write(ctx, func(tx *Tx) error {
		if err := checkMembers(ctx, tx, orgID, members); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)`,
			id, orgID, title, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to create team: %w", err)
		}
		for _, u := range members {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO team_members (team_id, user_id, role) VALUES (?, ?, 'member')`, id, u); err != nil {
				return fmt.Errorf("store: unable to add team member: %w", err)
			}
		}
		var err error
		t, err = findTeam(ctx, tx, orgID, id, callerID)
		return err
	})
	return t, err
}

// FindTeam returns a team of an organization.
func (s *Store) FindTeam(ctx context.Context, orgID, teamID, callerID string) (*Team, error) {
	return findTeam(ctx, s.reader, orgID, teamID, callerID)
}

func findTeam(ctx context.Context, q querier, orgID, teamID, callerID string) (*Team, error) {
	var t Team
	err := scanTeam(q.QueryRowContext(ctx, `SELECT `+teamColumns+` FROM teams t
		WHERE t.id = ?2 AND t.organization_id = ?3`, callerID, teamID, orgID), &t)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Team")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find team: %w", err)
	}
	return &t, nil
}

// FindTeams lists an organization's teams, oldest first.
func (s *Store) FindTeams(ctx context.Context, orgID, callerID string, f TeamFilter, p Page) (List[*Team], error) {
	cur, err := decodeCursor(p.Cursor, 2)
	if err != nil {
		return List[*Team]{}, err
	}
	where := `t.organization_id = ?2`
	args := []any{callerID, orgID}
	if f.Title != "" {
		where += ` AND t.title LIKE ?3 ESCAPE '\'`
		args = append(args, likeContains(f.Title))
	} else {
		where += ` AND ?3 IS NULL`
		args = append(args, nil)
	}
	if f.Manager != nil {
		where += ` AND (EXISTS (SELECT 1 FROM members am WHERE am.organization_id = t.organization_id AND am.user_id = ?4 AND am.role = 'admin')
			OR EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = ?4 AND o.role = 'owner'))`
	} else {
		where += ` AND ?4 IS NULL`
	}
	args = append(args, nullString(f.Manager))
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM teams t WHERE `+where, args...).Scan(&count); err != nil {
		return List[*Team]{}, fmt.Errorf("store: unable to count teams: %w", err)
	}
	if cur != nil {
		where += ` AND (t.created_at, t.id) > (?5, ?6)`
		args = append(args, cur[0], cur[1])
	} else {
		where += ` AND ?5 IS NULL AND ?6 IS NULL`
		args = append(args, nil, nil)
	}
	args = append(args, p.Size()+1)
	rows, err := s.reader.QueryContext(ctx, `SELECT `+teamColumns+` FROM teams t WHERE `+where+`
		ORDER BY t.created_at, t.id LIMIT ?7`, args...)
	if err != nil {
		return List[*Team]{}, fmt.Errorf("store: unable to list teams: %w", err)
	}
	defer rows.Close()
	var items []*Team
	for rows.Next() {
		var t Team
		if err := scanTeam(rows, &t); err != nil {
			return List[*Team]{}, fmt.Errorf("store: unable to list teams: %w", err)
		}
		items = append(items, &t)
	}
	if err := rows.Err(); err != nil {
		return List[*Team]{}, fmt.Errorf("store: unable to list teams: %w", err)
	}
	return finishPage(items, p.Size(), count, func(t *Team) []string { return []string{formatTime(t.CreatedAt), t.ID} }), nil
}

// FindTeamsForMember lists the teams a member is in, with the member's role in each.
func (s *Store) FindTeamsForMember(ctx context.Context, orgID, userID, callerID, title string, p Page) (List[*MemberTeam], error) {
	cur, err := decodeCursor(p.Cursor, 2)
	if err != nil {
		return List[*MemberTeam]{}, err
	}
	where := `t.organization_id = ?2 AND mt.user_id = ?3`
	args := []any{callerID, orgID, userID}
	if title != "" {
		where += ` AND t.title LIKE ?4 ESCAPE '\'`
		args = append(args, likeContains(title))
	} else {
		where += ` AND ?4 IS NULL`
		args = append(args, nil)
	}
	var count int
	if err := s.reader.QueryRowContext(ctx, `SELECT count(*) FROM team_members mt JOIN teams t ON t.id = mt.team_id
		WHERE `+where, args...).Scan(&count); err != nil {
		return List[*MemberTeam]{}, fmt.Errorf("store: unable to count member teams: %w", err)
	}
	if cur != nil {
		where += ` AND (t.created_at, t.id) > (?5, ?6)`
		args = append(args, cur[0], cur[1])
	} else {
		where += ` AND ?5 IS NULL AND ?6 IS NULL`
		args = append(args, nil, nil)
	}
	args = append(args, p.Size()+1)
	rows, err := s.reader.QueryContext(ctx, `SELECT `+teamColumns+`, mt.role
		FROM team_members mt JOIN teams t ON t.id = mt.team_id
		WHERE `+where+` ORDER BY t.created_at, t.id LIMIT ?7`, args...)
	if err != nil {
		return List[*MemberTeam]{}, fmt.Errorf("store: unable to list member teams: %w", err)
	}
	defer rows.Close()
	var items []*MemberTeam
	for rows.Next() {
		mt := &MemberTeam{Team: &Team{}}
		if err := scanTeam(rows, mt.Team, &mt.Role); err != nil {
			return List[*MemberTeam]{}, fmt.Errorf("store: unable to list member teams: %w", err)
		}
		items = append(items, mt)
	}
	if err := rows.Err(); err != nil {
		return List[*MemberTeam]{}, fmt.Errorf("store: unable to list member teams: %w", err)
	}
	return finishPage(items, p.Size(), count, func(mt *MemberTeam) []string {
		return []string{formatTime(mt.Team.CreatedAt), mt.Team.ID}
	}), nil
}

// UpdateTeam renames a team.
func (s *Store) UpdateTeam(ctx context.Context, orgID, teamID, callerID, title string) (*Team, error) {
	var t *Team
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE teams SET title = ? WHERE id = ? AND organization_id = ?`, title, teamID, orgID)
		if err != nil {
			return fmt.Errorf("store: unable to update team: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound("Team")
		}
		t, err = findTeam(ctx, tx, orgID, teamID, callerID)
		return err
	})
	return t, err
}

// DeleteTeam deletes a team; deleting a missing one is no error.
func (s *Store) DeleteTeam(ctx context.Context, orgID, teamID string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM teams WHERE id = ? AND organization_id = ?`, teamID, orgID); err != nil {
			return fmt.Errorf("store: unable to delete team: %w", err)
		}
		return nil
	})
}
