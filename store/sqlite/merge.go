package sqlite

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/quire-docs/quire/store"
)

// Three-way merge of page trees, page by page and field by field, against the last common
// revision (base): a field changed on one side only takes that side; changed the same way on
// both, it merges cleanly; changed differently on both, the page is a conflict. A page deleted on
// one side and changed on the other is a conflict too; deleted on one side and untouched on the
// other, it is deleted.

// mergeConflict names a page that cannot merge and why.
type mergeConflict struct {
	PageID string
	Title  string
	Reason string
}

// bodyLoader returns the markdown of page bodies by id.
type bodyLoader func(ids []int64) (map[int64]string, error)

// threeWayMerge merges the pages with the given ids, as base, ours and theirs hold them (a
// missing page is absent on that side). It returns each page's merged version (nil: absent).
func threeWayMerge(ids []string, b, o, t map[string]*store.RevisionPage, bodies bodyLoader) (map[string]*store.RevisionPage, []mergeConflict, error) {
	// Bodies are compared by id first; only ids that differ need their markdown compared.
	need := map[int64]bool{}
	for _, id := range ids {
		bo, oo, to := b[id], o[id], t[id]
		switch {
		case oo != nil && to != nil && oo.BodyID != to.BodyID:
			need[oo.BodyID], need[to.BodyID] = true, true
			if bo != nil {
				need[bo.BodyID] = true
			}
		case bo != nil && (oo == nil) != (to == nil):
			// Deleted on one side: whether the other side changed it is a question of text.
			kept := oo
			if kept == nil {
				kept = to
			}
			if kept.BodyID != bo.BodyID {
				need[bo.BodyID], need[kept.BodyID] = true, true
			}
		}
	}
	var md map[int64]string
	if len(need) > 0 {
		list := make([]int64, 0, len(need))
		for id := range need {
			list = append(list, id)
		}
		var err error
		if md, err = bodies(list); err != nil {
			return nil, nil, err
		}
	}
	sameBody := func(x, y *store.RevisionPage) bool {
		if x.BodyID == y.BodyID {
			return true
		}
		mx, okx := md[x.BodyID]
		my, oky := md[y.BodyID]
		return okx && oky && mx == my
	}

	merged := make(map[string]*store.RevisionPage, len(ids))
	var conflicts []mergeConflict
	for _, id := range ids {
		bp, op, tp := b[id], o[id], t[id]
		switch {
		case op == nil && tp == nil:
			merged[id] = nil
			continue
		case bp == nil && op != nil && tp == nil:
			merged[id] = op
			continue
		case bp == nil && tp != nil && op == nil:
			merged[id] = tp
			continue
		case bp != nil && op == nil:
			if !samePage(bp, tp, sameBody) {
				conflicts = append(conflicts, mergeConflict{id, tp.Title, "deleted on one side, changed on the other"})
			}
			merged[id] = nil
			continue
		case bp != nil && tp == nil:
			if !samePage(bp, op, sameBody) {
				conflicts = append(conflicts, mergeConflict{id, op.Title, "deleted on one side, changed on the other"})
			}
			merged[id] = nil
			continue
		}
		p, reason := mergePage(bp, op, tp, sameBody)
		if reason != "" {
			conflicts = append(conflicts, mergeConflict{id, op.Title, reason})
			continue
		}
		if p.UpdatedAt.Before(tp.UpdatedAt) {
			p.UpdatedAt = tp.UpdatedAt
		}
		merged[id] = p
	}
	if len(conflicts) > 0 {
		sortConflicts(conflicts)
		return nil, conflicts, nil
	}
	return merged, nil, nil
}

