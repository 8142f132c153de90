package sqlite

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
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

// EmailDomain is the part of the email after the @, lower-cased.
func (u *User) EmailDomain() string {
	at := strings.LastIndexByte(u.Email, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(u.Email[at+1:])
}

// TokenPrefix starts every API token quire issues.
const TokenPrefix = "gb_api_"

// HashToken is how tokens are stored and looked up: only the SHA-256 of a token is kept.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

func newToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	out := make([]byte, 0, 43)
	for _, c := range b {
		out = append(out, idAlphabet[int(c)%62])
	}
	return TokenPrefix + string(out)
}

// CreateUser creates a user with a verified email and one API token, returned in clear this once.
func (s *Store) CreateUser(ctx context.Context, u *User) (token string, err error) {
	u.ID = NewID()
	u.Email = strings.TrimSpace(u.Email)
	u.EmailVerified = true
	token = newToken()
	err = s.write(ctx, func(tx *Tx) error {
		u.CreatedAt = tx.now
		_, err := tx.ExecContext(ctx, `
			INSERT INTO users (id, email, display_name, photo_url, email_verified, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`,
			u.ID, u.Email, u.DisplayName, nullString(u.PhotoURL), u.EmailVerified, formatTime(tx.now))
		if err != nil {
			var se sqlite3.Error
			if errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique {
				return Errorf(ECONFLICT, "A user with email %s already exists.", u.Email)
			}
			return fmt.Errorf("store: unable to create user: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, user_id, name, created_at) VALUES (?, ?, 'default', ?)`,
			HashToken(token), u.ID, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to create token: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

const userColumns = `u.id, u.email, u.display_name, u.photo_url, u.email_verified, u.created_at`

func scanUser(sc interface{ Scan(...any) error }, u *User, extra ...any) error {
	var photo sql.NullString
	var created string
	dest := append([]any{&u.ID, &u.Email, &u.DisplayName, &photo, &u.EmailVerified, &created}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return err
	}
	u.PhotoURL = stringPtr(photo)
	u.CreatedAt = parseTime(created)
	return nil
}

// FindUserByToken returns the user a bearer token belongs to and when the token was last used
// (zero: never). The lookup is by the token's SHA-256, an indexed equality on a value an attacker
// cannot choose, so it leaks no timing about other tokens.
func (s *Store) FindUserByToken(ctx context.Context, token string) (*User, time.Time, error) {
	var u User
	var used sql.NullString
	err := scanUser(s.reader.QueryRowContext(pointRead(ctx), `SELECT `+userColumns+`, t.last_used_at
		FROM tokens t JOIN users u ON u.id = t.user_id
		WHERE t.hash = ?`, HashToken(token)), &u, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, notFound("Token")
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("store: unable to find token: %w", err)
	}
	var lastUsed time.Time
	if used.Valid {
		lastUsed = parseTime(used.String)
	}
	return &u, lastUsed, nil
}
