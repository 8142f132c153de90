package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"net/http"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Signed links: quire hands out links that are served without a bearer token, the token in the
// link being the proof (PDF exports, the documents of private OpenAPI specifications). A token is
// a JWT (HS256) whose key is derived from the server secret for one kind of link alone, with that
// kind's audience, so no token of one kind can pass for another.

// linkKind is one kind of signed link.
type linkKind struct {
	audience string        // also names the key: audience + "/v1"
	ttl      time.Duration // how long a link is valid
	notFound string        // the answer to a token quire did not sign
	expired  string        // the answer to one that has expired
}

// linkMaxToken is the longest token read.
const linkMaxToken = 2048

// linkClaims is what a link grants: a kind's own claims with the registered ones in them.
type linkClaims interface {
	jwt.Claims
	registered() *jwt.RegisteredClaims
}

func (s *Server) linkKey(k linkKind) []byte {
	m := hmac.New(sha256.New, s.VisitorSecret)
	m.Write([]byte(k.audience + "/v1"))
	return m.Sum(nil)
}

// signLink returns the token of a link of kind k valid for its ttl from now.
func (s *Server) signLink(k linkKind, c linkClaims, now time.Time) (string, error) {
	*c.registered() = jwt.RegisteredClaims{Audience: jwt.ClaimStrings{k.audience},
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(k.ttl))}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.linkKey(k))
}

// readLink verifies a token of kind k into c: 404 for a token quire did not sign, 410 for one
// that has expired.
func (s *Server) readLink(k linkKind, token string, c linkClaims, now time.Time) error {
	notFound := &httpError{http.StatusNotFound, k.notFound}
	if len(token) > linkMaxToken {
		return notFound
	}
	// The signature first (the parser would judge the claims of a forged token before it), then
	// the claims: only a token quire signed can be told it has expired.
	if _, err := jwt.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return s.linkKey(k), nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithStrictDecoding(), jwt.WithoutClaimsValidation()); err != nil {
		return notFound
	}
	err := jwt.NewValidator(jwt.WithAudience(k.audience), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now })).Validate(c)
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return &httpError{http.StatusGone, k.expired}
	case err != nil:
		return notFound
	}
	return nil
}
