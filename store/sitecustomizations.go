package store

import (
	"context"
	"time"
)

// SiteCustomization is the customization document a site's owner put (JSON, as the API took
// it), or a site space's overrides of it when SiteSpaceID is set. The server reads it over the
// defaults; the store keeps it whole.
type SiteCustomization struct {
	SiteID      string
	SiteSpaceID string // "" for the site's own
	Settings    []byte
	UpdatedAt   time.Time
}

// SiteCustomizations keeps sites' and site spaces' customization documents.
type SiteCustomizations interface {
	// FindSiteCustomization returns a site's document (siteSpaceID "") or a site space's
	// overrides, ENOTFOUND when none was put.
	FindSiteCustomization(ctx context.Context, siteID, siteSpaceID string) (*SiteCustomization, error)
	// FindSiteSpaceCustomizations returns the overrides of a site's site spaces, by site space id.
	FindSiteSpaceCustomizations(ctx context.Context, siteID string) (map[string]*SiteCustomization, error)
	// PutSiteCustomization replaces a document; the site space must belong to the site.
	PutSiteCustomization(ctx context.Context, c *SiteCustomization) error
	// DeleteSiteCustomization removes a document; deleted is false when there was none.
	DeleteSiteCustomization(ctx context.Context, siteID, siteSpaceID string) (deleted bool, err error)
}
