package store

import (
	"fmt"
	"time"
)

// PageTree is a revision's pages being edited: loaded lazily from the revision it starts from
// (only the pages a change reaches: by id, a parent's children, a subtree), with the batch's refs.
// What it changes is told apart from what it only read by comparing with the loaded rows.
type PageTree struct {
	Src   PageSource               // the revision the tree starts from; nil: none
	pages map[string]*RevisionPage // the loaded pages as they are now
	Orig  map[string]*RevisionPage // the loaded pages as Src holds them
	gone  map[string]bool          // pages of src deleted
	kids  map[string]bool          // parents ("" the top level) whose children are loaded
	// byParent indexes the loaded pages by parent id ("" the top level); put keeps it.
	byParent map[string]map[string]*RevisionPage
	Err      error             // the first read that failed
	Refs     map[string]string // the batch's page refs, to the ids they were given
	// FileRefs and Files are what insert_files changes bring: the ids of the batch's file refs,
	// and the files (with their ids set) to add to the revision.
	FileRefs map[string]string
	Files    []FileUpload
	now      time.Time
	// fresh holds the pages the batch inserted, moved or gave a new slug: when slugs collide
	// they give way, so a page the batch left alone keeps its path.
	fresh map[string]bool
	// explicitSlug holds the pages given a slug by the batch, with the change that gave it: such
	// a slug does not give way, a collision is refused.
	explicitSlug map[string]int
	// touched holds the pages the batch changed, in the order it first touched them.
	touched    []string
	touchedSet map[string]bool
	// Older returns a page as it is in another revision of the space (nil: not there), for
	// revert_page; Base is the revision reverted to when a change names none.
	Older func(revision, pageID string) (*RevisionPage, error)
	Base  string
}

// PageSource is what a page tree reads of the revision it starts from; a backend implements it
// over its storage.
type PageSource interface {
	// Pages returns the pages with the given ids the revision holds, by id.
	Pages(ids []string, bodies bool) (map[string]*RevisionPage, error)
	// Children returns the pages under a parent (nil: the top level), unordered.
	Children(parent *string) ([]*RevisionPage, error)
	// ByPath returns the page at a path, nil when there is none.
	ByPath(path string, bodies bool) (*RevisionPage, error)
}

// NewPageTree starts a tree from src (nil: no revision).
func NewPageTree(src PageSource, now time.Time) *PageTree {
	return &PageTree{Src: src, pages: map[string]*RevisionPage{}, Orig: map[string]*RevisionPage{}, gone: map[string]bool{},
		kids: map[string]bool{}, byParent: map[string]map[string]*RevisionPage{}, Refs: map[string]string{}, FileRefs: map[string]string{},
		now: now, fresh: map[string]bool{}, explicitSlug: map[string]int{}, touchedSet: map[string]bool{}}
}

// resolve returns the id of a page named by ref or id, or "" when there is none.
func (t *PageTree) resolve(name string) string {
	if id, ok := t.Refs[name]; ok {
		return id
	}
	if t.get(name) != nil {
		return name
	}
	return ""
}

// siblings returns the children of a parent (nil for the top level) in order, without except.
func (t *PageTree) siblings(parent *string, except string) []*RevisionPage {
	key := ""
	if parent != nil {
		key = *parent
	}
	var out []*RevisionPage
	for _, p := range t.children(key) {
		if p.ID != except {
			out = append(out, p)
		}
	}
	SortSiblings(out)
	return out
}

// Apply applies a batch of changes in order; an invalid change fails the whole batch with an
// EINVALID error naming the change (changes[i], or changes[i].field) and why.
func (t *PageTree) Apply(changes []PageChange) error {
	for i, c := range changes {
		err := t.applyOne(i, c)
		if t.Err != nil {
			return t.Err
		}
		if err != nil {
			return ChangeError(i, err)
		}
	}
	i, err := t.normalizeBatch()
	if t.Err != nil {
		return t.Err
	}
	if err != nil {
		return ChangeError(i, err)
	}
	return nil
}

// touch records that the batch changed a page.
func (t *PageTree) touch(id string) {
	if !t.touchedSet[id] {
		t.touchedSet[id] = true
		t.touched = append(t.touched, id)
	}
}

// Outcomes says what the batch did to each page it touched, against the revision it started
// from; a page it created and deleted again is not there.
func (t *PageTree) Outcomes() []PageOutcome {
	refOf := make(map[string]string, len(t.Refs))
	for ref, id := range t.Refs {
		refOf[id] = ref
	}
	var out []PageOutcome
	for _, id := range t.touched {
		was := t.Orig[id] != nil
		_, is := t.pages[id]
		o := PageOutcome{PageID: id}
		switch {
		case was && is:
			o.Kind = "updated"
		case was:
			o.Kind = "deleted"
		case is:
			o.Kind = "created"
			if ref, ok := refOf[id]; ok {
				o.Ref = &ref
			}
		default:
			continue
		}
		out = append(out, o)
	}
	return out
}

