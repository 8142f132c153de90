package sqlite

import (
	"sort"

	"github.com/quire-docs/quire/store"
)

// How a pageTree reads its source revision lazily, and what it reports it changed.

// adopt takes a page read from src into the tree, unless the tree already has it or deleted it.
func (t *pageTree) adopt(p *store.RevisionPage) {
	if _, ok := t.pages[p.ID]; ok || t.gone[p.ID] {
		return
	}
	t.orig[p.ID] = p
	t.put(p.Clone())
}

// put puts a page into the tree, indexed under its parent.
func (t *pageTree) put(p *store.RevisionPage) {
	if old := t.pages[p.ID]; old != nil {
		t.unindex(old)
	}
	t.pages[p.ID] = p
	key := parentKey(p)
	if t.byParent[key] == nil {
		t.byParent[key] = map[string]*store.RevisionPage{}
	}
	t.byParent[key][p.ID] = p
}

func (t *pageTree) unindex(p *store.RevisionPage) { delete(t.byParent[parentKey(p)], p.ID) }

func parentKey(p *store.RevisionPage) string {
	if p.ParentID == nil {
		return ""
	}
	return *p.ParentID
}

// load reads pages of src by id into the tree.
func (t *pageTree) load(ids []string) {
	if t.src == nil || t.err != nil {
		return
	}
	var need []string
	for _, id := range ids {
		_, loaded := t.pages[id]
		_, known := t.orig[id]
		if !loaded && !t.gone[id] && !known {
			need = append(need, id)
		}
	}
	if len(need) == 0 {
		return
	}
	found, err := t.src.pages(need, false)
	if err != nil {
		t.err = err
		return
	}
	for _, id := range need {
		if p := found[id]; p != nil {
			t.adopt(p)
		} else {
			t.orig[id] = nil
		}
	}
}

// get returns a page of the tree, nil when there is none.
func (t *pageTree) get(id string) *store.RevisionPage {
	if p, ok := t.pages[id]; ok {
		return p
	}
	if t.gone[id] {
		return nil
	}
	if _, known := t.orig[id]; known {
		return nil
	}
	t.load([]string{id})
	return t.pages[id]
}

// children returns the pages under a parent ("" the top level), unordered.
func (t *pageTree) children(parent string) []*store.RevisionPage {
	if !t.kids[parent] && t.src != nil && t.err == nil {
		var p *string
		if parent != "" {
			p = &parent
		}
		list, err := t.src.children(p)
		if err != nil {
			t.err = err
		} else {
			for _, c := range list {
				t.adopt(c)
			}
		}
	}
	t.kids[parent] = true
	out := make([]*store.RevisionPage, 0, len(t.byParent[parent]))
	for _, p := range t.byParent[parent] {
		out = append(out, p)
	}
	return out
}

// remove deletes one page from the tree (not its subpages).
func (t *pageTree) remove(id string) {
	if t.orig[id] != nil {
		t.gone[id] = true
	}
	if p := t.pages[id]; p != nil {
		t.unindex(p)
	}
	delete(t.pages, id)
}

// set puts a page into the tree as given (a merge's result).
func (t *pageTree) set(p *store.RevisionPage) {
	t.get(p.ID)
	delete(t.gone, p.ID)
	t.put(p)
}

// HasPage and PathID resolve links against the tree.
func (t *pageTree) HasPage(id string) bool { return t.get(id) != nil }

func (t *pageTree) PathID(path string) (string, bool) {
	for _, p := range t.pages {
		if p.Path == path {
			return p.ID, true
		}
	}
	if t.src == nil || t.err != nil {
		return "", false
	}
	p, err := t.src.byPath(path, false)
	if err != nil {
		t.err = err
		return "", false
	}
	if p == nil || t.gone[p.ID] {
		return "", false
	}
	if cur, ok := t.pages[p.ID]; ok && cur.Path != path {
		return "", false // moved away in this batch
	}
	return p.ID, true
}

// result returns what the tree changed against src: pages added or changed, and pages deleted
// (as src held them).
func (t *pageTree) result() (changed, deleted []*store.RevisionPage) {
	for id, p := range t.pages {
		if o := t.orig[id]; o == nil || !store.SameRow(p, o) {
			changed = append(changed, p)
		}
	}
	for id := range t.gone {
		deleted = append(deleted, t.orig[id])
	}
	sort.Slice(changed, func(i, j int) bool { return changed[i].ID < changed[j].ID })
	sort.Slice(deleted, func(i, j int) bool { return deleted[i].ID < deleted[j].ID })
	return changed, deleted
}

// replaced returns the rows of line that pages changed or deleted by the tree were read from.
func (t *pageTree) replaced(line int64, changed, deleted []*store.RevisionPage) []int64 {
	var out []int64
	for _, list := range [][]*store.RevisionPage{changed, deleted} {
		for _, p := range list {
			if o := t.orig[p.ID]; o != nil && o.Stored.Version != 0 && o.Stored.Line == line {
				out = append(out, o.Stored.Version)
			}
		}
	}
	// A page back on the line that deleted it (revert_page): its tombstone ends here.
	if t.src != nil {
		for _, p := range changed {
			if tomb := t.src.tombs[p.ID]; tomb != nil && t.orig[p.ID] == nil && tomb.Stored.Line == line {
				out = append(out, tomb.Stored.Version)
			}
		}
	}
	return out
}
