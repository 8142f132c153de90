package access

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/store"
)

// A site token is the `apiToken` resolvePublishedContentByUrl answers: an HS256 JWT, signed with
// a key kept in the settings table (site_token_key, made on first use, so every node of a
// PostgreSQL deployment signs and checks with the same one), that a renderer uses as its bearer
// to read one published site as one visitor sees it (the API issues it: server/urls.go). It lives siteTokenTTL. Its claims follow
// GitBook's SiteAPIToken: kind "site", the site, site section, site space and space resolved,
// the organization, the spaces of the site the visitor sees, the visitor's type and claims.
//
// What it opens is decided here and only here: siteTokenOperations lists the operations it may
// call (reads of the site's published content), and CheckSiteTokenCall checks each call's resources
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

// siteTokenOperations are the operations a site token may call. getDocumentById is not one: a
// document is found by its id in any of the space's change requests too, which are not published.
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
	"getReusableContentInRevisionById":         true,
	"getReusableContentDocumentInRevisionById": true,
	"getReusableContentById":                   true,
	"getComputedDocument":                      true,
	"getComputedRevision":                      true,
	"getEmbedByUrlInSpace":                     true,
	// The OpenAPI specifications its pages show (openapi-operation blocks name them by slug).
	"getLatestOpenAPISpecVersionContent": true,
	// The authors and users the content names, as members of the site's organization.
	"getUserById": true,
}

// SiteToken is a site token's claims.
type SiteToken struct {
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

// Unauthenticated is a refusal of the caller's credentials themselves (the API answers 401).
type Unauthenticated struct{ Reason string }

func (e *Unauthenticated) Error() string { return e.Reason }

// siteTokenKey returns the key site tokens are signed with, making it on first use.
func (r *Rules) siteTokenKey(ctx context.Context) ([]byte, error) {
	r.siteKey.mu.Lock()
	defer r.siteKey.mu.Unlock()
	if r.siteKey.key != nil {
		return r.siteKey.key, nil
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	v, err := r.Store.EnsureSetting(ctx, siteTokenSetting, hex.EncodeToString(b[:]))
	if err != nil {
		return nil, err
	}
	r.siteKey.key = []byte(v)
	return r.siteKey.key, nil
}

// IssueSiteToken signs a site token for claims, valid from now for siteTokenTTL.
func (r *Rules) IssueSiteToken(ctx context.Context, c SiteToken) (string, error) {
	key, err := r.siteTokenKey(ctx)
	if err != nil {
		return "", err
	}
	now := r.Store.Now()
	c.Kind = siteTokenKind
	c.RegisteredClaims = jwt.RegisteredClaims{Issuer: siteTokenIssuer, Subject: c.Site,
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(siteTokenTTL))}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(key)
}

// LooksLikeSiteToken tells a JWT from quire's other bearer tokens (gb_api_…), without checking it.
func LooksLikeSiteToken(token string) bool {
	return strings.HasPrefix(token, "eyJ") && strings.Count(token, ".") == 2
}

type siteTokenCtxKey struct{}

// SiteTokenOf returns the site token a request authenticated with (nil for any other caller).
func SiteTokenOf(ctx context.Context) *SiteToken {
	c, _ := ctx.Value(siteTokenCtxKey{}).(*SiteToken)
	return c
}

// SiteTokenCaller checks a site token and returns the context its request runs in, holding the
// token's claims and the caller it acts as; an *Unauthenticated error when the token is refused.
func (r *Rules) SiteTokenCaller(ctx context.Context, token string) (context.Context, error) {
	key, err := r.siteTokenKey(ctx)
	if err != nil {
		return nil, err
	}
	claims := &SiteToken{}
	_, err = jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(siteTokenIssuer),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(r.Store.Now))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, &Unauthenticated{"The site token has expired: resolve the site's URL again for a new one."}
	case err != nil || claims.Kind != siteTokenKind || claims.Site == "" || claims.Organization == "":
		return nil, &Unauthenticated{"The token is not valid."}
	}
	u := &store.User{ID: "site:" + claims.Site, DisplayName: "Site " + claims.Site}
	ctx = context.WithValue(ctx, siteTokenCtxKey{}, claims)
	return WithCaller(ctx, u), nil
}

// CheckSiteTokenCall decides whether a site token may call the operation op with the path
// parameters param names: only siteTokenOperations (403 otherwise), on its own organization, site
// and spaces and a space's current revision (404 otherwise), while its site is published (401
// otherwise). It answers the context the handler runs in: a reader of the site's organization.
func (r *Rules) CheckSiteTokenCall(ctx context.Context, t *SiteToken, op string, param func(name string) string) (context.Context, error) {
	if !siteTokenOperations[op] {
		return nil, forbidden("A site token cannot call " + op + ".")
	}
	site, err := r.Store.FindSite(ctx, t.Site)
	if store.ErrorCode(err) == store.ENOTFOUND || err == nil && !site.Published {
		return nil, &Unauthenticated{"The site token's site is not published any more."}
	}
	if err != nil {
		return nil, err
	}
	if org := param("organizationId"); org != "" && org != t.Organization {
		return nil, store.NotFound("Organization")
	}
	if id := param("siteId"); id != "" && id != t.Site {
		return nil, store.NotFound("Site")
	}
	if id := param("spaceId"); id != "" {
		if !slices.Contains(t.Spaces, id) {
			return nil, store.NotFound("Space")
		}
		if rev := param("revisionId"); rev != "" {
			sp, err := r.Store.FindSpace(ctx, id)
			if err != nil {
				return nil, err
			}
			if sp.RevisionID != rev {
				return nil, store.Errorf(store.ENOTFOUND, "A site token reads a space's current revision only.")
			}
		}
	}
	if slug := param("specSlug"); slug != "" {
		if err := r.siteShowsSpec(ctx, t, slug); err != nil {
			return nil, err
		}
	}
	return WithGrant(ctx, &Granted{InstallationGrant: &store.InstallationGrant{OrganizationID: t.Organization}, Role: store.RoleRead}), nil
}

// siteShowsSpec answers nil when a page of the current revision of one of the token's spaces
// links to the organization's specification with a slug (a block showing part of it), and
// otherwise the 404 of a specification that is not there: a site token reads the specifications
// its site shows, not the organization's others.
func (r *Rules) siteShowsSpec(ctx context.Context, t *SiteToken, slug string) error {
	for _, id := range t.Spaces {
		sp, err := r.Store.FindSpace(ctx, id)
		if store.ErrorCode(err) == store.ENOTFOUND {
			continue
		}
		if err != nil {
			return err
		}
		if sp.RevisionID == "" || sp.OrganizationID != t.Organization {
			continue
		}
		pages, err := r.Store.FindBacklinks(ctx, sp.RevisionID, "openapi", slug, store.Page{Limit: 1})
		if err != nil {
			return err
		}
		if len(pages.Items) > 0 {
			return nil
		}
	}
	return store.NotFound("OpenAPI specification")
}
