package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/quire-docs/quire/store"
)

func sessionHash(id string) []byte {
	h := sha256.Sum256([]byte(id))
	return h[:]
}

// CreateSession opens a session of the app views for the user of an API token, bound to that
// token, and deletes the sessions that have expired.
func (s *Store) CreateSession(ctx context.Context, token string, ttl time.Duration) (string, *store.Session, error) {
	if ttl <= 0 {
		return "", nil, store.Errorf(store.EINVALID, "A session lasts a positive time.")
	}
	id := store.NewSessionID()
	tokenHash := store.HashToken(token)
	out := &store.Session{TokenID: tokenID(tokenHash)}
	err := s.write(ctx, func(tx *Tx) error {
		err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+`
			FROM tokens t JOIN users u ON u.id = t.user_id
			WHERE t.hash = ?`, tokenHash), &out.User)
		if errors.Is(err, sql.ErrNoRows) {
			return store.NotFound("Token")
		} else if err != nil {
			return fmt.Errorf("store: unable to find token: %w", err)
		}
		if _, err := purgeExpiredSessions(ctx, tx); err != nil {
			return err
		}
		out.CreatedAt, out.ExpiresAt = tx.now, tx.now.Add(ttl)
		if _, err := tx.ExecContext(ctx, `INSERT INTO app_sessions (hash, user_id, token_hash, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`, sessionHash(id), out.User.ID, tokenHash, formatTime(out.CreatedAt), formatTime(out.ExpiresAt)); err != nil {
			return fmt.Errorf("store: unable to create session: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	return id, out, nil
}

// FindSession returns the live session with an id: a primary-key read joined to its user on
// theirs. A row past its expiry is not a session, whether or not it has been deleted yet.
func (s *Store) FindSession(ctx context.Context, id string) (*store.Session, error) {
	if id == "" {
		return nil, store.NotFound("Session")
	}
	out := &store.Session{}
	var tokenHash []byte
	var created, expires string
	err := scanUser(s.reader.QueryRowContext(pointRead(ctx), `SELECT `+userColumns+`, a.token_hash, a.created_at, a.expires_at
		FROM app_sessions a JOIN users u ON u.id = a.user_id
		WHERE a.hash = ?`, sessionHash(id)), &out.User, &tokenHash, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Session")
	} else if err != nil {
		return nil, fmt.Errorf("store: unable to find session: %w", err)
	}
	out.TokenID, out.CreatedAt, out.ExpiresAt = tokenID(tokenHash), parseTime(created), parseTime(expires)
	if !s.Now().Before(out.ExpiresAt) {
		return nil, store.NotFound("Session")
	}
	return out, nil
}

// DeleteSession ends a session; ending a missing one is no error.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM app_sessions WHERE hash = ?`, sessionHash(id)); err != nil {
			return fmt.Errorf("store: unable to delete session: %w", err)
		}
		return nil
	})
}

// PurgeExpiredSessions deletes the sessions past their expiry (the hourly purge job's sweep).
func (s *Store) PurgeExpiredSessions(ctx context.Context) (int, error) {
	var n int
	err := s.write(ctx, func(tx *Tx) error {
		var err error
		n, err = purgeExpiredSessions(ctx, tx)
		return err
	})
	return n, err
}

func purgeExpiredSessions(ctx context.Context, tx *Tx) (int, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM app_sessions WHERE expires_at <= ?`, formatTime(tx.now))
	if err != nil {
		return 0, fmt.Errorf("store: unable to drop expired sessions: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
