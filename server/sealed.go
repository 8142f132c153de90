package server

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
)

// Integration secrets (the `secrets` of a publish, each integration's signing secret) are kept
// sealed: AES-256-GCM under a key derived from the server secret stored in the settings table
// (the visitor secret, with its own label, so neither key can stand for the other).
func (s *Server) sealKey() []byte { return sealKey(s.VisitorSecret) }

func sealKey(serverSecret []byte) []byte {
	m := hmac.New(sha256.New, serverSecret)
	m.Write([]byte("quire integration secrets v1"))
	return m.Sum(nil)
}

// seal encrypts a secret: base64 of nonce || ciphertext.
func (s *Server) seal(plain []byte) (string, error) {
	block, err := aes.NewCipher(s.sealKey())
	if err != nil {
		return "", err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, gcm.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(gcm.Seal(nonce, nonce, plain, nil)), nil
}

// unseal decrypts what seal made.
func (s *Server) unseal(sealed string) ([]byte, error) { return Unseal(s.VisitorSecret, sealed) }

// Unseal decrypts a secret sealed by a server with this server secret (the visitor secret of the
// settings table): how `quire integrations signing-secret` shows an integration's signing secret.
func Unseal(serverSecret []byte, sealed string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil {
		return nil, fmt.Errorf("server: sealed secret: %w", err)
	}
	block, err := aes.NewCipher(sealKey(serverSecret))
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	if len(raw) < gcm.NonceSize() {
		return nil, errors.New("server: sealed secret too short")
	}
	return gcm.Open(nil, raw[:gcm.NonceSize()], raw[gcm.NonceSize():], nil)
}

// signingSecret returns the secret an integration's deliveries are signed with, in clear.
func (s *Server) signingSecret(sealed string) (string, error) {
	b, err := s.unseal(sealed)
	return string(b), err
}