// checkRef refuses a ref already used in the batch, or one that is the path of a page of the
// revision the batch started from (a ./<ref>.md link would be ambiguous).
func (t *PageTree) checkRef(field, ref string) error {
	if _, dup := t.Refs[ref]; dup {
		return FieldErrorf(field, "%q is already the ref of a page of this batch", ref)
	}
	if _, dup := t.FileRefs[ref]; dup {
		return FieldErrorf(field, "%q is already the ref of a file of this batch", ref)
	}
	if t.Src != nil && t.Err == nil {
		p, err := t.Src.ByPath(ref, false)
		if err != nil {
			t.Err = err
			return nil
		}
		if p != nil {
			return FieldErrorf(field, "%q is the path of an existing page", ref)
		}
	}
	return nil
}

func (t *PageTree) applyOne(i int, c PageChange) error {
	if c.Type != "insert_files" && c.Files != nil {
		return FieldErrorf("files", "is only given with insert_files")
	}
	switch c.Type {
	case "insert_page":
		if c.Page != nil {
			return FieldErrorf("page", "is not given when inserting")
		}
		title := "Untitled"
		if c.Title != nil {
			title = *c.Title
		}
		kind := PageDocument
		if c.PageType != nil {
			kind = *c.PageType
		}
		switch kind {
		case PageDocument, PageGroup:
		case PageLink:
			if c.Target == nil {
				return FieldErrorf("target", "is required for a link page")
			}
		default:
			return FieldErrorf("type", "%q is not a page type this server creates; use document, group or link", kind)
		}
		p := &RevisionPage{ID: NewID(), Title: title, Type: kind, CreatedAt: t.now, UpdatedAt: t.now}
		if c.Ref != nil {
			if err := t.checkRef("ref", *c.Ref); err != nil {
				return err
			}
			t.Refs[*c.Ref] = p.ID
		}
		if err := t.place(p, c.SetInto, c.Into, c.At, true); err != nil {
			return err
		}
		if err := t.checkKinds(p, &c); err != nil {
			return err
		}
		t.setFields(i, p, c)
		t.put(p)
		t.kids[p.ID] = true // a new page has no subpages in the revision it starts from
		t.touch(p.ID)
		return nil
	case "update_page":
		if c.Ref != nil {
			return FieldErrorf("ref", "is only given when inserting")
		}
		if c.PageType != nil {
			return FieldErrorf("type", "a page keeps its type; delete it and insert a new page")
		}
		id, err := t.target(c.Page)
		if err != nil {
			return err
		}
		p := t.get(id)
		if c.SetInto || c.At != nil {
			if err := t.place(p, c.SetInto, c.Into, c.At, false); err != nil {
				return err
			}
		}
		if err := t.checkKinds(p, &c); err != nil {
			return err
		}
		t.setFields(i, p, c)
		p.UpdatedAt = t.now
		t.touch(id)
		return nil
	case "delete_page":
		id, err := t.target(c.Page)
		if err != nil {
			return err
		}
		t.deleteWithSubpages(id)
		return nil
	case "revert_page":
		return t.revert(c)
	case "insert_files":
		if len(c.Files) == 0 {
			return FieldErrorf("files", "is required")
		}
		for j, f := range c.Files {
			if len(f.Data) > MaxFileSize {
				return FieldErrorf(fmt.Sprintf("files[%d]", j), "%q is %d bytes, over the %d MiB limit", f.Name, len(f.Data), MaxFileSize>>20)
			}
			f.ID = NewID()
			if f.Ref != nil {
				if err := t.checkRef(fmt.Sprintf("files[%d].ref", j), *f.Ref); err != nil {
					return err
				}
				t.FileRefs[*f.Ref] = f.ID
			}
			t.Files = append(t.Files, f)
		}
		return nil
	}
	return FieldErrorf("operation", "unknown operation %q", c.Type)
}

