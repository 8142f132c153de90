package storetest

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strconv"
	"testing"

	"github.com/quire-docs/quire/store"
)

// A property test of the content model: random batches (insert, update, move, delete, and
// reverts that write a page's old content back), merges, updates from main and the conflicts
// they run into, on one space with several change requests. After every step every revision
// ever created is read back and compared with a plain in-memory model, which stores each
// revision whole: revisions are immutable, whatever was written after them.

type mPage struct {
	born     int // creation order: the model picks pages by it, so a seed gives one run
	parent   string
	position float64
	title    string
	slug     string
	md       string
}

type mRev struct {
	pages map[string]mPage
	files map[string]bool
}

func (r mRev) clone() mRev {
	c := mRev{pages: make(map[string]mPage, len(r.pages)), files: make(map[string]bool, len(r.files))}
	for k, v := range r.pages {
		c.pages[k] = v
	}
	for k := range r.files {
		c.files[k] = true
	}
	return c
}

func (r mRev) path(id string) string {
	p := r.pages[id]
	if p.parent == "" {
		return p.slug
	}
	return r.path(p.parent) + "/" + p.slug
}

// within reports whether page a is b or inside it.
func (r mRev) within(a, b string) bool {
	for ; a != ""; a = r.pages[a].parent {
		if a == b {
			return true
		}
	}
	return false
}

func (r mRev) endPosition(parent, except string) float64 {
	pos, any := 0.0, false
	for id, p := range r.pages {
		if id != except && p.parent == parent && (!any || p.position >= pos) {
			pos, any = p.position, true
		}
	}
	if !any {
		return 0
	}
	return pos + 1
}

func (r mRev) deleteTree(id string) {
	for cid, c := range r.pages {
		if c.parent == id {
			r.deleteTree(cid)
		}
	}
	delete(r.pages, id)
}

func (r mRev) ids() []string {
	out := make([]string, 0, len(r.pages))
	for id := range r.pages {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return r.pages[out[i]].born < r.pages[out[j]].born })
	return out
}

// modelMerge is the three-way merge as the model states it: field by field, a page deleted on
// one side must be unchanged on the other, a page must keep its parent and not end up inside
// itself. ok is false on a conflict.
func modelMerge(base, ours, theirs mRev) (mRev, bool) {
	out := mRev{pages: map[string]mPage{}, files: map[string]bool{}}
	for _, r := range []mRev{ours, theirs} {
		for f := range r.files {
			out.files[f] = true
		}
	}
	ids := map[string]bool{}
	for _, r := range []mRev{base, ours, theirs} {
		for id := range r.pages {
			ids[id] = true
		}
	}
	for id := range ids {
		b, inB := base.pages[id]
		o, inO := ours.pages[id]
		t, inT := theirs.pages[id]
		switch {
		case !inO && !inT:
		case !inB && inO && !inT:
			out.pages[id] = o
		case !inB && inT && !inO:
			out.pages[id] = t
		case inB && !inO:
			if t != b {
				return out, false
			}
		case inB && !inT:
			if o != b {
				return out, false
			}
		case !inB:
			if o != t {
				return out, false
			}
			out.pages[id] = o
		default:
			m := o
			pick := func(ov, tv, bv any, take func()) bool {
				switch {
				case ov == tv, tv == bv:
				case ov == bv:
					take()
				default:
					return false
				}
				return true
			}
			type loc struct {
				p string
				x float64
			}
			if !pick(loc{o.parent, o.position}, loc{t.parent, t.position}, loc{b.parent, b.position}, func() { m.parent, m.position = t.parent, t.position }) ||
				!pick(o.title, t.title, b.title, func() { m.title = t.title }) ||
				!pick(o.slug, t.slug, b.slug, func() { m.slug = t.slug }) ||
				!pick(o.md, t.md, b.md, func() { m.md = t.md }) {
				return out, false
			}
			out.pages[id] = m
		}
	}
	for id := range out.pages {
		seen := map[string]bool{id: true}
		for a := out.pages[id].parent; a != ""; a = out.pages[a].parent {
			if _, ok := out.pages[a]; !ok || seen[a] {
				return out, false
			}
			seen[a] = true
		}
	}
	return out, true
}

