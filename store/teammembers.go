package store

import "context"

// TeamMembership is a member of an organization in one of its teams, with their role there.
type TeamMembership struct {
	Member *Member
	Role   string // owner | member
}

// TeamMembersUpdate changes a team's members at once: Add and Remove name users by id or by
// email address; Roles sets the team role of users in the team (after Add).
type TeamMembersUpdate struct {
	Add    []string
	Remove []string
	Roles  map[string]string
}

// TeamMembers are the members of teams. Only members of the team's organization join it; another
// user is EINVALID naming the field.
type TeamMembers interface {
	// FindTeamMembers lists a team's members by user id.
	FindTeamMembers(ctx context.Context, orgID, teamID string, p Page) (List[*TeamMembership], error)
	// SetTeamMember adds a member to a team, or changes their role in it.
	SetTeamMember(ctx context.Context, orgID, teamID, userID, role string) error
	// RemoveTeamMember takes a user out of a team; removed is false when they were not in it.
	RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) (removed bool, err error)
	// UpdateTeamMembers applies an update to a team's members in one transaction.
	UpdateTeamMembers(ctx context.Context, orgID, teamID string, upd TeamMembersUpdate) error
}
