package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"strings"
	"time"
)

// User is an account; its tokens authenticate API calls.
type User struct {
	ID            string
	Email         string
	DisplayName   string
	PhotoURL      *string
	EmailVerified bool
	CreatedAt     time.Time
	// InstallationID is set when the caller is an integration installation acting through an
	// installation token (ID is then the installation's id too): it reaches only what its grant allows.
	InstallationID string
}

// TokenPrefix starts every API token quire issues.
const TokenPrefix = "gb_api_"

// HashToken is how tokens are stored and looked up: only the SHA-256 of a token is kept.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// EmailDomain is the part of the email after the @, lower-cased.
func (u *User) EmailDomain() string {
	at := strings.LastIndexByte(u.Email, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(u.Email[at+1:])
}

// NewToken returns a new API token: TokenPrefix and 32 random base62 characters.
func NewToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	out := make([]byte, 0, 43)
	for _, c := range b {
		out = append(out, IDAlphabet[int(c)%62])
	}
	return TokenPrefix + string(out)
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
	// FindUserSharingOrganization returns a user when they are the viewer or share an organization
	// with them (ENOTFOUND otherwise: a user of other organizations is not there for the viewer).
	FindUserSharingOrganization(ctx context.Context, userID, viewerID string) (*User, error)
	// FindOrganizationMemberUser returns a user who is a member of an organization (ENOTFOUND
	// otherwise).
	FindOrganizationMemberUser(ctx context.Context, orgID, userID string) (*User, error)
	// UpdateUser changes a user's profile: display name and photo URL (nil leaves one as it is).
	UpdateUser(ctx context.Context, id string, upd UserUpdate) (*User, error)
	// RevokeToken deletes the token with an id: it authenticates nothing from then on.
	RevokeToken(ctx context.Context, id string) error
	// TouchToken records that a token was used now.
	TouchToken(ctx context.Context, token string) error
}

// UserUpdate holds the profile fields to change; nil leaves a field as it is.
type UserUpdate struct {
	DisplayName *string
	PhotoURL    *string
}