type modelWorld struct {
	t      *testing.T
	ctx    context.Context
	st     store.Store
	user   string
	space  string
	r      *rand.Rand
	revs   map[string]mRev
	order  []string // revisions in creation order
	main   string
	crs    []*mCR
	titles int
}

type mCR struct {
	id, base, rev string
}

func (w *modelWorld) record(rev string, m mRev) {
	if _, ok := w.revs[rev]; ok {
		w.t.Fatalf("revision %s written twice", rev)
	}
	w.revs[rev] = m
	w.order = append(w.order, rev)
}

func (w *modelWorld) title() string {
	w.titles++
	return fmt.Sprintf("Page %d", w.titles)
}

// batch applies random changes to a change request, in the store and in the model.
func (w *modelWorld) batch(cr *mCR) {
	m := w.revs[cr.rev].clone()
	var changes []store.PageChange
	type ins struct {
		ref string
		p   mPage
	}
	var inserted []ins
	var fileRefs []string
	for n := 1 + w.r.Intn(4); n > 0; n-- {
		ids := m.ids()
		op := w.r.Intn(11)
		if len(ids) == 0 {
			op = 0
		}
		switch {
		case op < 3: // insert, at the top level or into a page
			parent := ""
			if len(ids) > 0 && w.r.Intn(3) > 0 {
				parent = ids[w.r.Intn(len(ids))]
			}
			title := w.title()
			md := fmt.Sprintf("# %s\n\nbody %d\n", title, w.r.Intn(1000))
			ref := fmt.Sprintf("r%d", len(inserted))
			c := store.PageChange{Type: "insert_page", Ref: &ref, Title: &title, Markdown: &md, SetInto: true}
			if parent != "" {
				into := parent
				if isRef(into) {
					into = into[4:]
				}
				c.Into = &into
			}
			changes = append(changes, c)
			p := mPage{born: w.titles, parent: parent, position: m.endPosition(parent, ""), title: title, slug: store.Slugify(title), md: md}
			m.pages["ref:"+ref] = p
			inserted = append(inserted, ins{ref, p})
			continue
		case op < 5: // new content, or an old revision's content of the page written back
			id := ids[w.r.Intn(len(ids))]
			if isRef(id) {
				continue
			}
			md := fmt.Sprintf("edited %d\n", w.r.Intn(1000))
			if w.r.Intn(2) == 0 {
				old := w.revs[w.order[w.r.Intn(len(w.order))]]
				if p, ok := old.pages[id]; ok {
					md = p.md
				}
			}
			changes = append(changes, store.PageChange{Type: "update_page", Page: &id, Markdown: &md})
			p := m.pages[id]
			p.md = md
			m.pages[id] = p
		case op < 6: // rename
			id := ids[w.r.Intn(len(ids))]
			if isRef(id) {
				continue
			}
			// A new title alone keeps an existing page's slug (its URL); half the renames also
			// give a slug, unique so it collides with no sibling.
			title := w.title()
			c := store.PageChange{Type: "update_page", Page: &id, Title: &title}
			p := m.pages[id]
			p.title = title
			if w.r.Intn(2) == 0 {
				slug := store.Slugify(title) + "-r" + strconv.Itoa(w.r.Intn(1<<30))
				c.Slug, p.slug = &slug, slug
			}
			changes = append(changes, c)
			m.pages[id] = p
		case op < 8: // move into another page or to the top level
			id := ids[w.r.Intn(len(ids))]
			if isRef(id) {
				continue
			}
			parent := ""
			if w.r.Intn(3) > 0 {
				parent = ids[w.r.Intn(len(ids))]
				if isRef(parent) || m.within(parent, id) {
					continue
				}
			}
			c := store.PageChange{Type: "update_page", Page: &id, SetInto: true}
			if parent != "" {
				c.Into = &parent
			}
			changes = append(changes, c)
			p := m.pages[id]
			p.parent, p.position = parent, m.endPosition(parent, id)
			m.pages[id] = p
		case op < 9: // delete with subpages
			id := ids[w.r.Intn(len(ids))]
			if isRef(id) {
				continue
			}
			changes = append(changes, store.PageChange{Type: "delete_page", Page: &id})
			m.deleteTree(id)
		case op == 10: // revert_page: a page back to the change request's base, whole
			base := w.revs[cr.base]
			var cands []string
			for _, id := range ids {
				if !isRef(id) {
					cands = append(cands, id)
				}
			}
			for _, id := range base.ids() {
				if _, ok := m.pages[id]; !ok {
					cands = append(cands, id)
				}
			}
			if len(cands) == 0 {
				continue
			}
			id := cands[w.r.Intn(len(cands))]
			old, inBase := base.pages[id]
			if !inBase {
				changes = append(changes, store.PageChange{Type: "revert_page", Page: &id})
				m.deleteTree(id)
				continue
			}
			if old.parent != "" {
				if _, ok := m.pages[old.parent]; !ok || m.within(old.parent, id) {
					continue // refused by the store: the parent must be there, and not below the page
				}
			}
			changes = append(changes, store.PageChange{Type: "revert_page", Page: &id})
			m.pages[id] = old
		default: // a file
			ref := fmt.Sprintf("f%d", len(fileRefs))
			fileRefs = append(fileRefs, ref)
			changes = append(changes, store.PageChange{Type: "insert_files", Files: []store.FileUpload{{Ref: &ref, Name: ref + ".txt",
				ContentType: "text/plain", Data: []byte(fmt.Sprintf("file %d", w.r.Intn(5)))}}})
		}
	}
	res, err := w.st.UpdateChangeRequestContent(w.ctx, w.space, cr.id, w.user, changes)
	if err != nil {
		w.t.Fatalf("batch %+v: %v", changes, err)
	}
	rev, refs := res.Revision, res.Refs
	for _, in := range inserted {
		p, ok := m.pages["ref:"+in.ref]
		if !ok {
			continue // deleted again in the same batch
		}
		delete(m.pages, "ref:"+in.ref)
		m.pages[refs[in.ref]] = p
	}
	for id, p := range m.pages {
		if isRef(p.parent) {
			p.parent = refs[p.parent[4:]]
			m.pages[id] = p
		}
	}
	for _, f := range fileRefs {
		m.files[refs[f]] = true
	}
	cr.rev = rev
	w.record(rev, m)
}

