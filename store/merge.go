package store

import (
	"sort"
	"strings"
)

// MergeConflict names a page that cannot merge and why.
type MergeConflict struct {
	PageID string
	Title  string
	Reason string
}

// BodyLoader returns the markdown of page bodies by id.
type BodyLoader func(ids []int64) (map[int64]string, error)

// ThreeWayMerge merges the pages with the given ids, as base, ours and theirs hold them (a
// missing page is absent on that side). It returns each page's merged version (nil: absent).
func ThreeWayMerge(ids []string, b, o, t map[string]*RevisionPage, bodies BodyLoader) (map[string]*RevisionPage, []MergeConflict, error) {
	// Bodies are compared by id first; only ids that differ need their markdown compared. A body
	// only one side changed since the base is that side's, whatever the texts say (the other
	// side's text is the base's), so its markdown is read only when both sides wrote one.
	need := map[int64]bool{}
	for _, id := range ids {
		bo, oo, to := b[id], o[id], t[id]
		switch {
		case oo != nil && to != nil && oo.BodyID != to.BodyID && (bo == nil || (bo.BodyID != oo.BodyID && bo.BodyID != to.BodyID)):
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
	sameBody := func(x, y *RevisionPage) bool {
		if x.BodyID == y.BodyID {
			return true
		}
		mx, okx := md[x.BodyID]
		my, oky := md[y.BodyID]
		return okx && oky && mx == my
	}

	merged := make(map[string]*RevisionPage, len(ids))
	var conflicts []MergeConflict
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
				conflicts = append(conflicts, MergeConflict{id, tp.Title, "deleted on one side, changed on the other"})
			}
			merged[id] = nil
			continue
		case bp != nil && tp == nil:
			if !samePage(bp, op, sameBody) {
				conflicts = append(conflicts, MergeConflict{id, op.Title, "deleted on one side, changed on the other"})
			}
			merged[id] = nil
			continue
		}
		p, reason := mergePage(bp, op, tp, sameBody)
		if reason != "" {
			conflicts = append(conflicts, MergeConflict{id, op.Title, reason})
			continue
		}
		if p.UpdatedAt.Before(tp.UpdatedAt) {
			p.UpdatedAt = tp.UpdatedAt
		}
		merged[id] = p
	}
	if len(conflicts) > 0 {
		SortConflicts(conflicts)
		return nil, conflicts, nil
	}
	return merged, nil, nil
}

// SortConflicts orders conflicts by page, so a merge reports them the same way every time.
func SortConflicts(c []MergeConflict) {
	sort.Slice(c, func(i, j int) bool { return c[i].PageID < c[j].PageID })
}

// samePage reports whether a page is unchanged between two revisions.
func samePage(x, y *RevisionPage, sameBody func(x, y *RevisionPage) bool) bool {
	return EqualPtr(x.ParentID, y.ParentID) && x.Position == y.Position && x.Title == y.Title &&
		x.Slug == y.Slug && EqualPtr(x.Emoji, y.Emoji) && x.Description == y.Description &&
		x.Hidden == y.Hidden && sameMeta(x, y) && sameBody(x, y)
}

