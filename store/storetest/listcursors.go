package storetest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// listCursors: a list ordered by position or newest first is walked page by page in its order,
// and a cursor issued before the lists were built from fragments (a collection's position
// zero-padded to twelve digits) still resumes after its item.
func listCursors(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	col, err := w.st.CreateCollection(ctx, w.org, "Guides", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, title := range []string{"A", "B", "C", "D", "E"} {
		sp, err := w.st.CreateSpace(ctx, w.org, w.user, store.SpaceCreate{Title: title, ParentID: &col.ID})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sp.ID)
	}
	// E moves first: the collection's order is no longer the order of creation.
	if _, err := w.st.MoveSpace(ctx, ids[4], store.Move{Before: &store.Pointer{Kind: "space", ID: ids[0]}}); err != nil {
		t.Fatal(err)
	}
	inCollection := func(p store.Page) (store.List[*store.Space], error) {
		return w.st.FindSpacesInCollection(ctx, col.ID, nil, p)
	}
	newestFirst := func(p store.Page) (store.List[*store.Space], error) { return w.st.FindSpaces(ctx, w.org, true, nil, p) }
	byPosition := []string{ids[4], ids[0], ids[1], ids[2], ids[3]}
	newest := slices.Clone(ids)
	slices.Reverse(newest)
	for _, limit := range []int{1, 2, 3} {
		if got := walk(t, inCollection, limit); !slices.Equal(got, byPosition) {
			t.Fatalf("limit %d: collection's spaces %v, want %v", limit, got, byPosition)
		}
		if got := walk(t, newestFirst, limit); !slices.Equal(got, newest) {
			t.Fatalf("limit %d: spaces newest first %v, want %v", limit, got, newest)
		}
	}

	first, err := inCollection(store.Page{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	keys, err := store.DecodeCursor(first.Next, 2)
	if err != nil {
		t.Fatal(err)
	}
	old := store.EncodeCursor(strings.Repeat("0", 12-len(keys[0]))+keys[0], keys[1])
	rest, err := inCollection(store.Page{Cursor: old, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if got := spaceIDs(rest.Items); !slices.Equal(got, byPosition[2:]) || rest.Count != len(ids) {
		t.Fatalf("after a zero-padded cursor: %v (count %d), want %v", got, rest.Count, byPosition[2:])
	}
	_, err = inCollection(store.Page{Cursor: store.EncodeCursor("first", ids[0])})
	wantCode(t, err, store.EINVALID)
}

// walk pages through a list by its cursors and answers the ids in the order read, checking the
// count on every page.
func walk(t *testing.T, list func(store.Page) (store.List[*store.Space], error), limit int) []string {
	t.Helper()
	var got []string
	p := store.Page{Limit: limit}
	for pages := 0; pages < 100; pages++ {
		l, err := list(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) > limit {
			t.Fatalf("limit %d: a page of %d items", limit, len(l.Items))
		}
		got = append(got, spaceIDs(l.Items)...)
		if l.Count < len(got) {
			t.Fatalf("limit %d: count %d after %d items", limit, l.Count, len(got))
		}
		if l.Next == "" {
			return got
		}
		p.Cursor = l.Next
	}
	t.Fatalf("limit %d: no last page", limit)
	return nil
}

func spaceIDs(spaces []*store.Space) []string {
	ids := make([]string, len(spaces))
	for i, sp := range spaces {
		ids[i] = sp.ID
	}
	return ids
}
