package store

import (
	"context"
	"time"
)

// SAMLProvider is an identity provider an organization's people sign in through (SAML 2.0,
// HTTP-Redirect binding out, HTTP-POST binding back).
type SAMLProvider struct {
	ID             string
	OrganizationID string
	Label          string
	// EntityID is the identity provider's entity id: the Issuer its Responses must carry.
	EntityID string
	// Certificate is the identity provider's signing certificate as the admin gave it (PEM or the
	// bare base64 body); Responses must be signed with its key.
	Certificate string
	// SSOURL is where the identity provider takes AuthnRequests.
	SSOURL string
	// DefaultTeam is the team members created by a login join (nil: none, or it was deleted).
	DefaultTeam *Team
	// DefaultRole is the role members created by a login get (RoleGuest: none).
	DefaultRole Role
	CreatedAt   time.Time
}

// SAMLProviderCreate is what a new provider is made of.
type SAMLProviderCreate struct {
	Label, EntityID, Certificate, SSOURL string
	DefaultTeamID                        string // "" for none
	// DefaultRole is the role of members a login creates; nil takes the organization's default.
	DefaultRole *Role
}

// SAMLProviderUpdate changes the fields that are not nil. DefaultTeamID "" clears the team.
type SAMLProviderUpdate struct {
	Label, EntityID, Certificate, SSOURL *string
	DefaultTeamID                        *string
	DefaultRole                          *Role
}

// SAMLAssertion is what quire keeps of an assertion a provider's signature vouched for.
type SAMLAssertion struct {
	// ID is the assertion's id: accepted once per provider.
	ID string
	// ExpiresAt is when the assertion could no longer be accepted anyway; its id is kept until then.
	ExpiresAt   time.Time
	Email       string
	DisplayName string
}

// SSOLogin is the outcome of a login through a provider.
type SSOLogin struct {
	Member *Member
	// Token is a new API token of the member's user, in clear this once.
	Token       string
	UserCreated bool
	// Joined is true when the login made the user a member of the organization.
	Joined bool
}

// SSO are organizations' SAML providers and the logins through them.
type SSO interface {
	// CreateSAMLProvider adds a provider to an organization (EINVALID naming defaultTeam when the
	// team is not the organization's) and turns the organization's sso flag on.
	CreateSAMLProvider(ctx context.Context, orgID string, c SAMLProviderCreate) (*SAMLProvider, error)
	// DeleteSAMLProvider deletes a provider; deleting a missing one is no error.
	DeleteSAMLProvider(ctx context.Context, orgID string, id string) error
	// FindSAMLProvider returns a provider of an organization.
	FindSAMLProvider(ctx context.Context, orgID string, id string) (*SAMLProvider, error)
	// FindSAMLProviderByID returns a provider whatever its organization: the login URLs name only it.
	FindSAMLProviderByID(ctx context.Context, id string) (*SAMLProvider, error)
	// FindSAMLProviders lists an organization's providers, oldest first.
	FindSAMLProviders(ctx context.Context, orgID string, p Page) (List[*SAMLProvider], error)
	// LoginWithSAML consumes a verified assertion of a provider, in one transaction: its id is
	// recorded (ECONFLICT when it was already, and then nothing else changes); the user with its
	// email is created, or found when already a member of the provider's organization (EFORBIDDEN
	// for an account outside it: an organization's IdP must not take over other accounts); the
	// user becomes an SSO member (a new member gets the provider's default role and team; an
	// existing one keeps their role); and a new API token is issued.
	LoginWithSAML(ctx context.Context, providerID string, a SAMLAssertion) (*SSOLogin, error)
	// UpdateSAMLProvider applies an update to a provider.
	UpdateSAMLProvider(ctx context.Context, orgID string, id string, upd SAMLProviderUpdate) (*SAMLProvider, error)
}
