package store

import (
	"sort"
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
	// tail caches the last page under a parent (in sibling order) once lastSibling found it; put
	// and unindex keep it true or drop it.
	tail map[string]*RevisionPage
	// srcPaths holds what Src answered for paths PreloadLinks asked at once (nil: no page).
	srcPaths map[string]*RevisionPage
	Err      error             // the first read that failed
	Refs     map[string]string // the batch's page refs, to the ids they were given
	// FileRefs and Files are what insert_files changes bring: the ids of the batch's file refs,
	// and the files (with their ids set) to add to the revision.
	FileRefs map[string]string
	Files    []FileUpload
	// DeletedFiles are the files delete_files changes remove.
	DeletedFiles []string
	now          time.Time
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
	// Reusable applies the batch's reusable-content changes; its Find reads the revision's
	// reusable contents (nil Find: the batch may hold none).
	Reusable ReusableEdit
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
		kids: map[string]bool{}, byParent: map[string]map[string]*RevisionPage{}, tail: map[string]*RevisionPage{}, Refs: map[string]string{}, FileRefs: map[string]string{},
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
	if last, ok := t.tail[key]; ok && after(p, last) {
		t.tail[key] = p
	}
}

func (t *PageTree) unindex(p *RevisionPage) {
	key := parentKey(p)
	delete(t.byParent[key], p.ID)
	if t.tail[key] == p {
		delete(t.tail, key)
	}
}

// after reports whether a comes after b among siblings (SortSiblings' order).
func after(a, b *RevisionPage) bool {
	return a.Position > b.Position || a.Position == b.Position && a.ID > b.ID
}

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

// loadAncestors loads the ancestors of pages of the tree a generation at a time: one read of
// the source per level of the tree, not one per page and level.
func (t *PageTree) loadAncestors(ids []string) {
	for level := ids; len(level) > 0 && t.Err == nil; {
		var parents []string
		seen := map[string]bool{}
		for _, id := range level {
			p := t.pages[id]
			if p == nil || p.ParentID == nil || seen[*p.ParentID] {
				continue
			}
			if _, loaded := t.pages[*p.ParentID]; loaded {
				continue
			}
			seen[*p.ParentID] = true
			parents = append(parents, *p.ParentID)
		}
		t.load(parents)
		level = parents
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
	t.loadChildren(parent)
	out := make([]*RevisionPage, 0, len(t.byParent[parent]))
	for _, p := range t.byParent[parent] {
		out = append(out, p)
	}
	return out
}

// lastSibling returns the last page under parent in sibling order (SortSiblings'), except one,
// nil when there is none: where a page appended at the end goes, without sorting the siblings.
func (t *PageTree) lastSibling(parent *string, except string) *RevisionPage {
	key := ""
	if parent != nil {
		key = *parent
	}
	t.loadChildren(key)
	if last, ok := t.tail[key]; ok && last.ID != except {
		return last
	}
	var last, lastOther *RevisionPage
	for _, p := range t.byParent[key] {
		if last == nil || after(p, last) {
			last = p
		}
		if p.ID != except && (lastOther == nil || after(p, lastOther)) {
			lastOther = p
		}
	}
	if last != nil {
		t.tail[key] = last
	}
	return lastOther
}

// loadChildren reads the pages under parent from the source once.
func (t *PageTree) loadChildren(parent string) {
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
	p, known := t.srcPaths[path]
	if !known {
		var err error
		if p, err = t.Src.ByPath(path, false); err != nil {
			t.Err = err
			return "", false
		}
	}
	if p == nil || t.gone[p.ID] {
		return "", false
	}
	if cur, ok := t.pages[p.ID]; ok && cur.Path != path {
		return "", false // moved away in this batch
	}
	return p.ID, true
}

// PathSource is a PageSource that also finds the pages at many paths in one read.
type PathSource interface {
	// ByPaths returns the pages at the given paths, by path (none for a path no page has).
	ByPaths(paths []string) (map[string]*RevisionPage, error)
}

// PreloadLinks reads at once what resolving links will ask the tree: the pages of ids and,
// when Src finds many paths in one read, the pages at paths. Resolution then reads nothing
// per link.
func (t *PageTree) PreloadLinks(ids, paths []string) {
	t.load(ids)
	src, ok := t.Src.(PathSource)
	if !ok || t.Err != nil {
		return
	}
	var need []string
	asked := map[string]bool{}
	for _, p := range paths {
		if _, known := t.srcPaths[p]; !known && !asked[p] {
			asked[p] = true
			need = append(need, p)
		}
	}
	if len(need) == 0 {
		return
	}
	found, err := src.ByPaths(need)
	if err != nil {
		t.Err = err
		return
	}
	if t.srcPaths == nil {
		t.srcPaths = make(map[string]*RevisionPage, len(need))
	}
	for _, p := range need {
		t.srcPaths[p] = found[p]
	}
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
