package store

// Link is one stored link.
type Link struct {
	PageID string // the page holding it
	Kind   string // page | file | url
	Target string
}

// LinkTarget is a target of a revision's links, with its status and the pages linking to it.
type LinkTarget struct {
	Kind    string
	Target  string
	Status  string // ok | broken | in-app
	Sources []string
}

// LinkStats counts a revision's links (each page's link to a target once).
type LinkStats struct {
	Total  int
	Broken int
}

// LinkFilter narrows a link list: to one page's links, to one status. AppPrefix is the URL
// prefix of quire's own app: URL links under it are `in-app`.
type LinkFilter struct {
	PageID    *string
	Status    *string
	AppPrefix string
}
