package store

import (
	"context"
	"encoding/json"
	"time"
)

// Store is the whole contract: what server, jobs and cmd take. An implementation (store/sqlite)
// satisfies it; store/storetest checks that it keeps it.
type Store interface {
	Users
	Orgs
	Spaces
	Content
	ChangeRequests
	Comments
	Sites
	Translations
	SSO
	Integrations
	InstallationLifecycle
	Jobs
	Conversations
	OpenAPISpecs
	Sessions
	Admin
}

// PoolStats is the use of one connection pool.
type PoolStats struct {
	InUse     int
	Idle      int
	WaitCount int64
}

// Users are users and their API tokens.
type Users interface {
	// CreateToken issues another token for the user with an email, returned in clear this once.
	CreateToken(ctx context.Context, email string, name string) (string, *Token, error)
	// CreateUser creates a user with a verified email and one API token, returned in clear this once.
	CreateUser(ctx context.Context, u *User) (token string, err error)
	// FindTokens lists the tokens of the user with an email, oldest first.
	FindTokens(ctx context.Context, email string) ([]*Token, error)
	// FindUserByToken returns the user a bearer token belongs to and when the token was last used
	// (zero: never). The lookup is by the token's SHA-256, an indexed equality on a value an attacker
	// cannot choose, so it leaks no timing about other tokens.
	FindUserByToken(ctx context.Context, token string) (*User, time.Time, error)
	// RevokeToken deletes the token with an id: it authenticates nothing from then on.
	RevokeToken(ctx context.Context, id string) error
	// TouchToken records that a token was used now.
	TouchToken(ctx context.Context, token string) error
}

// Orgs are organizations, their members, teams and invites.
type Orgs interface {
	// CreateOrganization creates an organization whose only member, an admin, is the creator.
	CreateOrganization(ctx context.Context, title string, creatorID string) (*Organization, error)
	// CreateTeam creates a team with the given organization members in it.
	CreateTeam(ctx context.Context, orgID string, callerID string, title string, members []string) (*Team, error)
	// DeleteInvite deletes an invite link of an organization; deleting a missing one is no error.
	DeleteInvite(ctx context.Context, orgID string, inviteID string) error
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

// Jobs is the durable job queue and the settings the runner keeps.
type Jobs interface {
	// DueJobs claims up to limit pending jobs whose time has come, oldest first: no other
	// runner gets them until FinishJob records their outcome or a lease runs out.
	DueJobs(ctx context.Context, limit int) ([]Job, error)
	// EnqueueJob schedules a job to run at runAt.
	EnqueueJob(ctx context.Context, kind string, payload string, runAt time.Time) error
	// EnsureJob schedules a job of a kind to run now unless one of that kind is already pending:
	// how recurring jobs are started once and never doubled across restarts.
	EnsureJob(ctx context.Context, kind string) error
	// EnsureSetting stores value under key unless the key has one, and returns the stored value.
	EnsureSetting(ctx context.Context, key string, value string) (string, error)
	// FinishJob records a job's outcome. A job that failed is retried at retryAt until maxAttempts,
	// then marked failed; next, when set, schedules the job's next run (recurring jobs).
	FinishJob(ctx context.Context, j Job, runErr error, retryAt time.Time, maxAttempts int, next *time.Time) error
	// Setting returns a stored server setting, or "" when unset.
	Setting(ctx context.Context, key string) (string, error)
}

// Clock is the store's clock.
type Clock interface {
	// Now is the time the store's clock reads: every write and expiry check reads it.
	Now() time.Time
}

// Admin is the upkeep of the store itself: backups, integrity, the clock and what metrics read.
type Admin interface {
	Clock
	// Backend names the database the store runs on ("sqlite", "postgres"), for logs and tests.
	Backend() string
	// Backup writes a consistent copy of the live data to a new file at path while writers go on
	// (SQLite: VACUUM INTO, in one read transaction). The file must not exist yet.
	Backup(ctx context.Context, path string) error
	// CheckIntegrity checks the whole store and answers an error listing what it found, or nil
	// when the data is sound.
	CheckIntegrity(ctx context.Context) error
	// CheckSearchIndex reads the whole search index and reports what a rebuild would mend: on
	// PostgreSQL, rows whose searchable text differs from the text they index folded again (an
	// index written under issue 24's race); on SQLite, what FTS5's own integrity check finds.
	CheckSearchIndex(ctx context.Context) (*SearchIndexReport, error)
	// RebuildSearchIndex indexes every space again from its current revision, one space per
	// transaction (readers and writers go on meanwhile), and reports what it indexed.
	RebuildSearchIndex(ctx context.Context) (*SearchIndexReport, error)
	// Close releases the store (the SQLite store: both connection pools).
	Close() error
	// PendingJobs counts the jobs waiting to run, by kind.
	PendingJobs(ctx context.Context) (map[string]int, error)
	// Unavailable reports whether an error the store returned says the database could not be
	// reached (lost or refused connections, a server shutting down), not anything about the
	// request: the server answers it 503.
	Unavailable(err error) bool
	// PoolStats reports the use of the store's connection pools, by name.
	PoolStats() map[string]PoolStats
}