func isRef(id string) bool { return len(id) > 4 && id[:4] == "ref:" }

func (w *modelWorld) merge(cr *mCR) bool {
	want, ok := modelMerge(w.revs[cr.base], w.revs[w.main], w.revs[cr.rev])
	rev, conflicts, err := w.st.MergeChangeRequest(w.ctx, w.space, cr.id, w.user)
	if err != nil {
		w.t.Fatalf("merge: %v", err)
	}
	if conflicts == ok {
		w.t.Fatalf("merge: store conflicts %v, model conflicts %v", conflicts, !ok)
	}
	if !ok {
		return false
	}
	w.record(rev, want)
	w.main = rev
	return true
}

func (w *modelWorld) update(cr *mCR) {
	if cr.base == w.main {
		return
	}
	want, ok := modelMerge(w.revs[cr.base], w.revs[cr.rev], w.revs[w.main])
	rev, err := w.st.UpdateChangeRequestFromMain(w.ctx, w.space, cr.id)
	if (err == nil) != ok {
		w.t.Fatalf("update from main: store error %v, model conflicts %v", err, !ok)
	}
	if !ok {
		if store.ErrorCode(err) != store.ECONFLICT {
			w.t.Fatalf("update from main: %v", err)
		}
		return
	}
	w.record(rev, want)
	cr.rev, cr.base = rev, w.main
}

