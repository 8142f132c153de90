package store

import (
	"context"
	"time"
)

// SiteRedirect sends a path of a published site elsewhere. Source is a path from the site's root;
// one ending in "/*" or "*" matches every path it prefixes (CaptureWildcard: the rest of the path
// is carried over to the destination). The destination is a section, a site space, a page of a
// site space or an external URL, by DestinationKind.
type SiteRedirect struct {
	ID              string
	SiteID          string
	Source          string
	Draft           bool
	CaptureWildcard bool
	Permanent       bool
	DestinationKind string // site-section, site-space, site-page, external
	SiteSectionID   *string
	SiteSpaceID     *string
	PageID          *string
	URL             *string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// SiteRedirects are the redirects of published sites. Writing them belongs to the sites' own
// issue; only CreateSiteRedirect (for that issue, and tests) and the lookup are here.
type SiteRedirects interface {
	// CreateSiteRedirect adds a redirect to a site (ECONFLICT when the site has one with the
	// same source).
	CreateSiteRedirect(ctx context.Context, r *SiteRedirect) error
	// FindSiteRedirectBySource returns the site's live (not draft) redirect for a path: the one
	// whose source is the path itself, else the wildcard source with the longest prefix of it;
	// ENOTFOUND when none matches.
	FindSiteRedirectBySource(ctx context.Context, siteID, path string) (*SiteRedirect, error)
}
