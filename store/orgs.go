package store

import (
	"context"
	"encoding/json"
	"time"
)

// MergeRules say what a change request needs before it merges; stored as JSON.
type MergeRules struct {
	Type  string      `json:"type"`
	Rules []MergeRule `json:"rules,omitempty"`
}

// MergeRule is one rule of a `rules` merge-rules configuration.
type MergeRule struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users,omitempty"`      // the reviewer rules and allow_bypass
	Expression string   `json:"expression,omitempty"` // custom
	Message    string   `json:"message,omitempty"`    // custom
}

// OnboardingPreferences are what an organization's creator said in onboarding: where their docs
// come from, who reads them (nil: not said) and what they want to do with them.
type OnboardingPreferences struct {
	Source    *string  `json:"source"`
	Audience  *string  `json:"audience"`
	Interests []string `json:"interests"`
}

// Organization owns members, teams, collections and spaces.
type Organization struct {
	ID                 string
	Title              string
	Hostname           *string
	Type               string
	DefaultRole        Role
	DefaultContentSite *string
	Logo               *string
	SSO                bool
	AI                 bool
	InviteLinks        bool
	MergeRules         MergeRules
	EmailDomains       []string
	Onboarding         *OnboardingPreferences // nil when never given
	CreatedAt          time.Time

	// Set by queries that know the caller: the caller's membership. CallerRole alone cannot tell a
	// guest from a non-member (both are ""), hence CallerIsMember.
	CallerIsMember bool
	CallerRole     Role
	CallerOwnsTeam bool
}

// AgentInstructions is an organization's instructions to its docs agent.
type AgentInstructions struct {
	Instructions json.RawMessage // nil when never set
	UpdatedAt    time.Time
	UpdatedBy    string
}

// OrganizationUpdate holds the fields to change; nil leaves a field as it is. The Set* flags
// distinguish "set to null" from "leave alone" for the nullable fields.
type OrganizationUpdate struct {
	Title              *string
	EmailDomains       *[]string
	Hostname           *string
	SetDefaultRole     bool
	DefaultRole        Role
	SetDefaultContent  bool
	DefaultContentSite *string
	SetLogo            bool
	Logo               *string
	SSO                *bool
	AI                 *bool
	InviteLinks        *bool
	MergeRules         *MergeRules
	Onboarding         *OnboardingPreferences
}

// Orgs are organizations, their members, teams and invites.
type Orgs interface {
	// CreateOrganization creates an organization whose only member, an admin, is the creator.
	CreateOrganization(ctx context.Context, title string, creatorID string) (*Organization, error)
	// CreateTeam creates a team with the given organization members in it.
	CreateTeam(ctx context.Context, orgID string, callerID string, title string, members []string) (*Team, error)
	// DeleteTeam deletes a team; deleting a missing one is no error.
	DeleteTeam(ctx context.Context, orgID string, teamID string) error
	// FindAgentInstructions returns an organization's agent instructions (Instructions nil if unset).
	FindAgentInstructions(ctx context.Context, orgID string) (*AgentInstructions, error)
	// FindMember returns a user's membership of an organization.
	FindMember(ctx context.Context, orgID string, userID string) (*Member, error)
	// FindMemberRole returns only the role of a user in an organization: the cheap check every
	// request makes. ENOTFOUND when the user is not a member.
	FindMemberRole(ctx context.Context, orgID string, userID string) (Role, error)
	// FindMembers lists an organization's members.
	FindMembers(ctx context.Context, orgID string, f MemberFilter, p Page) (List[*Member], error)
	// FindOrganizationByID returns an organization whatever the caller (for joining by domain).
	FindOrganizationByID(ctx context.Context, id string) (*Organization, error)
	// FindOrganizationForMember returns an organization with the caller's membership, or ENOTFOUND
	// when it does not exist or the caller is not a member: outsiders cannot tell the two apart.
	FindOrganizationForMember(ctx context.Context, id string, userID string) (*Organization, error)
	// FindOrganizationsByEmailDomain lists the organizations that allow members of an email domain,
	// each with the user's membership where there is one.
	FindOrganizationsByEmailDomain(ctx context.Context, domain string, userID string) ([]*Organization, error)
	// FindOrganizationsForUser lists the organizations a user is a member of, oldest first.
	FindOrganizationsForUser(ctx context.Context, userID string, p Page) (List[*Organization], error)
	// FindTeam returns a team of an organization.
	FindTeam(ctx context.Context, orgID string, teamID string, callerID string) (*Team, error)
	// FindTeams lists an organization's teams, oldest first.
	FindTeams(ctx context.Context, orgID string, callerID string, f TeamFilter, p Page) (List[*Team], error)
	// FindTeamsForMember lists the teams a member is in, with the member's role in each.
	FindTeamsForMember(ctx context.Context, orgID string, userID string, callerID string, title string, p Page) (List[*MemberTeam], error)
	// JoinOrganization makes a user a member with the organization's default role, when the user's
	// verified email domain is one the organization allows. Joining again changes nothing, whatever
	// the domains allowed now (the creator of an organization is a member without any).
	JoinOrganization(ctx context.Context, orgID string, u *User) error
	// RemoveMember removes a user from an organization and its teams; removing a non-member is no error.
	RemoveMember(ctx context.Context, orgID string, userID string) error
	// SetMemberSSO marks a member as one who signs in through the organization's SSO.
	SetMemberSSO(ctx context.Context, orgID string, userID string) (*Member, error)
	// TouchMember records that a member was seen now.
	TouchMember(ctx context.Context, orgID string, userID string) (*Member, error)
	// UpdateAgentInstructions stores an organization's agent instructions.
	UpdateAgentInstructions(ctx context.Context, orgID string, userID string, doc json.RawMessage) (*AgentInstructions, error)
	// UpdateMemberRole changes a member's role (RoleGuest makes them a guest).
	UpdateMemberRole(ctx context.Context, orgID string, userID string, role Role) (*Member, error)
	// UpdateOrganization applies an update and returns the organization as the caller sees it.
	UpdateOrganization(ctx context.Context, id string, callerID string, upd OrganizationUpdate) (*Organization, error)
	// UpdateTeam renames a team.
	UpdateTeam(ctx context.Context, orgID string, teamID string, callerID string, title string) (*Team, error)
}
