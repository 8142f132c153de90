package gitsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/quire-docs/quire/store"
)

// An import that replaces a space's pages (a git import or pull) matches them with the pages the
// space has, so that a page keeps its id — and with it its comments, links and history — across
// pulls: by its file first, then by its content when its file moved (same blob, new path), then by
// its path in the space (same kind). A matched page is updated with what changed of it and placed
// where the import has it; the import's other pages are inserted, and the space's pages left
// unmatched (their file is gone) are deleted. Files are matched by their bytes (and name): a file
// kept keeps its id, so the markdown linking to it does not change.

// KnownFile is the file a page of the revision replaced was read from or written to (relative to
// the directory the import reads) and its blob.
type KnownFile struct{ File, Blob string }

// bodyReader reads the pages matched, with their bodies.
type bodyReader interface {
	FindPagesWithBodies(ctx context.Context, revisionID string, ids []string) ([]*store.RevisionPage, error)
}

// replacePlan is how an import replaces a revision's pages.
type replacePlan struct {
	changes []store.PageChange             // one per import page (an insert or an update), then the deletes
	matched map[string]string              // import page ref → the id of the page it updates
	old     map[string]*store.RevisionPage // matched page id → the page in the revision (with its body)
}

// planReplace matches the import's pages with the revision's (known: page id → its file;
// blobs: the import's file → its blob).
func planReplace(ctx context.Context, st bodyReader, rev *store.Revision, im *Import, known map[string]KnownFile, blobs map[string]string) (*replacePlan, error) {
	byID := make(map[string]*store.RevisionPage, len(rev.Pages))
	order := make(map[string]int, len(rev.Pages)) // tree order: siblings come in their order
	byFile, byBlob, byPath := map[string]string{}, map[string][]string{}, map[string]string{}
	for i, p := range rev.Pages {
		byID[p.ID], order[p.ID] = p, i
		byPath[p.Path] = p.ID
		if k, ok := known[p.ID]; ok && p.Kind() == store.PageDocument {
			byFile[k.File] = p.ID
			if k.Blob != "" {
				byBlob[k.Blob] = append(byBlob[k.Blob], p.ID)
			}
		}
	}
	paths := make([]string, len(im.Pages))
	for i, p := range im.Pages {
		paths[i] = p.Slug
		if p.Parent >= 0 {
			paths[i] = paths[p.Parent] + "/" + p.Slug
		}
	}
	plan := &replacePlan{matched: map[string]string{}, old: map[string]*store.RevisionPage{}}
	taken := map[string]bool{}
	take := func(p *ImportPage, id string) bool {
		if id == "" || taken[id] || plan.matched[p.Ref] != "" || byID[id].Kind() != importKind(p) {
			return false
		}
		taken[id], plan.matched[p.Ref] = true, id
		return true
	}
	for _, p := range im.Pages { // the same file
		if p.File != "" {
			take(p, byFile[p.File])
		}
	}
	for _, p := range im.Pages { // a file moved: the same content
		if p.File != "" && plan.matched[p.Ref] == "" {
			for _, id := range byBlob[blobs[p.File]] {
				if take(p, id) {
					break
				}
			}
		}
	}
	for i, p := range im.Pages { // the same path in the space
		if plan.matched[p.Ref] == "" {
			take(p, byPath[paths[i]])
		}
	}
	ids := make([]string, 0, len(plan.matched))
	for _, id := range plan.matched {
		ids = append(ids, id)
	}
	for start := 0; start < len(ids); start += 200 {
		pages, err := st.FindPagesWithBodies(ctx, rev.ID, ids[start:min(start+200, len(ids))])
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			plan.old[p.ID] = p
		}
	}

	// Where each page goes: under its parent's id when the parent is matched, its ref when new.
	into := func(p *ImportPage) *string {
		if p.Parent < 0 {
			return nil
		}
		parent := im.Pages[p.Parent]
		if id := plan.matched[parent.Ref]; id != "" {
			return ptr(id)
		}
		return ptr(parent.Ref)
	}
	// A group of siblings is placed again (each appended in the import's order) unless its
	// matched pages are in the same parent and order as they were and its new pages come last.
	place := map[string]bool{}
	type state struct {
		last   int
		newSet bool
	}
	groups := map[string]*state{}
	for _, p := range im.Pages {
		key := ""
		if to := into(p); to != nil {
			key = *to
		}
		g := groups[key]
		if g == nil {
			g = &state{last: -1}
			groups[key] = g
		}
		id := plan.matched[p.Ref]
		if id == "" {
			g.newSet = true
			continue
		}
		parent := ""
		if op := byID[id].ParentID; op != nil {
			parent = *op
		}
		if parent != key || g.newSet || order[id] < g.last {
			place[key] = true
		}
		g.last = order[id]
	}

	plan.changes = pageChanges(im, map[string]bool{})
	for i, p := range im.Pages {
		c := &plan.changes[i]
		if p.Kind == KindLink && p.LinkPage != "" && p.LinkSpace == "" {
			if id := plan.matched[p.LinkPage]; id != "" {
				c.Target.Page = id
			}
		}
		to := into(p)
		id := plan.matched[p.Ref]
		if id == "" {
			c.Into = to
			continue
		}
		key := ""
		if to != nil {
			key = *to
		}
		*c = updateChange(id, plan.old[id], c, place[key], to)
	}
	// The pages whose file is gone; a page under one of them goes with it.
	for _, p := range rev.Pages {
		if taken[p.ID] || p.ParentID != nil && !taken[*p.ParentID] {
			continue
		}
		plan.changes = append(plan.changes, store.PageChange{Type: "delete_page", Page: ptr(p.ID)})
	}
	return plan, nil
}

