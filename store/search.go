package store

// SearchSection is a section of a page that matched.
type SearchSection struct {
	Anchor string // "" for the text before the first heading
	Title  string
	Body   string // the section's text, shortened
}

// SearchPage is a page that matched, with its matching sections, best first.
type SearchPage struct {
	SpaceID  string
	PageID   string
	Title    string
	Path     string
	Sections []SearchSection
}

// SearchSpaceHits is a space of an organization search with its best matching pages.
type SearchSpaceHits struct {
	SpaceID string
	Pages   []*SearchPage
}
