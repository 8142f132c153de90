package sqlstore

import (
	"context"
	"fmt"
	"testing"

	"github.com/quire-docs/quire/store"
)

// benchSpaceWithPages is a space whose current revision holds n pages (100 top-level sections of
// n/100 pages each), written through change requests as users would.
func benchSpaceWithPages(b *testing.B, n int) (st *Store, userID, spaceID string, pageIDs []string) {
	b.Helper()
	ctx := context.Background()
	st, _, spaceID = benchStore(b)
	sp, _ := st.FindSpace(ctx, spaceID)
	var u string
	st.reader.QueryRowContext(ctx, `SELECT created_by FROM spaces WHERE id = ?`, spaceID).Scan(&u)
	cr, err := st.CreateChangeRequest(ctx, sp.ID, u, "seed")
	if err != nil {
		b.Fatal(err)
	}
	sections := 100
	var changes []store.PageChange
	for i := 0; i < sections; i++ {
		ref, title := fmt.Sprintf("s%d", i), fmt.Sprintf("Section %d", i)
		changes = append(changes, store.PageChange{Type: "insert_page", Ref: &ref, Title: &title})
	}
	if _, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, u, changes); err != nil {
		b.Fatal(err)
	}
	cr, _ = st.FindChangeRequest(ctx, sp.ID, cr.ID)
	pages, _ := loadPages(ctx, st.reader, cr.RevisionID, false)
	for i, p := range pages {
		var batch []store.PageChange
		for j := 0; j < n/sections-1; j++ {
			title := fmt.Sprintf("Page %d.%d", i, j)
			md := fmt.Sprintf("# Page %d.%d\n\nSome text about topic %d and item %d.\n", i, j, i, j)
			parent := p.ID
			batch = append(batch, store.PageChange{Type: "insert_page", Title: &title, Markdown: &md, SetInto: true, Into: &parent})
		}
		for len(batch) > 0 {
			k := min(len(batch), 50)
			if _, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, u, batch[:k]); err != nil {
				b.Fatal(err)
			}
			batch = batch[k:]
		}
	}
	if _, conflicts, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, u); err != nil || conflicts {
		b.Fatalf("seed merge: %v %v", err, conflicts)
	}
	sp, _ = st.FindSpace(ctx, spaceID)
	all, _ := loadPages(ctx, st.reader, sp.RevisionID, false)
	if len(all) != n {
		b.Fatalf("seeded %d pages, want %d", len(all), n)
	}
	for _, p := range all {
		pageIDs = append(pageIDs, p.ID)
	}
	return st, u, spaceID, pageIDs
}

// BenchmarkMergeTouching10Of5000Pages merges a change request that edits 10 pages of a 5,000-page
// space while main has moved on elsewhere (a real three-way merge). Target: under 100 ms.
func BenchmarkMergeTouching10Of5000Pages(b *testing.B) {
	st, u, spaceID, ids := benchSpaceWithPages(b, 5000)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		cr, err := st.CreateChangeRequest(ctx, spaceID, u, "ten edits")
		if err != nil {
			b.Fatal(err)
		}
		other, _ := st.CreateChangeRequest(ctx, spaceID, u, "main moves")
		var edits []store.PageChange
		for j := 0; j < 10; j++ {
			id, md := ids[(i*10+j*97)%len(ids)], fmt.Sprintf("edited %d %d", i, j)
			edits = append(edits, store.PageChange{Type: "update_page", Page: &id, Markdown: &md})
		}
		if _, err := st.UpdateChangeRequestContent(ctx, spaceID, cr.ID, u, edits); err != nil {
			b.Fatal(err)
		}
		id, title := ids[(i*10+5000/2)%len(ids)], fmt.Sprintf("Moved on %d", i)
		if _, err := st.UpdateChangeRequestContent(ctx, spaceID, other.ID, u, []store.PageChange{{Type: "update_page", Page: &id, Title: &title}}); err != nil {
			b.Fatal(err)
		}
		if _, c, err := st.MergeChangeRequest(ctx, spaceID, other.ID, u); err != nil || c {
			b.Fatalf("merge main: %v %v", err, c)
		}
		b.StartTimer()
		if _, c, err := st.MergeChangeRequest(ctx, spaceID, cr.ID, u); err != nil || c {
			b.Fatalf("merge: %v %v", err, c)
		}
	}
}

// BenchmarkListPagesOf5000PageSpace loads the page tree of a 5,000-page revision. Target: under 50 ms.
func BenchmarkListPagesOf5000PageSpace(b *testing.B) {
	st, _, spaceID, _ := benchSpaceWithPages(b, 5000)
	ctx := context.Background()
	sp, _ := st.FindSpace(ctx, spaceID)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rev, err := st.FindRevision(ctx, spaceID, sp.RevisionID)
		if err != nil || len(rev.Pages) != 5000 {
			b.Fatalf("FindRevision: %v", err)
		}
	}
}