// revert puts a whole page back as it is in another revision: removed when it is not there,
// restored (under its parent there, which must be in the tree) when it is.
func (t *PageTree) revert(c PageChange) error {
	if len(c.Blocks) > 0 {
		return FieldErrorf("block", "reverting single blocks is not supported; revert the whole page")
	}
	if c.Page == nil {
		return FieldErrorf("page", "is required")
	}
	if t.Older == nil {
		return FieldErrorf("operation", "revert_page is not available here")
	}
	revision := t.Base
	if c.Revision != nil {
		revision = *c.Revision
	}
	id := t.resolve(*c.Page)
	if id == "" {
		id = *c.Page // a page deleted since may be restored
	}
	old, err := t.Older(revision, id)
	if err != nil {
		return err
	}
	cur := t.get(id)
	switch {
	case old == nil && cur == nil:
		return FieldErrorf("page", "no page %q in the change request's content or in revision %s", *c.Page, revision)
	case old == nil:
		t.deleteWithSubpages(id)
		return nil
	}
	if old.ParentID != nil {
		parent := t.get(*old.ParentID)
		if parent == nil {
			return FieldErrorf("page", "its parent in revision %s (%s) is not in the change request's content; revert the parent first",
				revision, *old.ParentID)
		}
		for a := parent; a != nil; {
			if a.ID == id {
				return FieldErrorf("page", "its parent in revision %s is now one of its subpages; move that page out first", revision)
			}
			if a.ParentID == nil {
				break
			}
			a = t.get(*a.ParentID)
		}
	}
	p := old.Clone()
	p.Markdown, p.UpdatedAt = "", t.now
	// Its path is recomputed: the path it had there follows parents that may have moved since.
	t.fresh[id] = true
	delete(t.explicitSlug, id)
	t.set(p)
	t.touch(id)
	return nil
}

func (t *PageTree) target(name *string) (string, error) {
	if name == nil {
		return "", FieldErrorf("page", "is required")
	}
	id := t.resolve(*name)
	if id == "" {
		return "", FieldErrorf("page", "no page %q in the change request's content", *name)
	}
	return id, nil
}

// place sets a page's parent and position from into/at.
func (t *PageTree) place(p *RevisionPage, setInto bool, into *string, at *int, isNew bool) error {
	parent := p.ParentID
	if setInto || isNew {
		parent = nil
		if into != nil {
			id := t.resolve(*into)
			if id == "" {
				return FieldErrorf("into", "no page %q in the change request's content", *into)
			}
			for a := &id; a != nil; {
				if *a == p.ID {
					return FieldErrorf("into", "a page cannot go inside itself or its subpages")
				}
				ap := t.get(*a)
				if ap == nil {
					break
				}
				a = ap.ParentID
			}
			parent = &id
		}
	}
	sibs := t.siblings(parent, p.ID)
	idx := len(sibs)
	if at != nil {
		if *at > len(sibs) {
			return FieldErrorf("at", "%d is past the end (the parent has %d other pages)", *at, len(sibs))
		}
		idx = *at
	}
	if isNew || !EqualPtr(p.ParentID, parent) {
		t.fresh[p.ID] = true
	}
	if !isNew {
		t.unindex(p)
	}
	p.ParentID, p.Position = parent, PositionAt(sibs, idx)
	if !isNew {
		t.put(p)
	}
	return nil
}

// setIfGiven sets a field a change gives (v not nil) and leaves it otherwise.
func setIfGiven[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func (t *PageTree) setFields(i int, p *RevisionPage, c PageChange) {
	// A new title changes the URL only of a page new in this batch (its slug follows the title
	// until given one); an existing page keeps its slug unless a slug is given.
	existed := t.Orig[p.ID] != nil
	_, explicit := t.explicitSlug[p.ID]
	if c.Title != nil {
		p.Title = *c.Title
		if c.Slug == nil && !existed && !explicit {
			p.Slug = Slugify(*c.Title)
			t.fresh[p.ID] = true
		}
	}
	if c.Slug != nil {
		p.Slug = *c.Slug
		t.explicitSlug[p.ID] = i
		t.fresh[p.ID] = true
	}
	optional := func(dst **string, v *string) {
		if v != nil {
			x := *v
			*dst = &x
			if x == "" {
				*dst = nil
			}
		}
	}
	optional(&p.Emoji, c.Emoji)
	optional(&p.Icon, c.Icon)
	optional(&p.Condition, c.Condition)
	setIfGiven(&p.Description, c.Description)
	setIfGiven(&p.Hidden, c.Hidden)
	setIfGiven(&p.NoIndex, c.NoIndex)
	setIfGiven(&p.NoRobotsIndex, c.NoRobotsIndex)
	if c.Markdown != nil {
		p.Markdown, p.BodyID = *c.Markdown, 0
	}
	if c.Target != nil {
		target := *c.Target
		p.Target = &target
	}
}

func (t *PageTree) deleteWithSubpages(id string) {
	t.touch(id)
	for _, c := range t.children(id) {
		t.deleteWithSubpages(c.ID)
	}
	t.remove(id)
}
