package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"time"
)

// Session is a browser signed in to the app views. It lives in the store, not in the cookie, so
// it can be ended before it expires: signing out deletes it, and revoking the API token it signed
// in with (or deleting its user) deletes it too. Only the SHA-256 of its id is stored; the id
// itself is the cookie's value.
type Session struct {
	User User
	// TokenID is the id (as Token.ID) of the API token the session signed in with.
	TokenID   string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Sessions are the app views' sessions.
type Sessions interface {
	// CreateSession opens a session for ttl for the user of an API token (a user's token: an
	// installation's, or an unknown one, is ENOTFOUND) and returns its id in clear this once.
	// Sessions past their expiry are deleted on the way.
	CreateSession(ctx context.Context, token string, ttl time.Duration) (string, *Session, error)
	// DeleteSession ends the session with an id; ending a missing one is no error.
	DeleteSession(ctx context.Context, id string) error
	// FindSession returns the live session with an id and its user: one indexed read. ENOTFOUND
	// when there is none, it expired, or its token was revoked.
	FindSession(ctx context.Context, id string) (*Session, error)
	// PurgeExpiredSessions deletes the sessions past their expiry and answers how many.
	PurgeExpiredSessions(ctx context.Context) (int, error)
}

// NewSessionID returns a session id: 32 bytes from crypto/rand, base64url (43 characters).
func NewSessionID() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}
