package store

import (
	"context"
	"strconv"
	"strings"
)

// SiteCreate holds the fields a new site starts with; Spaces become its root site spaces, in order.
type SiteCreate struct {
	Type       string
	Title      string
	Visibility string
	Spaces     []string
}

// SiteFilter narrows a list of sites; nil fields do not filter.
type SiteFilter struct {
	Space     *string // only sites publishing this space
	Title     *string // title contains, case-insensitively
	Published *bool
	// Visible keeps only the sites a person reads (nil: all): those granted to them and, for a
	// member with a role, those whose default level is not null.
	Visible *Visible
}

// SiteUpdate holds the fields to change; nil leaves a field as it is. SetHostname and SetProxy
// say whether Hostname and Proxy are given (nil then removes them).
type SiteUpdate struct {
	Title           *string
	Visibility      *string
	Basename        *string
	SetHostname     bool
	Hostname        *string
	SetProxy        bool
	Proxy           *string
	AdaptiveEnabled *bool
	AgentsContext   *string
	SetDefaultLevel bool
	DefaultLevel    Role // RoleGuest: none
	// Checked to belong to the site in the same transaction; setting them is SetDefaultSiteSpace's
	// and SetDefaultSiteSection's job.
	DefaultSiteSpace   *string
	DefaultSiteSection *string
}

// UniquePath returns base, or base-2, base-3… when taken, within the 100 characters of a path.
func UniquePath(base string, taken map[string]bool) string {
	if !taken[base] {
		return base
	}
	for n := 2; ; n++ {
		suffix := "-" + strconv.Itoa(n)
		b := base
		if len(b)+len(suffix) > 100 {
			b = strings.TrimRight(b[:100-len(suffix)], "-")
		}
		if p := b + suffix; !taken[p] {
			return p
		}
	}
}

