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

// applyMerge puts merged pages into a tree over main's content and checks the result: a merged
// page must still have its parent, a deleted page no subpages left, and no page may end up inside
// itself. A page of main keeps its slug; one new to main, moved or renamed gives way.
func applyMerge(tree *pageTree, merged map[string]*store.RevisionPage) []store.MergeConflict {
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
	var conflicts []store.MergeConflict
	for _, id := range removed {
		for _, c := range tree.children(id) {
			conflicts = append(conflicts, store.MergeConflict{PageID: c.ID, Title: c.Title, Reason: "its parent page was deleted on the other side"})
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
				conflicts = append(conflicts, store.MergeConflict{PageID: p.ID, Title: p.Title, Reason: "its parent page was deleted on the other side"})
				break
			}
			if seen[parent.ID] {
				conflicts = append(conflicts, store.MergeConflict{PageID: p.ID, Title: p.Title, Reason: "moved inside each other on the two sides"})
				break
			}
			seen[parent.ID] = true
			a = parent.ParentID
		}
	}
	if len(conflicts) > 0 {
		store.SortConflicts(conflicts)
		return conflicts
	}
	for _, id := range ids {
		p := tree.pages[id]
		if p == nil {
			continue
		}
		if m := mainPages[id]; m == nil || m.Slug != p.Slug || !store.EqualPtr(m.ParentID, p.ParentID) {
			tree.fresh[id] = true
		} else {
			p.Path = m.Path // where main put it: the other side may have read an older parent path
		}
	}
	tree.normalize()
	return nil
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