// importKind is the store's kind of an import page.
func importKind(p *ImportPage) string {
	switch p.Kind {
	case KindGroup:
		return store.PageGroup
	case KindLink:
		return store.PageLink
	}
	return store.PageDocument
}

// updateChange turns the insert of an import page into the update of the page old it matched:
// what differs, and its place when placed (the markdown is compared once it is known).
func updateChange(id string, old *store.RevisionPage, ins *store.PageChange, placed bool, to *string) store.PageChange {
	c := store.PageChange{Type: "update_page", Page: ptr(id)}
	if old == nil { // not read back: everything is written
		c.Title, c.Slug, c.Description, c.Hidden, c.NoIndex, c.NoRobotsIndex = ins.Title, ins.Slug, ins.Description, ins.Hidden, ins.NoIndex, ins.NoRobotsIndex
		c.Icon, c.Emoji, c.Condition, c.Target = ins.Icon, ins.Emoji, ins.Condition, ins.Target
		c.SetInto, c.Into = true, to
		return c
	}
	differs := func(dst **string, v *string, was string) {
		if v == nil {
			v = ptr("")
		}
		if *v != was {
			*dst = v
		}
	}
	differs(&c.Title, ins.Title, old.Title)
	if ins.Slug != nil && *ins.Slug != old.Slug {
		c.Slug = ins.Slug
	}
	if old.Kind() != store.PageLink {
		differs(&c.Description, ins.Description, old.Description)
		differs(&c.Icon, ins.Icon, deref(old.Icon))
		differs(&c.Emoji, ins.Emoji, deref(old.Emoji))
		differs(&c.Condition, ins.Condition, deref(old.Condition))
		for _, b := range []struct {
			dst **bool
			v   *bool
			was bool
		}{{&c.Hidden, ins.Hidden, old.Hidden}, {&c.NoIndex, ins.NoIndex, old.NoIndex}, {&c.NoRobotsIndex, ins.NoRobotsIndex, old.NoRobotsIndex}} {
			if b.v != nil && *b.v != b.was {
				*b.dst = b.v
			}
		}
	}
	if t := ins.Target; t != nil && (old.Target == nil || *old.Target != *t) {
		c.Target = t
	}
	if placed {
		c.SetInto, c.Into = true, to
	}
	return c
}

// noop says whether an update changes nothing.
func noop(c store.PageChange) bool {
	return c.Type == "update_page" && c.Title == nil && c.Slug == nil && c.Description == nil && c.Icon == nil && c.Emoji == nil &&
		c.Condition == nil && c.Hidden == nil && c.NoIndex == nil && c.NoRobotsIndex == nil && c.Target == nil && !c.SetInto &&
		c.Markdown == nil
}

// reuseFiles gives each file of the import that the revision has already (the same bytes, under
// the same name when it can) that file's id: fileIDs gets ref → id. It answers the files to
// upload, and the revision's files the import does not have (to remove: stale).
func reuseFiles(have []*store.RevisionFile, files []*ImportFile, fileIDs map[string]string) (upload []*ImportFile, stale []string) {
	type key struct{ sha, name string }
	exact, bySHA := map[key]string{}, map[string][]string{}
	for _, f := range have {
		exact[key{f.SHA256, f.Name}] = f.ID
		bySHA[f.SHA256] = append(bySHA[f.SHA256], f.ID)
	}
	used := map[string]bool{}
	var later []*ImportFile
	sums := map[*ImportFile]string{}
	for _, f := range files {
		sum := sha256.Sum256(f.Data)
		sums[f] = hex.EncodeToString(sum[:])
		if id := exact[key{sums[f], f.Name}]; id != "" && !used[id] {
			used[id], fileIDs[f.Ref] = true, id
			continue
		}
		later = append(later, f)
	}
	for _, f := range later {
		found := false
		for _, id := range bySHA[sums[f]] {
			if !used[id] {
				used[id], fileIDs[f.Ref], found = true, id, true
				break
			}
		}
		if !found {
			upload = append(upload, f)
		}
	}
	for _, f := range have {
		if !used[f.ID] {
			stale = append(stale, f.ID)
		}
	}
	return upload, stale
}
