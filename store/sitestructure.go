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
	SpaceID      *string
}

// SiteSectionCreate holds what a new section starts with: SpaceID becomes its first site space.
type SiteSectionCreate struct {
	SpaceID string
	Title   *string // nil: the space's title
	Icon    *string
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
}

// SiteSectionGroupCreate holds what a new group starts with: Sections are moved into it, in
// order; it goes at the end of Parent (nil: the site root).
type SiteSectionGroupCreate struct {
	Title    string
	Icon     *string
	Sections []string
	Parent   *string
}

// SiteSectionGroupUpdate holds the fields to change; SetIcon says whether Icon is given.
type SiteSectionGroupUpdate struct {
	Title   *string
	SetIcon bool
	Icon    *string
}

// SiteMove places an item just before or just after a sibling, or at the end when neither.
type SiteMove struct {
	Before *string
	After  *string
}
