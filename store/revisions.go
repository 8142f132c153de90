package store

import (
	"sort"
	"time"
)

// Revision is an immutable state of a space's content: its page tree and its parents.
type Revision struct {
	ID              string
	SpaceID         string
	Type            string // edits | merge | update
	Parents         []string
	ChangeRequestID *string // merge revisions: the change request merged
	CreatedAt       time.Time
	Pages           []*RevisionPage // in tree order: parents before children, siblings by position
}

// RevisionPage is a page of a revision. Its body (markdown) is loaded only where asked for.
type RevisionPage struct {
	ID          string
	ParentID    *string
	Position    float64
	Title       string
	Slug        string
	Path        string
	Emoji       *string
	Description string
	Hidden      bool
	// Icon, NoIndex (kept out of search), NoRobotsIndex (published with a robots noindex) and
	// Condition (the visitor condition deciding whether it shows) are set by content batches.
	Icon          *string
	NoIndex       bool
	NoRobotsIndex bool
	Condition     *string
	// LinkTitle is the title navigation and mentions show instead of Title (nil: Title); Cover
	// the image shown above a document page (nil: none).
	LinkTitle *string
	Cover     *PageCover
	// Type is the page's kind: PageDocument (""), PageGroup or PageLink. Groups and links have
	// no body (an empty one); a link has a Target.
	Type      string
	Target    *PageTarget
	BodyID    int64  // 0: not yet written (Markdown holds the new body)
	Markdown  string // set by the queries that load bodies, and for new bodies
	CreatedAt time.Time
	UpdatedAt time.Time
}

// PageCover is a document page's cover image: a file of the revision (File) or an image
// address (URL), and optionally another for dark mode; YPos is its vertical position, Height its
// height in pixels (0: the default).
type PageCover struct {
	File     string  `json:"file,omitempty"`
	URL      string  `json:"url,omitempty"`
	DarkFile string  `json:"darkFile,omitempty"`
	DarkURL  string  `json:"darkUrl,omitempty"`
	YPos     float64 `json:"yPos"`
	Height   float64 `json:"height,omitempty"`
}

// WithRefs returns the cover with the batch's file refs replaced by the ids they were given.
func (c *PageCover) WithRefs(fileRefs map[string]string) *PageCover {
	if c == nil {
		return nil
	}
	out := *c
	if id, ok := fileRefs[out.File]; ok {
		out.File = id
	}
	if id, ok := fileRefs[out.DarkFile]; ok {
		out.DarkFile = id
	}
	return &out
}

// NavTitle is the title navigation shows: the link title when the page has one.
func (p *RevisionPage) NavTitle() string {
	if p.LinkTitle != nil && *p.LinkTitle != "" {
		return *p.LinkTitle
	}
	return p.Title
}

// Clone returns a copy of the page, to edit without changing what was read.
func (p *RevisionPage) Clone() *RevisionPage {
	c := *p
	if p.Target != nil {
		t := *p.Target
		c.Target = &t
	}
	if p.Cover != nil {
		cv := *p.Cover
		c.Cover = &cv
	}
	return &c
}

// TreeOrder sorts pages depth-first: each parent before its children, siblings by position.
func TreeOrder(pages []*RevisionPage) []*RevisionPage { return TreeOrderUnder(pages, "") }

// TreeOrderUnder is treeOrder for the pages under one page (root "": the whole tree).
func TreeOrderUnder(pages []*RevisionPage, root string) []*RevisionPage {
	children := map[string][]*RevisionPage{}
	for _, p := range pages {
		key := ""
		if p.ParentID != nil {
			key = *p.ParentID
		}
		children[key] = append(children[key], p)
	}
	for _, list := range children {
		SortSiblings(list)
	}
	out := make([]*RevisionPage, 0, len(pages))
	var walk func(parent string)
	walk = func(parent string) {
		for _, p := range children[parent] {
			out = append(out, p)
			walk(p.ID)
		}
	}
	walk(root)
	return out
}

// SortSiblings orders the pages of one parent: by position, then id.
func SortSiblings(list []*RevisionPage) {
	sort.Slice(list, func(i, j int) bool {
		if list[i].Position != list[j].Position {
			return list[i].Position < list[j].Position
		}
		return list[i].ID < list[j].ID
	})
}

// SameRow reports whether two pages would be stored as the same row.
func SameRow(a, b *RevisionPage) bool {
	return a.BodyID != 0 && a.BodyID == b.BodyID && EqualPtr(a.ParentID, b.ParentID) && a.Position == b.Position &&
		a.Title == b.Title && a.Slug == b.Slug && a.Path == b.Path && EqualPtr(a.Emoji, b.Emoji) &&
		a.Description == b.Description && a.Hidden == b.Hidden && sameMeta(a, b) && a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt)
}

// sameMeta reports whether two pages have the same icon, indexing flags and condition.
func sameMeta(a, b *RevisionPage) bool {
	return EqualPtr(a.Icon, b.Icon) && a.NoIndex == b.NoIndex && a.NoRobotsIndex == b.NoRobotsIndex && EqualPtr(a.Condition, b.Condition) &&
		a.Kind() == b.Kind() && EqualPtr(a.Target, b.Target) && EqualPtr(a.LinkTitle, b.LinkTitle) && EqualPtr(a.Cover, b.Cover)
}

// EqualPtr reports whether two optional values are both unset or equal.
func EqualPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// PageTarget is what a link page opens: a URL, a page (of this space unless Space names another),
// or a space.
type PageTarget struct {
	Kind  string // TargetURL | TargetPage | TargetSpace
	URL   string // TargetURL
	Page  string // TargetPage: the page's id
	Space string // TargetSpace: the space; TargetPage: the page's space ("" this one)
}

// Kind is the page's kind, PageDocument when unset.
func (p *RevisionPage) Kind() string {
	if p.Type == "" {
		return PageDocument
	}
	return p.Type
}

// HasPage reports whether the page is a page of its own, reachable at its path: a document or a
// group (whose path shows its first page). A link only opens its target.
func (p *RevisionPage) HasPage() bool { return p.Kind() != PageLink }

// Page kinds, as GitBook names them (RevisionPageType).
const (
	PageDocument = "document"
	PageGroup    = "group"
	PageLink     = "link"
)

// Link target kinds (ContentRef's kind).
const (
	TargetURL   = "url"
	TargetPage  = "page"
	TargetSpace = "space"
)
