package store

import (
	"context"
	"time"
)

// How visitors get into a site: share links (named keys that open a share-link site while
// active, beside the site's own key) and visitor authentication (the key a site's visitor tokens
// are signed with).

// SiteShareLink is a named key that opens a share-link site while Active.
type SiteShareLink struct {
	ID        string
	SiteID    string
	Key       string
	Name      string
	Active    bool
	CreatedAt time.Time
}

// SiteShareLinkUpdate holds the fields to change; nil leaves a field as it is.
type SiteShareLinkUpdate struct {
	Name   *string
	Active *bool
}

// SitePublishingAuth is how a site authenticates its visitors: Backend "custom" (tokens the
// owner's backend signs with PrivateKey) or "integration"; the fallback and logout URLs are
// where a visitor without a valid token, or one signing out, is sent.
type SitePublishingAuth struct {
	SiteID      string
	Backend     string
	PrivateKey  string
	FallbackURL *string
	LogoutURL   *string
	UpdatedAt   time.Time
}

// SitePublishingAuthUpdate holds the fields to change; SetFallbackURL and SetLogoutURL say
// whether those are given (nil then removes them).
type SitePublishingAuthUpdate struct {
	Backend        *string
	SetFallbackURL bool
	FallbackURL    *string
	SetLogoutURL   bool
	LogoutURL      *string
}

// SiteHostnameCheck is what the last DNS check of a site's custom hostname found: Status is
// dns_passed, dns_wrong_cname or dns_no_cname.
type SiteHostnameCheck struct {
	SiteID    string
	Hostname  string
	Status    string
	CheckedAt time.Time
}

// SiteAccess keeps share links, visitor authentication settings and hostname checks.
type SiteAccess interface {
	// CreateSiteShareLink adds an active share link with a new key to a site.
	CreateSiteShareLink(ctx context.Context, siteID, name string) (*SiteShareLink, error)
	// DeleteSiteShareLink removes a share link; deleted is false when there was none.
	DeleteSiteShareLink(ctx context.Context, siteID, id string) (deleted bool, err error)
	// FindSiteShareLinkByKey returns the site's share link with a key, active or not.
	FindSiteShareLinkByKey(ctx context.Context, siteID, key string) (*SiteShareLink, error)
	// FindSiteShareLinks lists a site's share links, oldest first; search keeps those whose name
	// contains it, case-insensitively.
	FindSiteShareLinks(ctx context.Context, siteID string, search *string, p Page) (List[*SiteShareLink], error)
	// UpdateSiteShareLink applies an update.
	UpdateSiteShareLink(ctx context.Context, siteID, id string, upd SiteShareLinkUpdate) (*SiteShareLink, error)
	// SitePublishingAuth returns a site's visitor authentication settings, made (backend custom,
	// a new key) on first use.
	SitePublishingAuth(ctx context.Context, siteID string) (*SitePublishingAuth, error)
	// UpdateSitePublishingAuth applies an update (made first as SitePublishingAuth makes it).
	UpdateSitePublishingAuth(ctx context.Context, siteID string, upd SitePublishingAuthUpdate) (*SitePublishingAuth, error)
	// RegenerateSitePublishingAuth gives the site a new key: tokens signed with the old one no
	// longer open it.
	RegenerateSitePublishingAuth(ctx context.Context, siteID string) (*SitePublishingAuth, error)
	// RecordSiteHostnameCheck keeps the result of a check of a site's hostname, over the last one.
	RecordSiteHostnameCheck(ctx context.Context, c *SiteHostnameCheck) error
	// FindSiteHostnameCheck returns the last check of a site's hostname, ENOTFOUND when there was
	// none (or it was of another hostname).
	FindSiteHostnameCheck(ctx context.Context, siteID, hostname string) (*SiteHostnameCheck, error)
}