// applyMerge puts merged pages into a tree over main's content and checks the result: a merged
// page must still have its parent, a deleted page no subpages left, and no page may end up inside
// itself. A page of main keeps its slug; one new to main, moved or renamed gives way.
func applyMerge(tree *pageTree, merged map[string]*store.RevisionPage) []mergeConflict {
	ids := make([]string, 0, len(merged))
	for id := range merged {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	tree.load(ids)
	mainPages := map[string]*store.RevisionPage{}
	for _, id := range ids {
		if m := tree.get(id); m != nil {
			mainPages[id] = m.Clone()
		}
	}
	var removed []string
	for _, id := range ids {
		if p := merged[id]; p != nil {
			if mainPages[id] == nil {
				tree.kids[id] = true // new to main: main holds no subpages of it
			}
			tree.set(p.Clone())
		} else if tree.get(id) != nil {
			tree.remove(id)
			removed = append(removed, id)
		}
	}
	var conflicts []mergeConflict
	for _, id := range removed {
		for _, c := range tree.children(id) {
			conflicts = append(conflicts, mergeConflict{c.ID, c.Title, "its parent page was deleted on the other side"})
		}
	}
	for _, id := range ids {
		p := tree.pages[id]
		if p == nil {
			continue
		}
		seen := map[string]bool{p.ID: true}
		for a := p.ParentID; a != nil; {
			parent := tree.get(*a)
			if parent == nil {
				conflicts = append(conflicts, mergeConflict{p.ID, p.Title, "its parent page was deleted on the other side"})
				break
			}
			if seen[parent.ID] {
				conflicts = append(conflicts, mergeConflict{p.ID, p.Title, "moved inside each other on the two sides"})
				break
			}
			seen[parent.ID] = true
			a = parent.ParentID
		}
	}
	if len(conflicts) > 0 {
		sortConflicts(conflicts)
		return conflicts
	}
	for _, id := range ids {
		p := tree.pages[id]
		if p == nil {
			continue
		}
		if m := mainPages[id]; m == nil || m.Slug != p.Slug || !equalPtr(m.ParentID, p.ParentID) {
			tree.fresh[id] = true
		} else {
			p.Path = m.Path // where main put it: the other side may have read an older parent path
		}
	}
	tree.normalize()
	return nil
}

func sortConflicts(c []mergeConflict) {
	sort.Slice(c, func(i, j int) bool { return c[i].PageID < c[j].PageID })
}

// samePage reports whether a page is unchanged between two revisions.
func samePage(x, y *store.RevisionPage, sameBody func(x, y *store.RevisionPage) bool) bool {
	return equalPtr(x.ParentID, y.ParentID) && x.Position == y.Position && x.Title == y.Title &&
		x.Slug == y.Slug && equalPtr(x.Emoji, y.Emoji) && x.Description == y.Description &&
		x.Hidden == y.Hidden && sameMeta(x, y) && sameBody(x, y)
}

// mergePage merges one page present on both sides (and in the base, when bp is not nil).
func mergePage(bp, op, tp *store.RevisionPage, sameBody func(x, y *store.RevisionPage) bool) (*store.RevisionPage, string) {
	out := op.Clone()
	var clashes []string
	pick := func(name string, oursChanged, theirsChanged, same bool, takeTheirs func()) {
		switch {
		case same:
		case !theirsChanged:
		case !oursChanged:
			takeTheirs()
		default:
			clashes = append(clashes, name)
		}
	}
	if bp == nil {
		// Added on both sides with the same id: only identical additions merge.
		if !samePage(op, tp, sameBody) {
			return nil, "added differently on both sides"
		}
		return out, ""
	}
	pick("location", !(equalPtr(bp.ParentID, op.ParentID) && bp.Position == op.Position),
		!(equalPtr(bp.ParentID, tp.ParentID) && bp.Position == tp.Position),
		equalPtr(op.ParentID, tp.ParentID) && op.Position == tp.Position,
		func() { out.ParentID, out.Position = tp.ParentID, tp.Position })
	pick("title", bp.Title != op.Title, bp.Title != tp.Title, op.Title == tp.Title, func() { out.Title = tp.Title })
	pick("slug", bp.Slug != op.Slug, bp.Slug != tp.Slug, op.Slug == tp.Slug, func() { out.Slug = tp.Slug })
	pick("emoji", !equalPtr(bp.Emoji, op.Emoji), !equalPtr(bp.Emoji, tp.Emoji), equalPtr(op.Emoji, tp.Emoji), func() { out.Emoji = tp.Emoji })
	pick("description", bp.Description != op.Description, bp.Description != tp.Description, op.Description == tp.Description,
		func() { out.Description = tp.Description })
	pick("hidden", bp.Hidden != op.Hidden, bp.Hidden != tp.Hidden, op.Hidden == tp.Hidden, func() { out.Hidden = tp.Hidden })
	pick("icon", !equalPtr(bp.Icon, op.Icon), !equalPtr(bp.Icon, tp.Icon), equalPtr(op.Icon, tp.Icon), func() { out.Icon = tp.Icon })
	pick("noIndex", bp.NoIndex != op.NoIndex, bp.NoIndex != tp.NoIndex, op.NoIndex == tp.NoIndex, func() { out.NoIndex = tp.NoIndex })
	pick("noRobotsIndex", bp.NoRobotsIndex != op.NoRobotsIndex, bp.NoRobotsIndex != tp.NoRobotsIndex, op.NoRobotsIndex == tp.NoRobotsIndex,
		func() { out.NoRobotsIndex = tp.NoRobotsIndex })
	pick("condition", !equalPtr(bp.Condition, op.Condition), !equalPtr(bp.Condition, tp.Condition), equalPtr(op.Condition, tp.Condition),
		func() { out.Condition = tp.Condition })
	pick("content", !sameBody(bp, op), !sameBody(bp, tp), sameBody(op, tp), func() { out.BodyID = tp.BodyID })
	if len(clashes) > 0 {
		return nil, "changed differently on both sides (" + strings.Join(clashes, ", ") + ")"
	}
	return out, ""
}

// loadBodies returns the markdown of page bodies.
func loadBodies(ctx context.Context, q querier, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := q.QueryContext(ctx, `SELECT id, markdown FROM page_bodies WHERE id IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: unable to load bodies: %w", err)
		}
		for rows.Next() {
			var id int64
			var md string
			if err := rows.Scan(&id, &md); err != nil {
				rows.Close()
				return nil, fmt.Errorf("store: unable to load bodies: %w", err)
			}
			out[id] = md
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: unable to load bodies: %w", err)
		}
	}
	return out, nil
}

// placeholders returns "?, ?, …" for n arguments.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
