package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/quire-docs/quire/store"
)

// GrantAccess gives role on a target to users and teams (all or nothing); role "" removes their
// grants.
func (s *Store) GrantAccess(ctx context.Context, t store.GrantTarget, userIDs, teamIDs []string, role store.Role) error {
	return s.write(ctx, func(tx *Tx) error {
		for _, id := range userIDs {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE organization_id = ? AND user_id = ?`, t.OrganizationID, id).Scan(&n); err != nil {
				return fmt.Errorf("store: unable to check member: %w", err)
			}
			if n == 0 {
				return store.Errorf(store.ENOTFOUND, "No user %q in this organization.", id)
			}
		}
		for _, id := range teamIDs {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM teams WHERE organization_id = ? AND id = ?`, t.OrganizationID, id).Scan(&n); err != nil {
				return fmt.Errorf("store: unable to check team: %w", err)
			}
			if n == 0 {
				return store.Errorf(store.ENOTFOUND, "No team %q in this organization.", id)
			}
		}
		for _, p := range []struct {
			col string
			ids []string
		}{{"user_id", userIDs}, {"team_id", teamIDs}} {
			for _, id := range p.ids {
				var err error
				if role == store.RoleGuest {
					_, err = tx.ExecContext(ctx, `DELETE FROM content_grants WHERE target_id = ? AND `+p.col+` = ?`, t.ID, id)
				} else {
					_, err = tx.ExecContext(ctx, `INSERT INTO content_grants (id, organization_id, target_kind, target_id, `+p.col+`, role, created_at)
						VALUES (?, ?, ?, ?, ?, ?, ?)
						ON CONFLICT (target_id, `+p.col+`) DO UPDATE SET role = excluded.role`,
						store.NewID(), t.OrganizationID, t.Kind, t.ID, id, string(role), formatTime(tx.now))
				}
				if err != nil {
					return fmt.Errorf("store: unable to grant access: %w", err)
				}
			}
		}
		return nil
	})
}

