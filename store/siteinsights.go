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
	// What the insights group by, taken from the payload: the page's URL and its path, the site
	// section and site space it was read in, a search's query, a feedback's rating.
	URL, URLPath, SiteSectionID, SiteSpaceID, SearchQuery, FeedbackRating *string
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
	// AggregateSiteEvents counts a site's events from a to z, in groups; each row holds the
	// groups' values then the metrics', in the order asked. EINVALID for a column it cannot count.
	AggregateSiteEvents(ctx context.Context, siteID string, a SiteEventAggregation) ([][]any, error)
}

// SiteEventColumn is one column of a site's events an aggregation groups by, filters on or
// counts: a key (datetime — Interval hour, day, week or month —, dayOfWeek, hourOfDay, url,
// urlPath, eventType, siteSection, siteSpace, page, eventSearchQuery, eventPageFeedbackRating)
// or a metric (eventsCount, sessionsCount, visitorsCount, pageFeedbackRating).
//
// Values in rows: datetime an RFC 3339 string; dayOfWeek (1 Monday … 7 Sunday) and hourOfDay
// int64; page a SiteEventPage (nil when the event had no space); counts int64;
// pageFeedbackRating a FeedbackCounts; the others a string or nil.
type SiteEventColumn struct {
	Name     string
	Interval string
}

// SiteEventMetrics are the columns that count rather than group.
var SiteEventMetrics = map[string]bool{"eventsCount": true, "sessionsCount": true, "visitorsCount": true, "pageFeedbackRating": true}

// SiteEventPage is the page an event happened on (Page nil for the space's root).
type SiteEventPage struct {
	Space string
	Page  *string
}

// FeedbackCounts counts page feedback by rating.
type FeedbackCounts struct{ Good, Ok, Bad int64 }

// SiteEventCondition keeps the events (a key) or groups (a metric) whose column compares to
// Values by Op: in, notIn (Values may hold nil), greaterThan, greaterThanOrEqual, lessThan,
// lessThanOrEqual (one value). Values are of the column's row type (datetime a time.Time).
type SiteEventCondition struct {
	Column SiteEventColumn
	Op     string
	Values []any
}

// SiteEventAggregation is a query over a site's events occurred in [From, To).
type SiteEventAggregation struct {
	From, To time.Time
	Group    []SiteEventColumn
	Metrics  []SiteEventColumn
	Where    []SiteEventCondition
	// OrderBy indexes the row (groups then metrics); -1 orders by the groups.
	OrderBy int
	Desc    bool
	Limit   int
}
