package store

import "sort"

// How a PageTree reads its source revision lazily, and what it reports it changed.

func parentKey(p *RevisionPage) string {
	if p.ParentID == nil {
		return ""
	}
	return *p.ParentID
}

// adopt takes a page read from src into the tree, unless the tree already has it or deleted it.
func (t *PageTree) adopt(p *RevisionPage) {
	if _, ok := t.pages[p.ID]; ok || t.gone[p.ID] {
		return
	}
	t.Orig[p.ID] = p
	t.put(p.Clone())
}

// put puts a page into the tree, indexed under its parent.
func (t *PageTree) put(p *RevisionPage) {
	if old := t.pages[p.ID]; old != nil {
		t.unindex(old)
	}
	t.pages[p.ID] = p
	key := parentKey(p)
	if t.byParent[key] == nil {
		t.byParent[key] = map[string]*RevisionPage{}
	}
	t.byParent[key][p.ID] = p
}

func (t *PageTree) unindex(p *RevisionPage) { delete(t.byParent[parentKey(p)], p.ID) }

// load reads pages of src by id into the tree.
func (t *PageTree) load(ids []string) {
	if t.Src == nil || t.Err != nil {
		return
	}
	var need []string
	for _, id := range ids {
		_, loaded := t.pages[id]
		_, known := t.Orig[id]
		if !loaded && !t.gone[id] && !known {
			need = append(need, id)
		}
	}
	if len(need) == 0 {
		return
	}
	found, err := t.Src.Pages(need, false)
	if err != nil {
		t.Err = err
		return
	}
	for _, id := range need {
		if p := found[id]; p != nil {
			t.adopt(p)
		} else {
			t.Orig[id] = nil
		}
	}
}

// get returns a page of the tree, nil when there is none.
func (t *PageTree) get(id string) *RevisionPage {
	if p, ok := t.pages[id]; ok {
		return p
	}
	if t.gone[id] {
		return nil
	}
	if _, known := t.Orig[id]; known {
		return nil
	}
	t.load([]string{id})
	return t.pages[id]
}

// children returns the pages under a parent ("" the top level), unordered.
func (t *PageTree) children(parent string) []*RevisionPage {
	if !t.kids[parent] && t.Src != nil && t.Err == nil {
		var p *string
		if parent != "" {
			p = &parent
		}
		list, err := t.Src.Children(p)
		if err != nil {
			t.Err = err
		} else {
			for _, c := range list {
				t.adopt(c)
			}
		}
	}
	t.kids[parent] = true
	out := make([]*RevisionPage, 0, len(t.byParent[parent]))
	for _, p := range t.byParent[parent] {
		out = append(out, p)
	}
	return out
}

// remove deletes one page from the tree (not its subpages).
func (t *PageTree) remove(id string) {
	if t.Orig[id] != nil {
		t.gone[id] = true
	}
	if p := t.pages[id]; p != nil {
		t.unindex(p)
	}
	delete(t.pages, id)
}

// set puts a page into the tree as given (a merge's result).
func (t *PageTree) set(p *RevisionPage) {
	t.get(p.ID)
	delete(t.gone, p.ID)
	t.put(p)
}

// HasPage and PathID resolve links against the tree.
func (t *PageTree) HasPage(id string) bool { return t.get(id) != nil }

// PathID returns the page at a path of the tree, as the batch left it.
func (t *PageTree) PathID(path string) (string, bool) {
	for _, p := range t.pages {
		if p.Path == path {
			return p.ID, true
		}
	}
	if t.Src == nil || t.Err != nil {
		return "", false
	}
	p, err := t.Src.ByPath(path, false)
	if err != nil {
		t.Err = err
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

// Result returns what the tree changed against src: pages added or changed, and pages deleted
// (as src held them).
func (t *PageTree) Result() (changed, deleted []*RevisionPage) {
	for id, p := range t.pages {
		if o := t.Orig[id]; o == nil || !SameRow(p, o) {
			changed = append(changed, p)
		}
	}
	for id := range t.gone {
		deleted = append(deleted, t.Orig[id])
	}
	sort.Slice(changed, func(i, j int) bool { return changed[i].ID < changed[j].ID })
	sort.Slice(deleted, func(i, j int) bool { return deleted[i].ID < deleted[j].ID })
	return changed, deleted
}