// RevokeAccess removes a user's or a team's grant on a target.
func (s *Store) RevokeAccess(ctx context.Context, t store.GrantTarget, userID, teamID string) (bool, error) {
	col, id := "user_id", userID
	if teamID != "" {
		col, id = "team_id", teamID
	}
	var n int64
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM content_grants WHERE target_id = ? AND organization_id = ? AND `+col+` = ?`, t.ID, t.OrganizationID, id)
		if err != nil {
			return fmt.Errorf("store: unable to revoke access: %w", err)
		}
		n, _ = res.RowsAffected()
		return nil
	})
	return n > 0, err
}

// FindUserGrants lists the members granted a role on a target, oldest grant first.
func (s *Store) FindUserGrants(ctx context.Context, t store.GrantTarget, p store.Page) (store.List[*store.UserGrant], error) {
	q := &listQuery{cols: userColumns + `, g.role`, from: `content_grants g JOIN users u ON u.id = g.user_id`,
		order: byKeys(`g.created_at`, `g.id`)}
	q.and(`g.target_id = ?`, t.ID)
	q.and(`g.organization_id = ?`, t.OrganizationID)
	return findList(ctx, s.reader, q, p, "user grants", func(sc scanner) (*store.UserGrant, error) {
		g := &store.UserGrant{}
		return g, scanUser(sc, &g.User, &g.Role)
	})
}

// FindTeamGrants lists the teams granted a role on a target, oldest grant first.
func (s *Store) FindTeamGrants(ctx context.Context, t store.GrantTarget, callerID string, p store.Page) (store.List[*store.TeamGrant], error) {
	q := &listQuery{cols: teamColumns + `, g.role`, colArgs: []any{callerID}, from: `content_grants g JOIN teams t ON t.id = g.team_id`,
		order: byKeys(`g.created_at`, `g.id`)}
	q.and(`g.target_id = ?`, t.ID)
	q.and(`g.organization_id = ?`, t.OrganizationID)
	return findList(ctx, s.reader, q, p, "team grants", func(sc scanner) (*store.TeamGrant, error) {
		g := &store.TeamGrant{}
		return g, scanTeam(sc, &g.Team, &g.Role)
	})
}

// grantsOfMember is the condition that a grant (g) is a member's (m): theirs or one of their
// teams'.
const grantsOfMember = `(g.user_id = m.user_id OR g.team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = m.user_id))`

// GrantsForUser returns what a member was granted on an organization's content.
func (s *Store) GrantsForUser(ctx context.Context, orgID, userID string) (store.Grants, error) {
	return cachedRead(ctx, s, &s.grantsCache, orgID+"\x00"+userID, func() (store.Grants, error) {
		return grantsForUser(ctx, s.reader, orgID, userID)
	})
}

func grantsForUser(ctx context.Context, q querier, orgID, userID string) (store.Grants, error) {
	out := store.Grants{}
	err := queryEach(ctx, q, "grants", `SELECT g.target_id, g.role FROM members m
		JOIN content_grants g ON g.organization_id = m.organization_id AND `+grantsOfMember+`
		WHERE m.organization_id = ? AND m.user_id = ?`, []any{orgID, userID}, func(sc scanner) error {
		var id, role string
		if err := sc.Scan(&id, &role); err != nil {
			return err
		}
		out.Raise(id, store.Role(role))
		return nil
	})
	return out, err
}

// MembersAccess returns every member of an organization with their grants on the targets.
func (s *Store) MembersAccess(ctx context.Context, orgID string, targetIDs []string, teamID string) ([]*store.MemberAccess, error) {
	b, _ := json.Marshal(targetIDs)
	var out []*store.MemberAccess
	var teamBest store.Grants // the current member's strongest team grant by target
	err := queryEach(ctx, s.reader, "members' access", `SELECT `+userColumns+`, m.role, m.disabled, m.joined_at, m.last_seen_at,
		g.target_id, g.role, g.team_id
		FROM members m JOIN users u ON u.id = m.user_id
		LEFT JOIN content_grants g ON g.organization_id = m.organization_id AND `+grantsOfMember+`
			AND g.target_id IN (SELECT value FROM json_each(?))
		WHERE m.organization_id = ?
			AND (? = '' OR EXISTS (SELECT 1 FROM team_members tf WHERE tf.team_id = ? AND tf.user_id = m.user_id))
		ORDER BY u.id`, []any{string(b), orgID, teamID, teamID}, func(sc scanner) error {
		var u store.User
		var orgRole, seen, target, role, team sql.NullString
		var disabled bool
		var joined string
		if err := scanUser(sc, &u, &orgRole, &disabled, &joined, &seen, &target, &role, &team); err != nil {
			return err
		}
		if len(out) == 0 || out[len(out)-1].User.ID != u.ID {
			out = append(out, &store.MemberAccess{User: u, OrgRole: store.Role(orgRole.String), Disabled: disabled,
				JoinedAt: parseTime(joined), LastSeenAt: parseNullTime(seen),
				Grants: store.Grants{}, Direct: store.Grants{}, TeamGrants: map[string]string{}})
			teamBest = store.Grants{}
		}
		m := out[len(out)-1]
		if !target.Valid {
			return nil
		}
		r := store.Role(role.String)
		if !team.Valid {
			m.Direct.Raise(target.String, r)
		} else if _, ok := m.TeamGrants[target.String]; !ok || r.Max(teamBest[target.String]) != teamBest[target.String] {
			m.TeamGrants[target.String] = team.String
			teamBest[target.String] = r
		}
		m.Grants.Raise(target.String, r)
		return nil
	})
	return out, err
}

// deleteGrantsOn removes the grants on targets that leave their organization or go.
func deleteGrantsOn(ctx context.Context, tx *Tx, targetIDs ...string) error {
	b, _ := json.Marshal(targetIDs)
	if _, err := tx.ExecContext(ctx, `DELETE FROM content_grants WHERE target_id IN (SELECT value FROM json_each(?))`, string(b)); err != nil {
		return fmt.Errorf("store: unable to remove grants: %w", err)
	}
	return nil
}

// visibleCond is the condition that content (spaces or collections, as alias x) is one a person
// reads (v nil: none needed), with its arguments.
func visibleCond(x string, v *store.Visible) (string, []any) {
	ids := func(l []string) string {
		b, _ := json.Marshal(append([]string{}, l...))
		return string(b)
	}
	cond := `(` + x + `.id IN (SELECT value FROM json_each(?)) OR ` + x + `.parent_id IN (SELECT value FROM json_each(?))`
	args := []any{ids(v.Granted), ids(v.Under)}
	if v.Member {
		cond += ` OR (` + x + `.default_level IS NOT NULL AND (` + x + `.default_level <> 'inherit' OR ` + x + `.parent_id IS NULL
			OR ` + x + `.parent_id IN (SELECT value FROM json_each(?))))`
		args = append(args, ids(v.Open))
	}
	return cond + `)`, args
}

// andVisible narrows a list to the content a person reads.
func (q *listQuery) andVisible(x string, v *store.Visible) {
	if v != nil {
		cond, args := visibleCond(x, v)
		q.and(cond, args...)
	}
}
