package store

import (
	"sort"
	"strconv"
)

// Normalising a page tree after a batch: positions, slugs and paths.

// normalize makes slugs unique among the siblings of fresh pages (a -2, -3… suffix on later
// ones, fresh pages after the others) and recomputes the paths of fresh pages and, where a path
// changed, of their subpages. Only the parents of fresh pages and the moved subtrees are read.
func (t *PageTree) normalize() { _, _ = t.normalizeBatch() }

// normalizeBatch is normalize for a batch: a slug the batch gave explicitly does not give way to
// another page's; when it collides, the index of the change that gave it is returned with an
// error, and the tree is left half done.
func (t *PageTree) normalizeBatch() (int, error) {
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
	// Untouched pages first, then those given an explicit slug, then the other fresh pages.
	rank := func(p *RevisionPage) int {
		if _, ok := t.explicitSlug[p.ID]; ok {
			return 1
		}
		if t.fresh[p.ID] {
			return 2
		}
		return 0
	}
	renamed := map[string]bool{}
	for _, parent := range keys {
		sibs := t.children(parent)
		SortSiblings(sibs)
		used := map[string]bool{}
		for r := 0; r < 3; r++ {
			for _, p := range sibs {
				if rank(p) != r {
					continue
				}
				if p.Slug == "" {
					p.Slug = Slugify(p.Title)
				}
				if r == 1 && used[p.Slug] {
					return t.explicitSlug[p.ID], FieldErrorf("slug", "%q is already the slug of a sibling page", p.Slug)
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
	return 0, nil
}

// fixPath recomputes a page's path from its parent's, and its subpages' when it changed.
func (t *PageTree) fixPath(p *RevisionPage, seen map[string]bool) {
	if seen[p.ID] || t.Err != nil {
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
