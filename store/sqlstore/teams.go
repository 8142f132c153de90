package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// teamColumns: their one parameter is the caller's user id. The spaces a team has access to are
// those granted to it.
const teamColumns = `t.id, t.organization_id, t.title, t.created_at,
	(SELECT count(*) FROM team_members c WHERE c.team_id = t.id),
	(SELECT count(*) FROM content_grants g JOIN spaces gs ON gs.id = g.target_id WHERE g.team_id = t.id AND gs.deleted_at IS NULL),
	COALESCE((SELECT r.role FROM team_members r WHERE r.team_id = t.id AND r.user_id = ?), '')`

func scanTeam(sc interface{ Scan(...any) error }, t *store.Team, extra ...any) error {
	var created string
	if err := sc.Scan(append([]any{&t.ID, &t.OrganizationID, &t.Title, &created, &t.Members, &t.Spaces, &t.CallerTeamRole}, extra...)...); err != nil {
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
			return store.FieldErrorf("members", "%q is not a member of this organization", id)
		}
	}
	return nil
}

// CreateTeam creates a team with the given organization members in it.
func (s *Store) CreateTeam(ctx context.Context, orgID, callerID, title string, members []string) (*store.Team, error) {
	id := store.NewID()
	var t *store.Team
	err := s.write(ctx, func(tx *Tx) error {
		if err := checkMembers(ctx, tx, orgID, members); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)`,
			id, orgID, title, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to create team: %w", err)
		}
		for _, u := range members {
			if _, err := tx.ExecContext(ctx, `INSERT INTO team_members (team_id, user_id, role) VALUES (?, ?, 'member') ON CONFLICT DO NOTHING`, id, u); err != nil {
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
func (s *Store) FindTeam(ctx context.Context, orgID, teamID, callerID string) (*store.Team, error) {
	return findTeam(ctx, s.reader, orgID, teamID, callerID)
}

func findTeam(ctx context.Context, q querier, orgID, teamID, callerID string) (*store.Team, error) {
	var t store.Team
	err := scanTeam(q.QueryRowContext(ctx, `SELECT `+teamColumns+` FROM teams t
		WHERE t.id = ? AND t.organization_id = ?`, callerID, teamID, orgID), &t)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Team")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find team: %w", err)
	}
	return &t, nil
}

// FindTeams lists an organization's teams, oldest first.
func (s *Store) FindTeams(ctx context.Context, orgID, callerID string, f store.TeamFilter, p store.Page) (store.List[*store.Team], error) {
	q := teamList(callerID, `teams t`, orgID, f.Title)
	if f.Manager != nil {
		q.and(`(EXISTS (SELECT 1 FROM members am WHERE am.organization_id = t.organization_id AND am.user_id = ? AND am.role = 'admin')
			OR EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = ? AND o.role = 'owner'))`, *f.Manager, *f.Manager)
	}
	return findList(ctx, s.reader, q, p, "teams", fill(func(sc scanner, t *store.Team) error { return scanTeam(sc, t) }))
}

// teamList lists an organization's teams (from tables that join them as t), oldest first, those
// whose title holds title when it is set.
func teamList(callerID, from, orgID, title string) *listQuery {
	q := &listQuery{cols: teamColumns, colArgs: []any{callerID}, from: from, order: byKeys(`t.created_at`, `t.id`)}
	q.and(`t.organization_id = ?`, orgID)
	if title != "" {
		q.and(`t.title LIKE ? ESCAPE '\'`, likeContains(title))
	}
	return q
}

// FindTeamsForMember lists the teams a member is in, with the member's role in each.
func (s *Store) FindTeamsForMember(ctx context.Context, orgID, userID, callerID, title string, p store.Page) (store.List[*store.MemberTeam], error) {
	q := teamList(callerID, `team_members mt JOIN teams t ON t.id = mt.team_id`, orgID, title)
	q.cols += `, mt.role`
	q.and(`mt.user_id = ?`, userID)
	return findList(ctx, s.reader, q, p, "member teams", func(sc scanner) (*store.MemberTeam, error) {
		mt := &store.MemberTeam{Team: &store.Team{}}
		return mt, scanTeam(sc, mt.Team, &mt.Role)
	})
}

// UpdateTeam renames a team.
func (s *Store) UpdateTeam(ctx context.Context, orgID, teamID, callerID, title string) (*store.Team, error) {
	var t *store.Team
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE teams SET title = ? WHERE id = ? AND organization_id = ?`, title, teamID, orgID)
		if err != nil {
			return fmt.Errorf("store: unable to update team: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Team")
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
