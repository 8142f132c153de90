package store

import "time"

// The types of sites and their structure, shared by sites.go (sites) and sitestructure.go (site
// spaces, sections, section groups).

// Site publishes spaces of an organization.
type Site struct {
	ID                      string
	OrganizationID          string
	Type                    string
	Title                   string
	Visibility              string // public | unlisted | share-link | visitor-auth
	Published               bool
	Hostname                *string
	Basename                *string
	Proxy                   *string
	AdaptiveEnabled         bool
	AgentsContext           string
	AdaptiveSchema          []byte // JSON; nil: none set
	AdaptiveSchemaUpdatedAt *time.Time
	ShareKey                string
	DefaultLevel            Role // the role every member has at least on the site: LevelInherit or RoleGuest add none
	SiteSpaces              int  // how many site spaces the site has
	CreatedAt               time.Time
	UpdatedAt               time.Time
}

// SiteSpace is a space published by a site, in a section or at the root of a site without sections.
type SiteSpace struct {
	ID        string
	SiteID    string
	SectionID *string
	Space     *Space
	Path      string
	Condition *string
	Default   bool
	Position  float64
	Title     *string // its own title; nil: its space's
	PageID    *string // the page read at its root; nil: the space's first page
	Draft     bool    // not on the published site
	Hidden    bool    // on the published site, out of its navigation
}

// Localized holds a text's translations by language; nil or empty: none.
type Localized map[string]string

// SiteSection is a section of a site: one or more site spaces (variants).
type SiteSection struct {
	ID                   string
	SiteID               string
	GroupID              *string
	Title                string
	LocalizedTitle       Localized
	Description          *string
	LocalizedDescription Localized
	Draft                bool // not on the published site
	Icon                 *string
	Path                 string
	Condition            *string
	Default              bool
	Position             float64
	SiteSpaces           []*SiteSpace // in order
}

// SiteSectionGroup groups sections (and other groups) of a site.
type SiteSectionGroup struct {
	ID             string
	SiteID         string
	ParentID       *string
	Title          string
	LocalizedTitle Localized
	Draft          bool // not on the published site, nor is anything in it
	Icon           *string
	Position       float64
}

// SiteStructure is the whole structure of a site, read in a fixed number of queries.
type SiteStructure struct {
	Groups         []*SiteSectionGroup // in order within each parent
	Sections       []*SiteSection      // in order within each group (or the root)
	RootSiteSpaces []*SiteSpace        // a site without sections: its site spaces, in order
	ExternalLinks  []*SiteExternalLink // in order within each group (or the root)
}

// SiteExternalLink is a link to a web address in a site's navigation, ordered with the sections
// and groups of its parent.
type SiteExternalLink struct {
	ID                   string
	SiteID               string
	GroupID              *string
	Title                string
	LocalizedTitle       Localized
	Description          *string
	LocalizedDescription Localized
	Icon                 *string
	URL                  string
	Condition            *string
	Draft                bool
	Position             float64
}

// RootURL is the address of a site's root, without a trailing slash: https on its hostname when
// it has one (quire behind a proxy that terminates TLS), else {base}/s/{siteId} under quire's
// base URL.
func (s *Site) RootURL(baseURL string) string {
	if s.Hostname != nil && *s.Hostname != "" {
		return "https://" + *s.Hostname
	}
	return baseURL + "/s/" + s.ID
}

// PublishedURL is where a published site is read (RootURL); nil while the site is not published.
func (s *Site) PublishedURL(baseURL string) *string {
	if !s.Published {
		return nil
	}
	u := s.RootURL(baseURL)
	return &u
}

// DisplayTitle is the title a site space shows: its own, or its space's.
func (ss *SiteSpace) DisplayTitle() string {
	if ss.Title != nil {
		return *ss.Title
	}
	return ss.Space.Title
}

// WithShareKey appends a share-link site's share key to one of its published URLs.
func (s *Site) WithShareKey(u string) string {
	if s.Visibility == "share-link" {
		return u + "?share=" + s.ShareKey
	}
	return u
}
