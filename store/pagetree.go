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

// pageTree is a revision's pages being edited: by id, with the batch's refs.
type pageTree struct {
	pages map[string]*RevisionPage
	refs  map[string]string
	// fileRefs and files are what insert_files changes bring: the ids of the batch's file refs,
	// and the files (with their ids set) to add to the revision.
	fileRefs map[string]string
	files    []FileUpload
	now      time.Time
	// fresh holds the pages the batch inserted, moved or gave a new slug: when slugs collide
	// they give way, so a page the batch left alone keeps its path.
	fresh map[string]bool
}

func newPageTree(pages []*RevisionPage, now time.Time) *pageTree {
	t := &pageTree{pages: make(map[string]*RevisionPage, len(pages)), refs: map[string]string{}, fileRefs: map[string]string{}, now: now, fresh: map[string]bool{}}
	for _, p := range pages {
		t.pages[p.ID] = p.clone()
	}
	return t
}

// resolve returns the id of a page named by ref or id, or "" when there is none.
func (t *pageTree) resolve(name string) string {
	if id, ok := t.refs[name]; ok {
		return id
	}
	if _, ok := t.pages[name]; ok {
		return name
	}
	return ""
}

// siblings returns the children of a parent ("" for the top level) in order, without except.
func (t *pageTree) siblings(parent *string, except string) []*RevisionPage {
	var out []*RevisionPage
	for _, p := range t.pages {
		if p.ID != except && equalPtr(p.ParentID, parent) {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Position != out[j].Position {
			return out[i].Position < out[j].Position
		}
		return out[i].ID < out[j].ID
	})
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
		if err := t.applyOne(c); err != nil {
			return Errorf(EINVALID, "changes[%d] (%s): %s", i, c.Type, err.Error())
		}
	}
	t.normalize()
	return nil
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
		t.pages[p.ID] = p
		return nil
	case "update_page":
		if c.Ref != nil {
			return fmt.Errorf("ref is only given when inserting")
		}
		id, err := t.target(c.Page)
		if err != nil {
			return err
		}
		p := t.pages[id]
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
			for a := &id; a != nil; a = t.pages[*a].ParentID {
				if *a == p.ID {
					return fmt.Errorf("into: a page cannot go inside itself or its subpages")
				}
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
	p.ParentID, p.Position = parent, positionAt(sibs, idx)
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
	delete(t.pages, id)
	for cid, c := range t.pages {
		if c.ParentID != nil && *c.ParentID == id {
			t.deleteWithSubpages(cid)
		}
	}
}

// normalize makes slugs unique among siblings (a -2, -3… suffix on later ones, fresh pages after
// the others) and recomputes every path from the slugs.
func (t *pageTree) normalize() {
	ordered := treeOrder(t.list())
	used := map[string]map[string]bool{}
	for _, fresh := range []bool{false, true} {
		for _, p := range ordered {
			if t.fresh[p.ID] != fresh {
				continue
			}
			parent := ""
			if p.ParentID != nil {
				parent = *p.ParentID
			}
			if used[parent] == nil {
				used[parent] = map[string]bool{}
			}
			if p.Slug == "" {
				p.Slug = Slugify(p.Title)
			}
			slug := p.Slug
			for n := 2; used[parent][slug]; n++ {
				slug = p.Slug + "-" + strconv.Itoa(n)
			}
			used[parent][slug] = true
			p.Slug = slug
		}
	}
	for _, p := range ordered {
		if p.ParentID == nil {
			p.Path = p.Slug
		} else {
			p.Path = t.pages[*p.ParentID].Path + "/" + p.Slug
		}
	}
}

func (t *pageTree) list() []*RevisionPage {
	out := make([]*RevisionPage, 0, len(t.pages))
	for _, p := range t.pages {
		out = append(out, p)
	}
	return out
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
