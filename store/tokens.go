package store

import (
	"time"
)

// Token is an API token of a user, without its secret (only its hash is ever stored).
type Token struct {
	ID         string // the hex of the first 8 bytes of the token's SHA-256
	Name       string
	UserID     string
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// TokenTouchInterval is how stale a token's last-used time may get: a request refreshes it only
// when it is older, so the hot path writes at most once per interval per token.
const TokenTouchInterval = 5 * time.Minute
