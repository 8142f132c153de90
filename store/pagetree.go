package store

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// PageChange is one change of a content batch. Type is insert_page, update_page or delete_page.
type PageChange struct {
	Type        string
	Ref         *string
	Page        *string // update_page, delete_page: the page's id or a ref of the batch
	Title       *string
	Slug        *string
	Emoji       *string
	Description *string
	Hidden      *bool
	Markdown    *string
	SetInto     bool         // Into was given: nil is the top level
	Into        *string      // the parent page's id or a ref of the batch
	Files       []FileUpload // insert_files
	At          *int         // index among the new siblings; nil: the end
}

// pageTree is a revision's pages being edited: loaded lazily from the revision it starts from
// (only the pages a change reaches: by id, a parent's children, a subtree), with the batch's refs.
// What it changes is told apart from what it only read by comparing with the loaded rows.
type pageTree struct {
	src   *view                    // the revision the tree starts from; nil: none
	pages map[string]*RevisionPage // the loaded pages as they are now
	orig  map[string]*RevisionPage // the loaded pages as src holds them
	gone  map[string]bool          // pages of src deleted
	kids  map[string]bool          // parents ("" the top level) whose children are loaded
	// byParent indexes the loaded pages by parent id ("" the top level); put keeps it.
	byParent map[string]map[string]*RevisionPage
	err      error // the first read that failed
	refs     map[string]string
	// fileRefs and files are what insert_files changes bring: the ids of the batch's file refs,
	// and the files (with their ids set) to add to the revision.
	fileRefs map[string]string
	files    []FileUpload
	now      time.Time
	// fresh holds the pages the batch inserted, moved or gave a new slug: when slugs collide
	// they give way, so a page the batch left alone keeps its path.
	fresh map[string]bool
}

func newPageTree(src *view, now time.Time) *pageTree {
	return &pageTree{src: src, pages: map[string]*RevisionPage{}, orig: map[string]*RevisionPage{}, gone: map[string]bool{},
		kids: map[string]bool{}, byParent: map[string]map[string]*RevisionPage{}, refs: map[string]string{}, fileRefs: map[string]string{}, now: now, fresh: map[string]bool{}}
}

// resolve returns the id of a page named by ref or id, or "" when there is none.
func (t *pageTree) resolve(name string) string {
	if id, ok := t.refs[name]; ok {
		return id
	}
	if t.get(name) != nil {
		return name
	}
	return ""
}

// siblings returns the children of a parent (nil for the top level) in order, without except.
func (t *pageTree) siblings(parent *string, except string) []*RevisionPage {
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
	sortSiblings(out)
	return out
}

// positionAt returns the position that places a page at index at among siblings.
func positionAt(sibs []*RevisionPage, at int) float64 {
	switch {
	case len(sibs) == 0:
		return 0
	case at <= 0:
		return sibs[0].Position - 1
	case at >= len(sibs):
		return sibs[len(sibs)-1].Position + 1
	}
	lo, hi := sibs[at-1].Position, sibs[at].Position
	if mid := lo + (hi-lo)/2; lo < mid && mid < hi {
		return mid
	}
	// The gap is worn out (a float halves only so often): spread the siblings out again.
	for i, s := range sibs {
		s.Position = float64(i)
	}
	return float64(at) - 0.5
}

// apply applies a batch of changes in order; an invalid change fails the whole batch with an
// EINVALID error saying which change and why.
func (t *pageTree) apply(changes []PageChange) error {
	for i, c := range changes {
		err := t.applyOne(c)
		if t.err != nil {
			return t.err
		}
		if err != nil {
			return Errorf(EINVALID, "changes[%d] (%s): %s", i, c.Type, err.Error())
		}
	}
	t.normalize()
	return t.err
}

// MaxFileSize is the largest file an insert_files change takes.
const MaxFileSize = 1 << 20

