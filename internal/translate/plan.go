package translate

import (
	"context"
	"fmt"
	"slices"

	"github.com/quire-docs/quire/store"
)

// bodyBatch is how many page bodies are read at once.
const bodyBatch = 100

// The plan of a run, as one content batch for the result space:
//   - every source page has a result page, recorded by source page id with the hash of what was
//     translated; a page without one (new, or its result page deleted by hand) is inserted, one
//     whose hash changed is translated again, the others are not sent;
//   - for each parent, the result pages standing for the source's children must be in the source's
//     order: when they are not (a page moved in, out or along), each is placed in turn at its index,
//     which leaves them, in order, before any other page of that parent;
//   - result pages of deleted source pages are deleted last, after the moves took their surviving
//     subpages elsewhere, and only the topmost of them (a delete takes the subpages along).

func (r *Runner) plan(ctx context.Context, t *store.Translation, srcRev, resRev *store.Revision,
	records map[string]store.TranslatedPage, from, to string) (*plan, error) {
	entries, err := r.Store.FindAllGlossaryEntries(ctx, t.OrganizationID)
	if err != nil {
		return nil, err
	}
	terms := Terms(entries, t.Instructions, t.SourceLanguage, t.Language)
	resPages := map[string]*store.RevisionPage{}
	for _, p := range resRev.Pages {
		resPages[p.ID] = p
	}
	srcPages := map[string]*store.RevisionPage{}
	children := map[string][]*store.RevisionPage{} // by source parent id, "" the top level
	for _, p := range srcRev.Pages {
		srcPages[p.ID] = p
		parent := ""
		if p.ParentID != nil {
			parent = *p.ParentID
		}
		children[parent] = append(children[parent], p)
	}

	out := &plan{newRefs: map[string]bool{}}
	// key is how the batch names a source page's result page: its id, or a ref when it is new.
	key := map[string]string{}
	survivor := map[string]string{} // result page id -> source page id, for pages that stay
	var stale []string              // source pages to translate
	for _, p := range srcRev.Pages {
		rec, ok := records[p.ID]
		if ok && resPages[rec.ResultPageID] != nil {
			key[p.ID] = rec.ResultPageID
			survivor[rec.ResultPageID] = p.ID
		} else {
			ref := "translation:" + p.ID
			key[p.ID] = ref
			out.newRefs[ref] = true
		}
		if !ok || rec.SourceHash != pageHash(p, terms) || out.newRefs[key[p.ID]] {
			stale = append(stale, p.ID)
		}
	}

	files, insertFiles, err := r.planFiles(ctx, srcRev, resRev)
	if err != nil {
		return nil, err
	}
	if insertFiles != nil {
		out.changes = append(out.changes, *insertFiles)
	}
	links := &relinker{sourceSpace: t.SourceSpaceID, pages: key, files: files, anchors: map[string]map[string]string{},
		anchorsOf: r.resultAnchors(ctx, srcRev, resRev, key)}
	fields, err := r.translatePages(ctx, srcRev.ID, stale, terms, from, to, out, links)
	if err != nil {
		return nil, err
	}
	for id, c := range fields { // every translated page's anchors are known: links follow them
		if c.Markdown != nil {
			c.Markdown = ptr(links.rewrite(*c.Markdown))
			fields[id] = c
		}
	}
	for _, id := range stale {
		out.upsert = append(out.upsert, store.TranslatedPage{SourcePageID: id, ResultPageID: key[id], SourceHash: pageHash(srcPages[id], terms)})
	}

	// Placement and content, parent by parent in tree order (a new parent is inserted before its
	// children are placed in it).
	resChildren := map[string][]string{} // result parent ("" top level) -> surviving children in order
	for _, p := range resRev.Pages {
		if _, ok := survivor[p.ID]; !ok {
			continue
		}
		parent := ""
		if p.ParentID != nil {
			parent = *p.ParentID
		}
		resChildren[parent] = append(resChildren[parent], p.ID)
	}
	parents := []string{""}
	for _, p := range srcRev.Pages {
		parents = append(parents, p.ID)
	}
	var retargets []store.PageChange
	for _, sp := range parents {
		kids := children[sp]
		if len(kids) == 0 {
			continue
		}
		var into *string
		resParent := ""
		if sp != "" {
			k := key[sp]
			into, resParent = &k, k
		}
		want := make([]string, len(kids))
		for i, k := range kids {
			want[i] = key[k.ID]
		}
		moved := !slices.Equal(want, resChildren[resParent])
		for i, k := range kids {
			c, translated := fields[k.ID]
			switch {
			case out.newRefs[key[k.ID]]:
				c.Type, c.Ref = "insert_page", ptr(key[k.ID])
				c.Slug = ptr(k.Slug)
			case moved || translated:
				c.Type, c.Page = "update_page", ptr(key[k.ID])
				if res := resPages[key[k.ID]]; translated && res.Slug != k.Slug {
					c.Slug = ptr(k.Slug)
				}
			default:
				continue
			}
			if moved || c.Type == "insert_page" {
				c.SetInto, c.Into, c.At = true, into, ptr(i)
			}
			if kind := k.Kind(); kind != store.PageDocument {
				if retarget := keepKind(&c, k, t.SourceSpaceID, key, out.newRefs); retarget != nil {
					retargets = append(retargets, *retarget)
				}
			}
			out.changes = append(out.changes, c)
		}
	}
	// Link pages to pages this batch inserts open them once all are in.
	out.changes = append(out.changes, retargets...)

	// Deletes: the result pages of source pages gone, unless one of their parents (after the
	// moves) goes too.
	gone := map[string]bool{}
	for id, rec := range records {
		if srcPages[id] == nil {
			out.deleted = append(out.deleted, id)
			if resPages[rec.ResultPageID] != nil {
				gone[rec.ResultPageID] = true
			}
		}
	}
	parentAfter := func(resID string) *string {
		if src, ok := survivor[resID]; ok {
			if p := srcPages[src].ParentID; p != nil {
				k := key[*p]
				return &k
			}
			return nil
		}
		return resPages[resID].ParentID
	}
	for _, p := range resRev.Pages { // tree order: deterministic batches
		if !gone[p.ID] {
			continue
		}
		covered := false
		for a := parentAfter(p.ID); a != nil && resPages[*a] != nil; a = parentAfter(*a) {
			if gone[*a] {
				covered = true
				break
			}
		}
		if !covered {
			out.changes = append(out.changes, store.PageChange{Type: "delete_page", Page: ptr(p.ID)})
		}
	}
	return out, nil
}

