package store

import (
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
