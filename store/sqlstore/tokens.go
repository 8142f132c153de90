package sqlstore

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/quire-docs/quire/store"
)

func tokenID(hash []byte) string { return hex.EncodeToString(hash[:8]) }

// CreateToken issues another token for the user with an email, returned in clear this once.
func (s *Store) CreateToken(ctx context.Context, email, name string) (string, *store.Token, error) {
	token := store.NewToken()
	hash := store.HashToken(token)
	t := &store.Token{ID: tokenID(hash), Name: strings.TrimSpace(name)}
	if t.Name == "" {
		t.Name = "default"
	}
	err := s.write(ctx, func(tx *Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE email = ? COLLATE NOCASE`,
			strings.TrimSpace(email)).Scan(&t.UserID); errors.Is(err, sql.ErrNoRows) {
			return store.NotFound("User")
		} else if err != nil {
			return fmt.Errorf("store: unable to find user: %w", err)
		}
		t.CreatedAt = tx.now
		if _, err := tx.ExecContext(ctx, `INSERT INTO tokens (hash, user_id, name, created_at) VALUES (?, ?, ?, ?)`,
			hash, t.UserID, t.Name, formatTime(tx.now)); err != nil {
			return fmt.Errorf("store: unable to create token: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	return token, t, nil
}

// FindTokens lists the tokens of the user with an email, oldest first.
func (s *Store) FindTokens(ctx context.Context, email string) ([]*store.Token, error) {
	return queryAll(ctx, s.reader, "tokens", `SELECT t.hash, t.name, t.user_id, t.created_at, t.last_used_at
		FROM tokens t JOIN users u ON u.id = t.user_id
		WHERE u.email = ? COLLATE NOCASE ORDER BY t.created_at, t.hash`, []any{strings.TrimSpace(email)}, fill(func(sc scanner, t *store.Token) error {
		var hash []byte
		var created string
		var used sql.NullString
		if err := sc.Scan(&hash, &t.Name, &t.UserID, &created, &used); err != nil {
			return err
		}
		t.ID, t.CreatedAt, t.LastUsedAt = tokenID(hash), parseTime(created), parseNullTime(used)
		return nil
	}))
}

// RevokeToken deletes the token with an id: it authenticates nothing from then on.
func (s *Store) RevokeToken(ctx context.Context, id string) error {
	prefix, err := hex.DecodeString(id)
	if err != nil || len(prefix) != 8 {
		return store.Errorf(store.EINVALID, "A token id is 16 hexadecimal characters.")
	}
	// The hashes starting with the prefix are the range [prefix, prefix+1): the primary key's index.
	lo := append(prefix, make([]byte, 24)...)
	hi := append(append([]byte{}, prefix...), bytesOf(0xff, 24)...)
	return s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE hash BETWEEN ? AND ?`, lo, hi)
		if err != nil {
			return fmt.Errorf("store: unable to revoke token: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return store.NotFound("Token")
		}
		return nil
	})
}

func bytesOf(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// TouchToken records that a token was used now.
func (s *Store) TouchToken(ctx context.Context, token string) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE tokens SET last_used_at = ? WHERE hash = ?`,
			formatTime(tx.now), store.HashToken(token)); err != nil {
			return fmt.Errorf("store: unable to record token use: %w", err)
		}
		return nil
	})
}