// translatePages translates the pages with the given ids (title, description, markdown and link
// title; each
// page's texts go to the translator together) and returns the fields of their changes.
func (r *Runner) translatePages(ctx context.Context, revisionID string, ids []string, terms []Term,
	from, to string, out *plan, links *relinker) (map[string]store.PageChange, error) {
	fields := map[string]store.PageChange{}
	for start := 0; start < len(ids); start += bodyBatch {
		pages, err := r.Store.FindPagesWithBodies(ctx, revisionID, ids[start:min(start+bodyBatch, len(ids))])
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			linkTitle := ""
			if p.LinkTitle != nil {
				linkTitle = *p.LinkTitle
			}
			texts := []*Text{Plain(p.Title, terms), Plain(p.Description, terms), Markdown(p.Markdown, terms), Plain(linkTitle, terms)}
			var segments []string
			for _, tx := range texts {
				segments = append(segments, tx.Segments()...)
				out.words += tx.Words()
			}
			translated := segments
			if len(segments) > 0 {
				if translated, err = r.Client.Translate(ctx, segments, from, to); err != nil {
					return nil, fmt.Errorf("translating the page %q (%s, %d texts): %w", p.Title, p.ID, len(segments), err)
				}
				if len(translated) != len(segments) {
					return nil, fmt.Errorf("translating the page %q (%s): the translator answered %d texts for %d", p.Title, p.ID, len(translated), len(segments))
				}
			}
			var rendered [4]string
			for i, tx := range texts {
				n := len(tx.Segments())
				rendered[i], translated = tx.Render(translated[:n]), translated[n:]
			}
			links.anchors[p.ID] = pairAnchors(p.Markdown, rendered[2])
			c := store.PageChange{Title: &rendered[0], Description: &rendered[1], Markdown: &rendered[2],
				Emoji: orEmpty(p.Emoji), Icon: orEmpty(p.Icon), Condition: orEmpty(p.Condition),
				Hidden: ptr(p.Hidden), NoIndex: ptr(p.NoIndex), NoRobotsIndex: ptr(p.NoRobotsIndex),
				LinkTitle: &rendered[3], SetCover: true, Cover: urlCover(p.Cover)}
			fields[p.ID] = c
			out.pages++
		}
	}
	return fields, nil
}

// urlCover is the cover a result page keeps: one shown from an address; a cover from a file of
// the source space is not copied (the relinker copies the files the markdown links).
func urlCover(c *store.PageCover) *store.PageCover {
	if c == nil || c.File != "" {
		return nil
	}
	out := *c
	out.DarkFile = ""
	return &out
}

// keepKind makes the change of a group's or a link's result page keep its kind: a new one is
// inserted as one, a link takes no slug or indexing flags and keeps its target. A link to a page
// of the source space opens that page's result: by id when it is already there; when this batch
// inserts it, the link first opens the source page and the update_page returned (run at the end
// of the batch, when every ref has its page) points it at the result's.
func keepKind(c *store.PageChange, p *store.RevisionPage, sourceSpace string, key map[string]string, newRefs map[string]bool) *store.PageChange {
	if c.Type == "insert_page" {
		c.PageType = ptr(p.Kind())
	}
	if p.Kind() != store.PageLink || p.Target == nil {
		return nil
	}
	c.Slug, c.NoIndex, c.NoRobotsIndex, c.Description = nil, nil, nil, nil
	target := *p.Target
	var retarget *store.PageChange
	if target.Kind == store.TargetPage && target.Space == "" {
		k, ok := key[target.Page]
		switch {
		case ok && !newRefs[k]:
			target.Page = k
		case ok:
			final := target
			final.Page = k
			page := c.Page
			if c.Type == "insert_page" {
				page = c.Ref
			}
			retarget = &store.PageChange{Type: "update_page", Page: page, Target: &final}
			target.Space = sourceSpace
		default:
			target.Space = sourceSpace
		}
	}
	c.Target = &target
	return retarget
}
