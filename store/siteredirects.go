package store

import (
	"context"
	"time"
)

// SiteRedirect sends a path of a published site elsewhere. Source is a path from the site's root;
// one ending in "/*" or "*" matches every path it prefixes (CaptureWildcard: the rest of the path
// is carried over to the destination). A draft redirect is not live; a source may have one live
// and one draft redirect.
type SiteRedirect struct {
	ID              string
	SiteID          string
	Source          string
	Draft           bool
	CaptureWildcard bool
	Permanent       bool
	RedirectDestination
	CreatedAt time.Time
	UpdatedAt time.Time
}

// RedirectDestination is where a redirect leads, by DestinationKind: a section (SiteSectionID), a
// site space (SiteSpaceID), a page of a site space (SiteSpaceID, PageID) or an external URL.
type RedirectDestination struct {
	DestinationKind string // site-section, site-space, site-page, external
	SiteSectionID   *string
	SiteSpaceID     *string
	PageID          *string
	URL             *string
}

// SiteRedirectFilter narrows and orders a site's redirects.
type SiteRedirectFilter struct {
	Draft   bool    // the draft redirects, else the live ones
	Search  *string // the source contains it, case-insensitively
	OrderBy string  // createdAt (newest first, the default), updatedAt (newest first), source (A to Z)
}

// SiteRedirectUpdate holds the fields to change; nil leaves a field as it is.
type SiteRedirectUpdate struct {
	Source          *string
	Draft           *bool
	CaptureWildcard *bool
	Permanent       *bool
	Destination     *RedirectDestination
}

// SiteRedirectUpsert is one entry of a bulk change, keyed by source and intent: "live" or "draft"
// creates or updates that redirect (Destination nil deletes it; Permanent nil keeps it, false on
// creation), "publish" moves the draft redirect of the source over the live one.
type SiteRedirectUpsert struct {
	Source          string
	Intent          string // live, draft, publish
	CaptureWildcard bool
	Permanent       *bool
	Destination     *RedirectDestination
}

// SiteRedirectUpserted is what became of an entry: created, updated, deleted, published, or error
// (Error says why; the other entries are applied all the same).
type SiteRedirectUpserted struct {
	Status string
	Source string
	Draft  bool
	ID     string // the redirect's id, but for deleted and error
	Error  string
}

// SiteRedirects are the redirects of published sites.
type SiteRedirects interface {
	// CreateSiteRedirect adds a redirect to a site (ECONFLICT when the site has one with the
	// same source and draft state).
	CreateSiteRedirect(ctx context.Context, r *SiteRedirect) error
	// DeleteSiteRedirect removes a redirect; deleted is false when there was none.
	DeleteSiteRedirect(ctx context.Context, siteID, id string) (deleted bool, err error)
	// FindSiteRedirect returns a redirect of a site.
	FindSiteRedirect(ctx context.Context, siteID, id string) (*SiteRedirect, error)
	// FindSiteRedirectBySource returns the site's live (not draft) redirect for a path: the one
	// whose source is the path itself, else the wildcard source with the longest prefix of it;
	// ENOTFOUND when none matches.
	FindSiteRedirectBySource(ctx context.Context, siteID, path string) (*SiteRedirect, error)
	// FindPageFormerlyAt returns the id of the page that last had a path in a revision's history
	// (the revision and those before it on its lines), whatever its path now; ENOTFOUND when no
	// page ever had it. A page moved or renamed keeps its old address working through it.
	FindPageFormerlyAt(ctx context.Context, revisionID, path string) (string, error)
	// FindSiteRedirects lists a site's live or draft redirects.
	FindSiteRedirects(ctx context.Context, siteID string, f SiteRedirectFilter, p Page) (List[*SiteRedirect], error)
	// UpdateSiteRedirect applies an update (ECONFLICT when the source and draft state are
	// another redirect's).
	UpdateSiteRedirect(ctx context.Context, siteID, id string, upd SiteRedirectUpdate) (*SiteRedirect, error)
	// UpsertSiteRedirects applies a bulk change in one transaction, entry by entry in order.
	UpsertSiteRedirects(ctx context.Context, siteID string, entries []SiteRedirectUpsert) ([]SiteRedirectUpserted, error)
}
