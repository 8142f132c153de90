package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/server/access"
	"github.com/quire-docs/quire/store"
)

// A site token is the `apiToken` resolvePublishedContentByUrl answers: an HS256 JWT, signed with
// a key kept in the settings table (site_token_key, made on first use, so every node of a
// PostgreSQL deployment signs and checks with the same one), that a renderer uses as its bearer
// to read one published site as one visitor sees it. It lives siteTokenTTL. Its claims follow
// GitBook's SiteAPIToken: kind "site", the site, site section, site space and space resolved,
// the organization, the spaces of the site the visitor sees, the visitor's type and claims.
//
// What it opens is decided here and only here: siteTokenOperations lists the operations it may
// call (reads of the site's published content), and siteTokenGate checks each call's resources
// against the token: the organization, the site, a space among the token's spaces, and a
// revision that is that space's current one. Anything else is a 404 (another site, space or
// organization), a 403 (an operation not listed: every write), or a 401 (expired, not signed by
// this server, or a site no longer published). The handlers then run as for a reader of the
// organization (the grant gives the read role there), so the access rules need no case of their own.

const (
	siteTokenTTL     = time.Hour
	siteTokenIssuer  = "quire"
	siteTokenKind    = "site"
	siteTokenSetting = "site_token_key"
)

// siteTokenOperations are the operations a site token may call. The revision-pinned reads a
// renderer makes are named here as they are added to openapi.yaml.
var siteTokenOperations = map[string]bool{
	// The site as published.
	"getPublishedContentSite": true,
	"searchSiteContent":       true,
	"prewarmSiteSearch":       true,
	"getSiteRedirectBySource": true,
	"trackEventsInSiteById":   true,
	// Its spaces' current content.
	"getSpaceById":           true,
	"getCurrentRevision":     true,
	"listPages":              true,
	"getPageById":            true,
	"getPageByPath":          true,
	"listFiles":              true,
	"getFileById":            true,
	"searchSpaceContent":     true,
	"listPageLinksInSpace":   true,
	"listSpacePageBacklinks": true,
	// The same, pinned to the current revision (the "revisions" work adds them to the spec).
	"getRevisionById":                          true,
	"listPagesInRevisionById":                  true,
	"getPageInRevisionById":                    true,
	"getPageInRevisionByPath":                  true,
	"getPageDocumentInRevisionById":            true,
	"listRevisionPageMetaLinks":                true,
	"listFilesInRevisionById":                  true,
	"getFileInRevisionById":                    true,
	"getDocumentById":                          true,
	"getReusableContentInRevisionById":         true,
	"getReusableContentDocumentInRevisionById": true,
	"getReusableContentById":                   true,
	"getComputedDocument":                      true,
	"getComputedRevision":                      true,
	"getEmbedByUrlInSpace":                     true,
	// The authors and users the content names, as members of the site's organization.
	"getUserById": true,
}

// siteTokenClaims are a site token's claims.
type siteTokenClaims struct {
	Kind         string         `json:"kind"`
	Organization string         `json:"organization"`
	Site         string         `json:"site"`
	SiteSection  string         `json:"siteSection,omitempty"`
	SiteSpace    string         `json:"siteSpace"`
	Space        string         `json:"space"`
	Spaces       []string       `json:"spaces"`
	VisitorType  string         `json:"visitorType,omitempty"`
	Claims       map[string]any `json:"claims,omitempty"`
	jwt.RegisteredClaims
}

