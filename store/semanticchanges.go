package store

// Semantic change kinds, as GitBook names them (RevisionSemanticChange's type).
const (
	PageCreated = "page_created"
	PageEdited  = "page_edited"
	PageDeleted = "page_deleted"
	PageMoved   = "page_moved"
	FileCreated = "file_created"
)

// SemanticChange is one thing a revision changed from another: a page created, edited, deleted
// or moved to another parent, or a file added (files are only ever added).
type SemanticChange struct {
	Kind   string
	Page   *RevisionPage // the page as it is after (as it was, when deleted)
	Before *RevisionPage // edited or moved: the page as it was
	File   *RevisionFile // FileCreated
}

// PageEdits reports which of a page's attributes differ between two versions of it (the body by
// its id: bodies are shared by content, so equal ids are equal bodies).
type PageEdits struct {
	Title, Description, Slug, Body, Emoji bool
}

// Any reports whether anything changed.
func (e PageEdits) Any() bool { return e.Title || e.Description || e.Slug || e.Body || e.Emoji }

// EditsOf compares two versions of a page.
func EditsOf(before, after *RevisionPage) PageEdits {
	return PageEdits{
		Title: before.Title != after.Title, Description: before.Description != after.Description,
		Slug: before.Slug != after.Slug, Body: before.BodyID != after.BodyID, Emoji: !EqualPtr(before.Emoji, after.Emoji),
	}
}

// SemanticChanges compares two revisions' pages (in tree order) and files: the pages of after
// that are new, moved to another parent, or edited, in after's order (a page both moved and
// edited is moved), then the pages gone, in before's order, then the files added.
func SemanticChanges(before, after []*RevisionPage, filesBefore, filesAfter []*RevisionFile) []SemanticChange {
	old := make(map[string]*RevisionPage, len(before))
	for _, p := range before {
		old[p.ID] = p
	}
	var out []SemanticChange
	kept := make(map[string]bool, len(after))
	for _, p := range after {
		o := old[p.ID]
		kept[p.ID] = true
		switch {
		case o == nil:
			out = append(out, SemanticChange{Kind: PageCreated, Page: p})
		case !EqualPtr(o.ParentID, p.ParentID):
			out = append(out, SemanticChange{Kind: PageMoved, Page: p, Before: o})
		case EditsOf(o, p).Any():
			out = append(out, SemanticChange{Kind: PageEdited, Page: p, Before: o})
		}
	}
	for _, p := range before {
		if !kept[p.ID] {
			out = append(out, SemanticChange{Kind: PageDeleted, Page: p})
		}
	}
	had := make(map[string]bool, len(filesBefore))
	for _, f := range filesBefore {
		had[f.ID] = true
	}
	for _, f := range filesAfter {
		if !had[f.ID] {
			out = append(out, SemanticChange{Kind: FileCreated, File: f})
		}
	}
	return out
}
