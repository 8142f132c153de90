package store

// Applying a content batch to a PageTree: each change checked, placed and recorded, or the whole
// batch refused naming the change at fault (the tree itself, its index and its reads: pagetree.go).

import "fmt"

// Apply applies a batch of changes in order; an invalid change fails the whole batch with an
// EINVALID error naming the change (changes[i], or changes[i].field) and why.
func (t *PageTree) Apply(changes []PageChange) error {
	if t.Reusable.Now.IsZero() {
		t.Reusable.Now = t.now
	}
	if t.preloadNamed(changes); t.Err != nil {
		return t.Err
	}
	for i, c := range changes {
		if IsReusableChange(c.Type) {
			if t.Reusable.Find == nil {
				return ChangeError(i, FieldErrorf("operation", "%q is not taken here", c.Type))
			}
			continue
		}
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
	if t.Reusable.Find == nil {
		return nil
	}
	return t.Reusable.Apply(changes)
}

// preloadNamed reads the pages a batch names (the pages it changes and the parents it moves
// pages into) in one read of the source, before the changes are applied: each change read its
// own, a statement per element of the revision's chain for every page (issue 31). A name that is
// a ref of the batch reads as no page of the source, which it is not; refs are resolved first.
func (t *PageTree) preloadNamed(changes []PageChange) {
	var names []string
	seen := map[string]bool{}
	for _, c := range changes {
		for _, n := range []*string{c.Page, c.Into} {
			if n != nil && !seen[*n] {
				seen[*n] = true
				names = append(names, *n)
			}
		}
	}
	t.load(names)
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
	case "delete_files":
		if len(c.FileIDs) == 0 {
			return FieldErrorf("files", "is required")
		}
		t.DeletedFiles = append(t.DeletedFiles, c.FileIDs...)
		return nil
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
	// At the end (no index): after the last sibling, found without sorting them all, so a batch
	// appending many pages costs as many passes as pages, not sorts.
	var position float64
	if at == nil {
		if last := t.lastSibling(parent, p.ID); last != nil {
			position = last.Position + 1
		}
	} else {
		sibs := t.siblings(parent, p.ID)
		if *at > len(sibs) {
			return FieldErrorf("at", "%d is past the end (the parent has %d other pages)", *at, len(sibs))
		}
		position = PositionAt(sibs, *at)
	}
	if isNew || !EqualPtr(p.ParentID, parent) {
		t.fresh[p.ID] = true
	}
	if !isNew {
		t.unindex(p)
	}
	p.ParentID, p.Position = parent, position
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
	optional(&p.LinkTitle, c.LinkTitle)
	if c.SetCover {
		p.Cover = nil
		if c.Cover != nil {
			cv := *c.Cover
			p.Cover = &cv
		}
	}
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
