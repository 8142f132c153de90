package store

import (
	"time"
)

// Member is a user's membership of an organization.
type Member struct {
	OrganizationID string
	User           User
	Role           Role
	Disabled       bool
	SSO            bool
	JoinedAt       time.Time
	LastSeenAt     *time.Time
	Spaces         int // spaces of the organization the member can read
	Teams          int // teams of the organization the member is in
	Sites          int // sites of the organization the member can read
}

// MemberFilter narrows a member list. Role "guest" selects members without a role.
type MemberFilter struct {
	Role       *string
	Search     string
	ByLastSeen bool // sort by lastSeenAt, listing only members seen at least once
	Asc        bool
}