func (t *pageTree) applyOne(c PageChange) error {
	if c.Type != "insert_files" && c.Files != nil {
		return fmt.Errorf("files is only given with insert_files")
	}
	switch c.Type {
	case "insert_page":
		if c.Page != nil {
			return fmt.Errorf("page is not given when inserting")
		}
		if c.Title == nil {
			return fmt.Errorf("title is required")
		}
		p := &RevisionPage{ID: NewID(), Title: *c.Title, CreatedAt: t.now, UpdatedAt: t.now}
		if c.Ref != nil {
			if _, dup := t.fileRefs[*c.Ref]; dup {
				return fmt.Errorf("ref %q already names a file of this batch", *c.Ref)
			}
			if _, dup := t.refs[*c.Ref]; dup {
				return fmt.Errorf("ref %q is already used in this batch", *c.Ref)
			}
			t.refs[*c.Ref] = p.ID
		}
		if err := t.place(p, c.SetInto, c.Into, c.At, true); err != nil {
			return err
		}
		t.setFields(p, c)
		t.put(p)
		t.kids[p.ID] = true // a new page has no subpages in the revision it starts from
		return nil
	case "update_page":
		if c.Ref != nil {
			return fmt.Errorf("ref is only given when inserting")
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
		t.setFields(p, c)
		p.UpdatedAt = t.now
		return nil
	case "delete_page":
		id, err := t.target(c.Page)
		if err != nil {
			return err
		}
		t.deleteWithSubpages(id)
		return nil
	case "insert_files":
		if len(c.Files) == 0 {
			return fmt.Errorf("files is required")
		}
		for i, f := range c.Files {
			if len(f.Data) > MaxFileSize {
				return fmt.Errorf("files[%d]: %q is %d bytes, over the 1 MiB limit", i, f.Name, len(f.Data))
			}
			f.ID = NewID()
			if f.Ref != nil {
				if _, dup := t.fileRefs[*f.Ref]; dup {
					return fmt.Errorf("files[%d]: ref %q is already used in this batch", i, *f.Ref)
				}
				if _, dup := t.refs[*f.Ref]; dup {
					return fmt.Errorf("files[%d]: ref %q already names a page of this batch", i, *f.Ref)
				}
				t.fileRefs[*f.Ref] = f.ID
			}
			t.files = append(t.files, f)
		}
		return nil
	}
	return fmt.Errorf("unknown change type")
}

func (t *pageTree) target(name *string) (string, error) {
	if name == nil {
		return "", fmt.Errorf("page is required")
	}
	id := t.resolve(*name)
	if id == "" {
		return "", fmt.Errorf("no page %q in the change request's content", *name)
	}
	return id, nil
}

// place sets a page's parent and position from into/at.
func (t *pageTree) place(p *RevisionPage, setInto bool, into *string, at *int, isNew bool) error {
	parent := p.ParentID
	if setInto || isNew {
		parent = nil
		if into != nil {
			id := t.resolve(*into)
			if id == "" {
				return fmt.Errorf("into: no page %q in the change request's content", *into)
			}
			for a := &id; a != nil; {
				if *a == p.ID {
					return fmt.Errorf("into: a page cannot go inside itself or its subpages")
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
			return fmt.Errorf("at: %d is past the end (the parent has %d other pages)", *at, len(sibs))
		}
		idx = *at
	}
	if isNew || !equalPtr(p.ParentID, parent) {
		t.fresh[p.ID] = true
	}
	if !isNew {
		t.unindex(p)
	}
	p.ParentID, p.Position = parent, positionAt(sibs, idx)
	if !isNew {
		t.put(p)
	}
	return nil
}

func (t *pageTree) setFields(p *RevisionPage, c PageChange) {
	if c.Title != nil {
		p.Title = *c.Title
		if c.Slug == nil {
			p.Slug = Slugify(*c.Title)
		}
	}
	if c.Slug != nil {
		p.Slug = *c.Slug
	}
	if c.Title != nil || c.Slug != nil {
		t.fresh[p.ID] = true
	}
	if c.Emoji != nil {
		e := *c.Emoji
		p.Emoji = &e
		if e == "" {
			p.Emoji = nil
		}
	}
	if c.Description != nil {
		p.Description = *c.Description
	}
	if c.Hidden != nil {
		p.Hidden = *c.Hidden
	}
	if c.Markdown != nil {
		p.Markdown, p.BodyID = *c.Markdown, 0
	}
}

func (t *pageTree) deleteWithSubpages(id string) {
	for _, c := range t.children(id) {
		t.deleteWithSubpages(c.ID)
	}
	t.remove(id)
}

// normalize makes slugs unique among the siblings of fresh pages (a -2, -3… suffix on later
// ones, fresh pages after the others) and recomputes the paths of fresh pages and, where a path
// changed, of their subpages. Only the parents of fresh pages and the moved subtrees are read.
func (t *pageTree) normalize() {
	var fresh []*RevisionPage
	parents := map[string]bool{}
	for id := range t.fresh {
		p := t.pages[id]
		if p == nil {
			continue
		}
		fresh = append(fresh, p)
		key := ""
		if p.ParentID != nil {
			key = *p.ParentID
		}
		parents[key] = true
	}
	keys := make([]string, 0, len(parents))
	for k := range parents {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	renamed := map[string]bool{}
	for _, parent := range keys {
		sibs := t.children(parent)
		sortSiblings(sibs)
		used := map[string]bool{}
		for _, isFresh := range []bool{false, true} {
			for _, p := range sibs {
				if t.fresh[p.ID] != isFresh {
					continue
				}
				if p.Slug == "" {
					p.Slug = Slugify(p.Title)
				}
				slug := p.Slug
				for n := 2; used[slug]; n++ {
					slug = p.Slug + "-" + strconv.Itoa(n)
				}
				used[slug] = true
				if slug != p.Slug {
					renamed[p.ID] = true
				}
				p.Slug = slug
			}
		}
	}
	for id := range renamed {
		if !t.fresh[id] {
			fresh = append(fresh, t.pages[id])
		}
	}
	sort.Slice(fresh, func(i, j int) bool { return fresh[i].ID < fresh[j].ID })
	for _, p := range fresh {
		t.fixPath(p, map[string]bool{})
	}
}

// fixPath recomputes a page's path from its parent's, and its subpages' when it changed.
func (t *pageTree) fixPath(p *RevisionPage, seen map[string]bool) {
	if seen[p.ID] || t.err != nil {
		return
	}
	seen[p.ID] = true
	path := p.Slug
	if p.ParentID != nil {
		parent := t.get(*p.ParentID)
		if parent == nil {
			return
		}
		path = parent.Path + "/" + p.Slug
	}
	// A fresh page's subpages are looked at even when its path is what it was: a merge may have
	// put them back where main had them while the page came from the other side.
	if path == p.Path && !t.fresh[p.ID] {
		return
	}
	p.Path = path
	for _, c := range t.children(p.ID) {
		t.fixPath(c, seen)
	}
}

// Slugify derives a URL slug from a title: lower-case letters and digits joined by hyphens,
// accents dropped.
func Slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(title) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		default:
			dash = true
		}
		if b.Len() >= 100 {
			break
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 100 {
		s = strings.Trim(s[:100], "-")
	}
	if s == "" {
		return "page"
	}
	return s
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
