package store

import (
	"context"
	"time"
)

// The kinds of content a role can be granted on.
const (
	GrantSpace      = "space"
	GrantCollection = "collection"
	GrantSite       = "site"
)

// GrantTarget names the content a grant is on: a space, a collection or a site of an
// organization.
type GrantTarget struct {
	Kind           string
	ID             string
	OrganizationID string
}

// UserGrant is a role granted to a user on a target.
type UserGrant struct {
	User User
	Role Role
}

// TeamGrant is a role granted to a team on a target; it applies to the team's members.
type TeamGrant struct {
	Team Team
	Role Role
}

// Grants maps content ids (spaces, collections, sites) to the strongest role a user was granted
// on each, directly or through one of their teams.
type Grants map[string]Role

// Raise raises the role granted on id to r when r is stronger.
func (g Grants) Raise(id string, r Role) {
	g[id] = g[id].Max(r)
}

// MemberAccess is a member of an organization (or a guest of it), with the roles granted to them
// on the targets asked about.
type MemberAccess struct {
	User       User
	OrgRole    Role
	Disabled   bool
	JoinedAt   time.Time
	LastSeenAt *time.Time
	Grants     Grants // the strongest of their own grants and their teams' on each target
	Direct     Grants // their own grants
	// TeamGrants holds, by target, the team whose grant is the strongest of their teams'.
	TeamGrants map[string]string
}

// Permissions are the roles granted on content to members and teams (issue 28).
type Permissions interface {
	// GrantAccess gives role on a target to users and teams, replacing what they had there; role
	// "" removes their grants. All or nothing: each user must be a member (or guest) of the
	// target's organization and each team one of its teams, else ENOTFOUND naming the first that
	// is not, and nothing changes.
	GrantAccess(ctx context.Context, t GrantTarget, userIDs, teamIDs []string, role Role) error
	// RevokeAccess removes a user's (userID set) or a team's (teamID set) grant on a target and
	// reports whether there was one.
	RevokeAccess(ctx context.Context, t GrantTarget, userID, teamID string) (bool, error)
	// FindUserGrants lists the users granted a role on a target, oldest grant first.
	FindUserGrants(ctx context.Context, t GrantTarget, p Page) (List[*UserGrant], error)
	// FindTeamGrants lists the teams granted a role on a target, oldest grant first (callerID as
	// in FindTeam).
	FindTeamGrants(ctx context.Context, t GrantTarget, callerID string, p Page) (List[*TeamGrant], error)
	// GrantsForUser returns what a user was granted on an organization's content, directly or
	// through their teams, in one query. The answer may be shared with other callers: read it,
	// never change it.
	GrantsForUser(ctx context.Context, orgID, userID string) (Grants, error)
	// MembersAccess returns every member of an organization (only those in the team teamID when
	// set) with what each was granted on the targets (directly or through teams), ordered by user
	// id, in one query.
	MembersAccess(ctx context.Context, orgID string, targetIDs []string, teamID string) ([]*MemberAccess, error)
}

// Visible narrows a list of an organization's spaces or collections to those one person reads;
// nil reads them all (an admin, an installation). The server's access rules build it from the
// same collection levels and grants they resolve one item with, so a list shows exactly what
// reading each item allows.
type Visible struct {
	// Granted is content granted to the person: read whatever its level.
	Granted []string
	// Under is the collections whose children the person reads whatever their level: those
	// granted to them and every collection below one.
	Under []string
	// Member: the person holds an organization role, so content whose default level is set reads,
	// as does `inherit` at the top level or under a collection of Open.
	Member bool
	// Open is the collections an `inherit` child takes a level (not null) from.
	Open []string
}