// check reads every revision back and compares it with the model.
func (w *modelWorld) check(step int) {
	for _, rev := range w.order {
		m := w.revs[rev]
		got, err := w.st.FindRevision(w.ctx, w.space, rev)
		if err != nil {
			w.t.Fatalf("step %d: revision %s: %v", step, rev, err)
		}
		if len(got.Pages) != len(m.pages) {
			w.t.Fatalf("step %d: revision %s has %d pages, model %d", step, rev, len(got.Pages), len(m.pages))
		}
		ids := make([]string, 0, len(got.Pages))
		for _, p := range got.Pages {
			want, ok := m.pages[p.ID]
			parent := ""
			if p.ParentID != nil {
				parent = *p.ParentID
			}
			if !ok || parent != want.parent || p.Position != want.position || p.Title != want.title || p.Slug != want.slug || p.Path != m.path(p.ID) {
				w.t.Fatalf("step %d: revision %s page %s: %q %q %q %v %q, model %+v path %q", step, rev, p.ID, parent, p.Title, p.Slug, p.Position, p.Path, want, m.path(p.ID))
			}
			ids = append(ids, p.ID)
		}
		bodies, err := w.st.FindPagesWithBodies(w.ctx, rev, ids)
		if err != nil || len(bodies) != len(ids) {
			w.t.Fatalf("step %d: bodies of %s: %v", step, rev, err)
		}
		for _, p := range bodies {
			if p.Markdown != m.pages[p.ID].md {
				w.t.Fatalf("step %d: revision %s page %s markdown %q, model %q", step, rev, p.ID, p.Markdown, m.pages[p.ID].md)
			}
		}
		if len(ids) > 0 {
			id := ids[w.r.Intn(len(ids))]
			byPath, err := w.st.FindPageByPath(w.ctx, rev, m.path(id))
			if err != nil || byPath.ID != id || byPath.Markdown != m.pages[id].md {
				w.t.Fatalf("step %d: revision %s page at %q: %+v %v, want %s", step, rev, m.path(id), byPath, err, id)
			}
		}
		files, err := w.st.FindAllFiles(w.ctx, rev)
		if err != nil || len(files) != len(m.files) {
			w.t.Fatalf("step %d: revision %s has %d files (%v), model %d", step, rev, len(files), err, len(m.files))
		}
		for _, f := range files {
			if !m.files[f.ID] {
				w.t.Fatalf("step %d: revision %s has file %s the model lacks", step, rev, f.ID)
			}
		}
	}
}

// revisionsAgainstModel runs the property test for a few seeds.
func revisionsAgainstModel(t *testing.T, open Opener) {
	for seed := int64(1); seed <= modelSeeds; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			ctx := context.Background()
			st := open(t, nil)
			u := &store.User{Email: "model@example.com", DisplayName: "Model"}
			if _, err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			org, _ := st.CreateOrganization(ctx, "Acme", u.ID)
			sp, _ := st.CreateSpace(ctx, org.ID, u.ID, store.SpaceCreate{Title: "Docs"})
			w := &modelWorld{t: t, ctx: ctx, st: st, user: u.ID, space: sp.ID, r: rand.New(rand.NewSource(seed)),
				revs: map[string]mRev{}, main: sp.RevisionID}
			w.record(sp.RevisionID, mRev{pages: map[string]mPage{}, files: map[string]bool{}})
			merges, conflicts := 0, 0
			for step := 0; step < modelSteps; step++ {
				if len(w.crs) < 3 || w.r.Intn(8) == 0 {
					c, err := st.CreateChangeRequest(ctx, sp.ID, u.ID, "model")
					if err != nil {
						t.Fatal(err)
					}
					w.crs = append(w.crs, &mCR{id: c.ID, base: w.main, rev: w.main})
				}
				i := w.r.Intn(len(w.crs))
				cr := w.crs[i]
				switch k := w.r.Intn(10); {
				case k < 6:
					w.batch(cr)
				case k < 8:
					if w.merge(cr) {
						merges++
						w.crs = append(w.crs[:i], w.crs[i+1:]...)
					} else {
						conflicts++
					}
				default:
					w.update(cr)
				}
				w.check(step)
			}
			t.Logf("seed %d: %d revisions, %d merges, %d conflicting merges", seed, len(w.order), merges, conflicts)
		})
	}
}

// The size of the property test; raise them locally to search longer.
var modelSeeds, modelSteps = int64(3), 60