// siteTokenKey returns the key site tokens are signed with, making it on first use.
func (s *Server) siteTokenKey(ctx context.Context) ([]byte, error) {
	s.siteKeys.mu.Lock()
	defer s.siteKeys.mu.Unlock()
	if s.siteKeys.key != nil {
		return s.siteKeys.key, nil
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	v, err := s.Store.EnsureSetting(ctx, siteTokenSetting, hex.EncodeToString(b[:]))
	if err != nil {
		return nil, err
	}
	s.siteKeys.key = []byte(v)
	return s.siteKeys.key, nil
}

// issueSiteToken signs a site token for claims, valid from now for siteTokenTTL.
func (s *Server) issueSiteToken(ctx context.Context, c siteTokenClaims) (string, error) {
	key, err := s.siteTokenKey(ctx)
	if err != nil {
		return "", err
	}
	now := s.Store.Now()
	c.Kind = siteTokenKind
	c.RegisteredClaims = jwt.RegisteredClaims{Issuer: siteTokenIssuer, Subject: c.Site,
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(siteTokenTTL))}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(key)
}

// looksLikeSiteToken tells a JWT from quire's other bearer tokens (gb_api_…), without checking it.
func looksLikeSiteToken(token string) bool {
	return strings.HasPrefix(token, "eyJ") && strings.Count(token, ".") == 2
}

type siteTokenKey struct{}

// siteToken returns the site token a request authenticated with (nil for any other caller).
func siteToken(ctx context.Context) *siteTokenClaims {
	c, _ := ctx.Value(siteTokenKey{}).(*siteTokenClaims)
	return c
}

// siteTokenCaller checks a site token and returns the context its request runs in, holding the
// token's claims and the caller it acts as; the error is the 401 to answer.
func (s *Server) siteTokenCaller(ctx context.Context, token string) (context.Context, error) {
	key, err := s.siteTokenKey(ctx)
	if err != nil {
		return nil, err
	}
	claims := &siteTokenClaims{}
	_, err = jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(siteTokenIssuer),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(s.Store.Now))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, &httpError{http.StatusUnauthorized, "The site token has expired: resolve the site's URL again for a new one."}
	case err != nil || claims.Kind != siteTokenKind || claims.Site == "" || claims.Organization == "":
		return nil, &httpError{http.StatusUnauthorized, "The token is not valid."}
	}
	u := &store.User{ID: "site:" + claims.Site, DisplayName: "Site " + claims.Site}
	ctx = context.WithValue(ctx, siteTokenKey{}, claims)
	return access.WithCaller(ctx, u), nil
}

// siteTokenGate lets a site token call only siteTokenOperations, on its own site's resources;
// operations maps "METHOD /echo/path" to operation ids.
func (s *Server) siteTokenGate(operations map[string]string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			t := siteToken(ctx)
			if t == nil {
				return next(c)
			}
			op, known := operations[c.Request().Method+" "+c.Path()]
			if !known {
				return next(c) // no such API path: its 404
			}
			if !siteTokenOperations[op] {
				return &httpError{http.StatusForbidden, "A site token cannot call " + op + "."}
			}
			site, err := s.Store.FindSite(ctx, t.Site)
			if store.ErrorCode(err) == store.ENOTFOUND || err == nil && !site.Published {
				return &httpError{http.StatusUnauthorized, "The site token's site is not published any more."}
			}
			if err != nil {
				return err
			}
			if org := c.Param("organizationId"); org != "" && org != t.Organization {
				return store.Errorf(store.ENOTFOUND, "Organization not found.")
			}
			if id := c.Param("siteId"); id != "" && id != t.Site {
				return store.Errorf(store.ENOTFOUND, "Site not found.")
			}
			if id := c.Param("spaceId"); id != "" {
				if !slices.Contains(t.Spaces, id) {
					return store.Errorf(store.ENOTFOUND, "Space not found.")
				}
				if rev := c.Param("revisionId"); rev != "" {
					sp, err := s.Store.FindSpace(ctx, id)
					if err != nil {
						return err
					}
					if sp.RevisionID != rev {
						return store.Errorf(store.ENOTFOUND, "A site token reads a space's current revision only.")
					}
				}
			}
			// The handlers resolve roles as for a reader of the site's organization.
			ctx = access.WithGrant(ctx, &access.Granted{InstallationGrant: &store.InstallationGrant{OrganizationID: t.Organization}, Role: store.RoleRead})
			c.SetRequest(c.Request().WithContext(ctx))
			return next(c)
		}
	}
}
