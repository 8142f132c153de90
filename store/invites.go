package store

import (
	"context"
	"time"
)

// Invite is an invitation to join an organization with a role: a link (Email nil), which anyone
// holding it may use while the organization allows invite links, or an invitation sent to one
// email address, which only the user of that address may use, once, before it expires.
type Invite struct {
	ID             string
	OrganizationID string
	Role           Role // RoleGuest ("") invites a guest; with a Target, the level granted on it
	// Target is the space or collection a link invites to (Kind GrantSpace or GrantCollection);
	// its zero value invites to the organization.
	Target    GrantTarget
	Email     *string
	SSO       bool // who joins with it becomes an SSO user of the organization
	CreatedBy string
	ExpiresAt *time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

// EmailInvite is one address invited, with its role.
type EmailInvite struct {
	Email string
	Role  Role
	SSO   bool // the member is (or becomes, on joining) an SSO user
}

// EmailInvites is what inviting by email did: the users of known addresses added to the
// organization at once, and the invitations made for the other addresses.
type EmailInvites struct {
	Added   []*User
	Invites []*Invite
}

// Invites are the invitations to organizations.
type Invites interface {
	// CreateInvite makes an invite link, to the organization (target's zero value) or to one of
	// its spaces or collections (ENOTFOUND when the organization has no such content).
	CreateInvite(ctx context.Context, orgID, byUserID string, role Role, target GrantTarget) (*Invite, error)
	// FindInvites lists an organization's invite links, oldest first.
	FindInvites(ctx context.Context, orgID string, p Page) (List[*Invite], error)
	// FindInvite returns an invite link of an organization.
	FindInvite(ctx context.Context, orgID, id string) (*Invite, error)
	// FindInvitation returns an invitation of an organization of either kind, a link or one sent
	// by email: what its holder sees before joining (the app's invitation page).
	FindInvitation(ctx context.Context, orgID, id string) (*Invite, error)
	// UpdateInvite changes the role an invite link gives.
	UpdateInvite(ctx context.Context, orgID, id string, role Role) (*Invite, error)
	// DeleteInvite deletes an invitation of an organization; deleted is false when there was none.
	DeleteInvite(ctx context.Context, orgID, id string) (deleted bool, err error)
	// InviteByEmail adds the users of known addresses who are not yet members, with their roles,
	// and makes an invitation valid for ttl for each other address (replacing an unused one made
	// before for it), in one transaction.
	InviteByEmail(ctx context.Context, orgID, byUserID string, invites []EmailInvite, ttl time.Duration) (*EmailInvites, error)
	// JoinWithInvite makes u a member with the invitation's role (a member already keeps theirs);
	// a link to content makes u a guest (a member stays one) granted its level there, keeping a
	// stronger grant u holds (ENOTFOUND when the content is gone).
	// Refused, changing nothing: a link while the organization has turned invite links off
	// (EFORBIDDEN), an invitation for another address or an unverified one (EFORBIDDEN), used
	// (ECONFLICT) or expired (ECONFLICT).
	JoinWithInvite(ctx context.Context, orgID, inviteID string, u *User) error
}
