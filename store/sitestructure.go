package store

// SiteSpaceFilter narrows a list of site spaces; nil does not filter.
type SiteSpaceFilter struct {
	Default *bool
}

// SiteSpaceUpdate holds the fields to change; nil leaves a field as it is. SetCondition says
// whether Condition is given (nil then removes it).
type SiteSpaceUpdate struct {
	Path         *string
	SetCondition bool
	Condition    *string
	SpaceID      *string // a new space also removes the page, unless SetPageID
	SetPageID    bool
	PageID       *string // a page of the (new) space; nil removes it
	Hidden       *bool
	Draft        *bool
}

// NewSiteSpace is a space created for a new site space or section, in the site's organization
// (at its top level), filled with a template's pages when Changes (TemplateChanges) are given.
type NewSiteSpace struct {
	CreatorID string
	Title     string
	Changes   []PageChange
}

// SpaceCopy names a space to copy (as Store.DuplicateSpace copies it) and who copies it.
type SpaceCopy struct{ SpaceID, CreatorID string }

// SiteSpaceCreate holds what a new site space starts with.
type SiteSpaceCreate struct {
	SpaceID   string        // "" with NewSpace or CopyOf
	NewSpace  *NewSiteSpace // a space to create for it instead, in the same write
	CopyOf    *SpaceCopy    // a copy of a space to publish instead, made in the same write
	SectionID *string       // nil: the default section, or the root of a site without sections
	Title     *string       // its own title; nil: its space's
	PageID    *string       // a page of the space read at its root
	Draft     bool
}

// SiteSectionCreate holds what a new section starts with: SpaceID becomes its first site space
// (with PageID its page).
type SiteSectionCreate struct {
	SpaceID  string        // "" with NewSpace
	NewSpace *NewSiteSpace // a space to create for it instead, in the same write
	Title    *string       // nil: the space's title
	Icon     *string
	PageID   *string
	GroupID  *string // nil: the site root
	Draft    bool
}

// SiteSectionUpdate holds the fields to change; nil leaves a field as it is, and the Set flags
// say whether a nullable field is given (nil then removes it).
type SiteSectionUpdate struct {
	Title            *string
	Path             *string
	DefaultSiteSpace *string
	SetCondition     bool
	Condition        *string
	SetIcon          bool
	Icon             *string
	SetDescription   bool
	Description      *string
	// LocalizedTitle and LocalizedDescription replace the whole set when not nil (empty: none).
	LocalizedTitle       Localized
	LocalizedDescription Localized
	Draft                *bool
	SetGroup             bool
	GroupID              *string // the group to move the section to the end of; nil: the site root
}

// SiteSectionGroupCreate holds what a new group starts with: Sections are moved into it, in
// order; it goes at the end of Parent (nil: the site root).
type SiteSectionGroupCreate struct {
	Title    string
	Icon     *string
	Sections []string
	Parent   *string
	Draft    bool
}

// SiteSectionGroupUpdate holds the fields to change; SetIcon and SetParent say whether Icon and
// Parent are given; LocalizedTitle replaces the whole set when not nil.
type SiteSectionGroupUpdate struct {
	Title          *string
	SetIcon        bool
	Icon           *string
	LocalizedTitle Localized
	Draft          *bool
	SetParent      bool
	Parent         *string // the group to move it to the end of; nil: the site root
}

// SiteMove places an item just before or just after a sibling, or at the end when neither.
type SiteMove struct {
	Before *string
	After  *string
}

// SiteExternalLinkCreate holds what a new external link starts with; it goes at the end of its
// group (nil: the site root).
type SiteExternalLinkCreate struct {
	Title                string
	LocalizedTitle       Localized
	Description          *string
	LocalizedDescription Localized
	Icon                 *string
	URL                  string
	GroupID              *string
	Condition            *string
	Draft                bool
}

// SiteExternalLinkUpdate holds the fields to change; nil leaves a field as it is, and the Set
// flags say whether a nullable field is given (nil then removes it). A new group moves the link to
// its end (nil: the site root's).
type SiteExternalLinkUpdate struct {
	Title                   *string
	SetLocalizedTitle       bool
	LocalizedTitle          Localized
	SetDescription          bool
	Description             *string
	SetLocalizedDescription bool
	LocalizedDescription    Localized
	SetIcon                 bool
	Icon                    *string
	URL                     *string
	SetGroup                bool
	GroupID                 *string
	SetCondition            bool
	Condition               *string
	Draft                   *bool
}

// SiteItemKind names the kind of an item of a site's structure as the API points at it.
type SiteItemKind string

const (
	SiteItemSpace        SiteItemKind = "site-space"
	SiteItemSection      SiteItemKind = "site-section"
	SiteItemGroup        SiteItemKind = "site-section-group"
	SiteItemExternalLink SiteItemKind = "site-external-link"
)

// SiteItemRef points at an item of a site's structure.
type SiteItemRef struct {
	Kind SiteItemKind
	ID   string
}

// SiteItemMove places an item just before or just after another (which may be of another kind
// that shares its order), or at the end of its parent when neither is given.
type SiteItemMove struct {
	Before *SiteItemRef
	After  *SiteItemRef
}