// mergePage merges one page present on both sides (and in the base, when bp is not nil).
func mergePage(bp, op, tp *RevisionPage, sameBody func(x, y *RevisionPage) bool) (*RevisionPage, string) {
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
	pick("location", !(EqualPtr(bp.ParentID, op.ParentID) && bp.Position == op.Position),
		!(EqualPtr(bp.ParentID, tp.ParentID) && bp.Position == tp.Position),
		EqualPtr(op.ParentID, tp.ParentID) && op.Position == tp.Position,
		func() { out.ParentID, out.Position = tp.ParentID, tp.Position })
	pick("title", bp.Title != op.Title, bp.Title != tp.Title, op.Title == tp.Title, func() { out.Title = tp.Title })
	pick("slug", bp.Slug != op.Slug, bp.Slug != tp.Slug, op.Slug == tp.Slug, func() { out.Slug = tp.Slug })
	pick("emoji", !EqualPtr(bp.Emoji, op.Emoji), !EqualPtr(bp.Emoji, tp.Emoji), EqualPtr(op.Emoji, tp.Emoji), func() { out.Emoji = tp.Emoji })
	pick("description", bp.Description != op.Description, bp.Description != tp.Description, op.Description == tp.Description,
		func() { out.Description = tp.Description })
	pick("hidden", bp.Hidden != op.Hidden, bp.Hidden != tp.Hidden, op.Hidden == tp.Hidden, func() { out.Hidden = tp.Hidden })
	pick("icon", !EqualPtr(bp.Icon, op.Icon), !EqualPtr(bp.Icon, tp.Icon), EqualPtr(op.Icon, tp.Icon), func() { out.Icon = tp.Icon })
	pick("noIndex", bp.NoIndex != op.NoIndex, bp.NoIndex != tp.NoIndex, op.NoIndex == tp.NoIndex, func() { out.NoIndex = tp.NoIndex })
	pick("noRobotsIndex", bp.NoRobotsIndex != op.NoRobotsIndex, bp.NoRobotsIndex != tp.NoRobotsIndex, op.NoRobotsIndex == tp.NoRobotsIndex,
		func() { out.NoRobotsIndex = tp.NoRobotsIndex })
	pick("condition", !EqualPtr(bp.Condition, op.Condition), !EqualPtr(bp.Condition, tp.Condition), EqualPtr(op.Condition, tp.Condition),
		func() { out.Condition = tp.Condition })
	pick("linkTitle", !EqualPtr(bp.LinkTitle, op.LinkTitle), !EqualPtr(bp.LinkTitle, tp.LinkTitle), EqualPtr(op.LinkTitle, tp.LinkTitle),
		func() { out.LinkTitle = tp.LinkTitle })
	pick("cover", !EqualPtr(bp.Cover, op.Cover), !EqualPtr(bp.Cover, tp.Cover), EqualPtr(op.Cover, tp.Cover),
		func() { out.Cover = tp.Cover })
	pick("target", !EqualPtr(bp.Target, op.Target), !EqualPtr(bp.Target, tp.Target), EqualPtr(op.Target, tp.Target),
		func() { out.Target = tp.Target })
	pick("content", !sameBody(bp, op), !sameBody(bp, tp), sameBody(op, tp), func() { out.BodyID = tp.BodyID })
	if len(clashes) > 0 {
		return nil, "changed differently on both sides (" + strings.Join(clashes, ", ") + ")"
	}
	return out, ""
}

// ApplyMerge puts merged pages into a tree over main's content and checks the result: a merged
// page must still have its parent, a deleted page no subpages left, and no page may end up inside
// itself. A page of main keeps its slug; one new to main, moved or renamed gives way.
func ApplyMerge(tree *PageTree, merged map[string]*RevisionPage) []MergeConflict {
	ids := make([]string, 0, len(merged))
	for id := range merged {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	tree.load(ids)
	mainPages := map[string]*RevisionPage{}
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
	var conflicts []MergeConflict
	for _, id := range removed {
		for _, c := range tree.children(id) {
			conflicts = append(conflicts, MergeConflict{PageID: c.ID, Title: c.Title, Reason: "its parent page was deleted on the other side"})
		}
	}
	tree.loadAncestors(ids)
	for _, id := range ids {
		p := tree.pages[id]
		if p == nil {
			continue
		}
		seen := map[string]bool{p.ID: true}
		for a := p.ParentID; a != nil; {
			parent := tree.get(*a)
			if parent == nil {
				conflicts = append(conflicts, MergeConflict{PageID: p.ID, Title: p.Title, Reason: "its parent page was deleted on the other side"})
				break
			}
			if seen[parent.ID] {
				conflicts = append(conflicts, MergeConflict{PageID: p.ID, Title: p.Title, Reason: "moved inside each other on the two sides"})
				break
			}
			seen[parent.ID] = true
			a = parent.ParentID
		}
	}
	if len(conflicts) > 0 {
		SortConflicts(conflicts)
		return conflicts
	}
	for _, id := range ids {
		p := tree.pages[id]
		if p == nil {
			continue
		}
		if m := mainPages[id]; m == nil || m.Slug != p.Slug || !EqualPtr(m.ParentID, p.ParentID) {
			tree.fresh[id] = true
		} else {
			p.Path = m.Path // where main put it: the other side may have read an older parent path
		}
	}
	tree.normalize()
	return nil
}