// Sites are published sites, their site spaces, sections and section groups.
type Sites interface {
	// AddSiteSection adds a section at the end of the site root with a space as its first site
	// space. The first section of a site whose spaces are at its root first gathers them into a
	// default section titled after the site, so a site has sections or root site spaces, not both.
	AddSiteSection(ctx context.Context, siteID string, c SiteSectionCreate) (*SiteSection, error)
	// AddSiteSpace adds a live space of the site's organization to a section (nil: the default
	// section, or the root of a site without sections); a page it names must be the space's.
	AddSiteSpace(ctx context.Context, siteID string, c SiteSpaceCreate) (*SiteSpace, error)
	// CreateSite creates a site; each of c.Spaces, which must be live spaces of the organization,
	// becomes a site space at the root, in order, the first one the default.
	CreateSite(ctx context.Context, orgID string, c SiteCreate) (*Site, error)
	// DeleteSite deletes a site with its structure. Deleting a missing site is no error.
	DeleteSite(ctx context.Context, id string) error
	// DeleteSiteSection deletes a section with its site spaces; a default section gives way to the
	// next in the structure's order. Deleting a missing one is no error.
	DeleteSiteSection(ctx context.Context, siteID string, id string) error
	// DeleteSiteSpace removes a site space; a default gives way to the next. Deleting a missing
	// one is no error.
	DeleteSiteSpace(ctx context.Context, siteID string, id string) error
	// FindSite returns a site, whatever its organization: the caller checks access.
	FindSite(ctx context.Context, id string) (*Site, error)
	// FindSiteByHostname returns the site with a hostname (as stored: lowercase), whatever its
	// organization: the published web serves it at that host.
	FindSiteByHostname(ctx context.Context, hostname string) (*Site, error)
	// FindSiteSection returns a section of a site with its site spaces.
	FindSiteSection(ctx context.Context, siteID string, id string) (*SiteSection, error)
	// FindSiteSectionGroup returns a section group of a site.
	FindSiteSectionGroup(ctx context.Context, siteID string, id string) (*SiteSectionGroup, error)
	// FindSiteSectionGroups lists a site's section groups in the structure's order.
	FindSiteSectionGroups(ctx context.Context, siteID string, p Page) (List[*SiteSectionGroup], error)
	// FindSiteSections lists a site's sections, with their site spaces, in the structure's order.
	FindSiteSections(ctx context.Context, siteID string, p Page) (List[*SiteSection], error)
	// FindSiteSectionsOf returns, by id, the sections (without their site spaces) the given site
	// spaces are in, in one query.
	FindSiteSectionsOf(ctx context.Context, siteID string, spaces []*SiteSpace) (map[string]*SiteSection, error)
	// FindSiteSpace returns a site space of a site.
	FindSiteSpace(ctx context.Context, siteID string, id string) (*SiteSpace, error)
	// FindSiteSpaces lists a site's site spaces in the structure's order.
	FindSiteSpaces(ctx context.Context, siteID string, f SiteSpaceFilter, p Page) (List[*SiteSpace], error)
	// FindSiteStructure reads a site's whole structure in three queries: groups, sections, and
	// site spaces with their spaces. An unknown site has an empty structure.
	FindSiteStructure(ctx context.Context, siteID string) (*SiteStructure, error)
	// FindSites lists an organization's sites, oldest first.
	FindSites(ctx context.Context, orgID string, f SiteFilter, p Page) (List[*Site], error)
	// MoveSiteSection moves a section among the sections and groups of its parent, next to another
	// section of that parent.
	MoveSiteSection(ctx context.Context, siteID string, id string, m SiteMove) (*SiteSection, error)
	// MoveSiteSpace moves a site space among the site spaces of its container.
	MoveSiteSpace(ctx context.Context, siteID string, id string, m SiteMove) (*SiteSpace, error)
	// SetDefaultSiteSection makes a section the site's default section.
	SetDefaultSiteSection(ctx context.Context, siteID string, sectionID string) error
	// SetDefaultSiteSpace makes a site space the site's default: the default of its container and,
	// when it is in a section, that section the default section.
	SetDefaultSiteSpace(ctx context.Context, siteID string, siteSpaceID string) error
	// SetSiteAdaptiveSchema validates and stores a site's visitor schema (see ParseAdaptiveSchema).
	SetSiteAdaptiveSchema(ctx context.Context, id string, schema map[string]any) (*Site, error)
	// SetSitePublished publishes or unpublishes a site.
	SetSitePublished(ctx context.Context, id string, published bool) (*Site, error)
	// UpdateSite applies an update. A hostname another site has is a conflict; default site space or
	// section ids that are not the site's are invalid.
	UpdateSite(ctx context.Context, id string, upd SiteUpdate) (*Site, error)
	// UpdateSiteSection applies an update. A path another section of the site has is a conflict;
	// a default site space that is not the section's is invalid.
	UpdateSiteSection(ctx context.Context, siteID string, id string, upd SiteSectionUpdate) (*SiteSection, error)
	// UpdateSiteSpace applies an update. A path another site space of the container has is a
	// conflict; a space that is not live in the site's organization is invalid.
	UpdateSiteSpace(ctx context.Context, siteID string, id string, upd SiteSpaceUpdate) (*SiteSpace, error)
	// AddSectionToGroup moves a section of the site to the end of a group (where it stays when it
	// is already in it).
	AddSectionToGroup(ctx context.Context, siteID string, groupID string, sectionID string) (*SiteSectionGroup, error)
	// AddSiteSectionGroup adds a group at the end of its parent and moves the given sections into
	// it, in order.
	AddSiteSectionGroup(ctx context.Context, siteID string, c SiteSectionGroupCreate) (*SiteSectionGroup, error)
	// DeleteSiteSectionGroup deletes a group; its sections and subgroups take its place in its
	// parent, in order. Deleting a missing one is no error.
	DeleteSiteSectionGroup(ctx context.Context, siteID string, id string) error
	// RemoveSectionFromGroup moves a section of a group to the end of the site root; a section that
	// is not in the group stays where it is.
	RemoveSectionFromGroup(ctx context.Context, siteID string, groupID string, sectionID string) error
	// AddSiteExternalLink adds an external link at the end of a group (nil: the site root) of a
	// site with sections; a site whose spaces are at its root has no navigation for it (invalid).
	AddSiteExternalLink(ctx context.Context, siteID string, c SiteExternalLinkCreate) (*SiteExternalLink, error)
	// UpdateSiteExternalLink applies an update.
	UpdateSiteExternalLink(ctx context.Context, siteID string, id string, upd SiteExternalLinkUpdate) (*SiteExternalLink, error)
	// DeleteSiteExternalLink deletes an external link; false when there was none.
	DeleteSiteExternalLink(ctx context.Context, siteID string, id string) (bool, error)
	// SortSiteStructure moves an item of the site's structure next to another. Sections, groups
	// and external links share one order per parent: placed next to one of another parent, the
	// item moves into that parent (a group never into itself or its subgroups). A site space moves
	// among the site spaces of its container only. An unknown item is not found; an unknown
	// reference, or one of a kind the item cannot stand next to, is invalid.
	SortSiteStructure(ctx context.Context, siteID string, item SiteItemRef, m SiteItemMove) error
	// UpdateSiteSectionGroup applies an update.
	UpdateSiteSectionGroup(ctx context.Context, siteID string, id string, upd SiteSectionGroupUpdate) (*SiteSectionGroup, error)
}
