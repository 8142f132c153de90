package store

// Semantic change kinds, as GitBook names them (RevisionSemanticChange's type).
const (
	PageCreated = "page_created"
	PageEdited  = "page_edited"
	PageDeleted = "page_deleted"
	PageMoved   = "page_moved"
	FileCreated = "file_created"

	ReusableContentCreated = "reusable_content_created"
	ReusableContentEdited  = "reusable_content_edited"
	ReusableContentDeleted = "reusable_content_deleted"
)

// SemanticChange is one thing a revision changed from another: a page created, edited, deleted
// or moved to another parent, a file added (files are only ever added), or a reusable content
// created, edited or deleted.
type SemanticChange struct {
	Kind   string
	Page   *RevisionPage // the page as it is after (as it was, when deleted)
	Before *RevisionPage // edited or moved: the page as it was
	File   *RevisionFile // FileCreated
	// Reusable is the reusable content as it is after (as it was, when deleted); ReusableBefore,
	// when edited, as it was.
	Reusable, ReusableBefore *ReusableContent
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

// ReusableChanges compares two revisions' reusable contents: those created and edited (title or
// body) in after's order, then those deleted in before's order.
func ReusableChanges(before, after []*ReusableContent) []SemanticChange {
	old := make(map[string]*ReusableContent, len(before))
	for _, r := range before {
		old[r.ID] = r
	}
	var out []SemanticChange
	kept := make(map[string]bool, len(after))
	for _, r := range after {
		o := old[r.ID]
		kept[r.ID] = true
		switch {
		case o == nil:
			out = append(out, SemanticChange{Kind: ReusableContentCreated, Reusable: r})
		case o.Title != r.Title || o.BodyID != r.BodyID:
			out = append(out, SemanticChange{Kind: ReusableContentEdited, Reusable: r, ReusableBefore: o})
		}
	}
	for _, r := range before {
		if !kept[r.ID] {
			out = append(out, SemanticChange{Kind: ReusableContentDeleted, Reusable: r})
		}
	}
	return out
}
