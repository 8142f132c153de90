package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/quire-docs/quire/store"
)

// CreateUser creates a user with a verified email and one API token, returned in clear this once.
func (s *Store) CreateUser(ctx context.Context, u *store.User) (token string, err error) {
	u.ID = store.NewID()
	u.Email = strings.TrimSpace(u.Email)
	u.EmailVerified = true
	token = store.NewToken()
	err = s.write(ctx, func(tx *Tx) error {
		u.CreatedAt = tx.now
		_, err := tx.ExecContext(ctx, `
			INSERT INTO users (id, email, display_name, photo_url, email_verified, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`,
			u.ID, u.Email, u.DisplayName, nullString(u.PhotoURL), u.EmailVerified, formatTime(tx.now))
		if err != nil {
			if s.d.uniqueViolation(err) {
				return store.Errorf(store.ECONFLICT, "A user with email %s already exists.", u.Email)
			}
			return fmt.Errorf("store: unable to create user: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, user_id, name, created_at) VALUES (?, ?, 'default', ?)`,
			store.HashToken(token), u.ID, formatTime(tx.now)); err != nil {
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

func scanUser(sc interface{ Scan(...any) error }, u *store.User, extra ...any) error {
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
func (s *Store) FindUserByToken(ctx context.Context, token string) (*store.User, time.Time, error) {
	var u store.User
	var used sql.NullString
	err := scanUser(s.reader.QueryRowContext(pointRead(ctx), `SELECT `+userColumns+`, t.last_used_at
		FROM tokens t JOIN users u ON u.id = t.user_id
		WHERE t.hash = ?`, store.HashToken(token)), &u, &used)
	if errors.Is(err, sql.ErrNoRows) {
		// Not a user's token: perhaps an installation's. Its last use is not tracked (it lives an
		// hour), so it reads as used now and is never touched.
		inst, err := s.findInstallationTokenUser(ctx, token)
		if err != nil {
			return nil, time.Time{}, err
		}
		return inst, s.Now(), nil
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

// FindUserSharingOrganization returns a user when they are the viewer or share an organization
// with them.
func (s *Store) FindUserSharingOrganization(ctx context.Context, userID, viewerID string) (*store.User, error) {
	var u store.User
	err := scanUser(s.reader.QueryRowContext(pointRead(ctx), `SELECT `+userColumns+` FROM users u
		WHERE u.id = ? AND (u.id = ? OR EXISTS (
			SELECT 1 FROM members a JOIN members b ON b.organization_id = a.organization_id
			WHERE a.user_id = u.id AND b.user_id = ?))`, userID, viewerID, viewerID), &u)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("User")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find user: %w", err)
	}
	return &u, nil
}

// FindOrganizationMemberUser returns a user who is a member of an organization.
func (s *Store) FindOrganizationMemberUser(ctx context.Context, orgID, userID string) (*store.User, error) {
	var u store.User
	err := scanUser(s.reader.QueryRowContext(pointRead(ctx), `SELECT `+userColumns+` FROM users u
		JOIN members m ON m.user_id = u.id AND m.organization_id = ?
		WHERE u.id = ?`, orgID, userID), &u)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("User")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find user: %w", err)
	}
	return &u, nil
}

// UpdateUser changes a user's profile.
func (s *Store) UpdateUser(ctx context.Context, id string, upd store.UserUpdate) (*store.User, error) {
	var u store.User
	err := s.write(ctx, func(tx *Tx) error {
		if upd.DisplayName != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET display_name = ? WHERE id = ?`, *upd.DisplayName, id); err != nil {
				return fmt.Errorf("store: unable to update user: %w", err)
			}
		}
		if upd.PhotoURL != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET photo_url = ? WHERE id = ?`, *upd.PhotoURL, id); err != nil {
				return fmt.Errorf("store: unable to update user: %w", err)
			}
		}
		err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users u WHERE u.id = ?`, id), &u)
		if errors.Is(err, sql.ErrNoRows) {
			return store.NotFound("User")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}
