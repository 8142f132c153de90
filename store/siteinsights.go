package store

import (
	"context"
	"time"
)

// SiteEvent is one thing a visitor did on a published site (a page view, a search, feedback…),
// as the renderer or a site script reported it. Payload is the event as it was sent (JSON); the
// columns beside it are what the site's insights filter and count by.
type SiteEvent struct {
	ID         string
	SiteID     string
	Type       string
	SessionID  string
	VisitorID  string
	SpaceID    *string
	PageID     *string
	OccurredAt time.Time
	Payload    []byte
}

// SiteEventFilter narrows a list of a site's events; nil fields do not filter.
type SiteEventFilter struct {
	Type  *string
	Since *time.Time
}

// SiteInsights are the events visitors leave on published sites.
type SiteInsights interface {
	// RecordSiteEvents stores a batch of a site's events at once.
	RecordSiteEvents(ctx context.Context, siteID string, events []*SiteEvent) error
	// FindSiteEvents lists a site's events, newest first.
	FindSiteEvents(ctx context.Context, siteID string, f SiteEventFilter, p Page) (List[*SiteEvent], error)
}
