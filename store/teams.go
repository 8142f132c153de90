package store

import (
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
