package sqlstore

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// Purging a deleted space removes every row, body and blob only it used; what a duplicate of it
// still reads stays until the duplicate goes too, and what another space shares stays.
func TestPurgeRemovesWhatOnlyThePurgedSpaceUsed(t *testing.T) {
	ctx := context.Background()
	st := openTestStore(t)
	// The clock is read on the store's goroutines too (the search index's catch-up after a merge).
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	st.Clock = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	o := storetest.MustOwner(t, st, "purge@example.com")
	u, org := o.User, o.Org
	str := func(s string) *string { return &s }
	fill := func(spaceID, word string) {
		t.Helper()
		cr, err := st.CreateChangeRequest(ctx, spaceID, u.ID, "content")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.UpdateChangeRequestContent(ctx, spaceID, cr.ID, u.ID, []store.PageChange{
			{Type: "insert_files", Files: []store.FileUpload{{Ref: str("logo"), Name: "logo.txt", ContentType: "text/plain", Data: []byte("shared bytes")}}},
			{Type: "insert_page", Ref: str("a"), Title: str(word + " A"), Markdown: str("See [b](/pages/b) and ![l](/files/logo).")},
			{Type: "insert_page", Ref: str("b"), Title: str(word + " B"), Markdown: str(word + " body"), SetInto: true, Into: str("a")},
		}); err != nil {
			t.Fatal(err)
		}
		if _, c, err := st.MergeChangeRequest(ctx, spaceID, cr.ID, u.ID); err != nil || c {
			t.Fatalf("merge: %v %v", err, c)
		}
	}
	a, _ := st.CreateSpace(ctx, org.ID, u.ID, store.SpaceCreate{Title: "A"})
	other, _ := st.CreateSpace(ctx, org.ID, u.ID, store.SpaceCreate{Title: "Other"})
	fill(a.ID, "alpha")
	fill(other.ID, "other")
	dup, err := st.DuplicateSpace(ctx, a.ID, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The duplicate moves on by itself: its own change on top of what it shares.
	dupPages, _ := st.FindRevision(ctx, dup.ID, dup.RevisionID)
	cr, _ := st.CreateChangeRequest(ctx, dup.ID, u.ID, "dup edit")
	if _, err := st.UpdateChangeRequestContent(ctx, dup.ID, cr.ID, u.ID, []store.PageChange{
		{Type: "update_page", Page: &dupPages.Pages[1].ID, Markdown: str("dup body")}}); err != nil {
		t.Fatal(err)
	}
	if _, c, err := st.MergeChangeRequest(ctx, dup.ID, cr.ID, u.ID); err != nil || c {
		t.Fatalf("merge: %v %v", err, c)
	}
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := st.reader.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	readAll := func(spaceID string) string {
		t.Helper()
		sp, err := st.FindSpace(ctx, spaceID)
		if err != nil {
			t.Fatal(err)
		}
		rev, err := st.FindRevision(ctx, spaceID, sp.RevisionID)
		if err != nil || len(rev.Pages) != 2 {
			t.Fatalf("revision of %s: %v", spaceID, err)
		}
		var all string
		for _, p := range rev.Pages {
			full, err := st.FindPage(ctx, sp.RevisionID, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			all += full.Path + ":" + full.Markdown + ";"
		}
		files, err := st.FindAllFiles(ctx, sp.RevisionID)
		if err != nil || len(files) != 1 {
			t.Fatalf("files of %s: %v %v", spaceID, files, err)
		}
		back, err := st.FindBacklinks(ctx, sp.RevisionID, "page", rev.Pages[1].ID, store.Page{})
		if err != nil || back.Count != 1 {
			t.Fatalf("backlinks in %s: %+v %v", spaceID, back, err)
		}
		return all
	}
	dupBefore, otherBefore := readAll(dup.ID), readAll(other.ID)

	// The original moving on leaves the copy as it was.
	aRev, _ := st.FindSpace(ctx, a.ID)
	aPages, _ := st.FindRevision(ctx, a.ID, aRev.RevisionID)
	acr, _ := st.CreateChangeRequest(ctx, a.ID, u.ID, "original edit")
	if _, err := st.UpdateChangeRequestContent(ctx, a.ID, acr.ID, u.ID, []store.PageChange{
		{Type: "update_page", Page: &aPages.Pages[1].ID, Markdown: str("original moved on"), Title: str("Renamed")},
		{Type: "delete_page", Page: &aPages.Pages[0].ID}}); err != nil {
		t.Fatal(err)
	}
	if _, c, err := st.MergeChangeRequest(ctx, a.ID, acr.ID, u.ID); err != nil || c {
		t.Fatalf("merge: %v %v", err, c)
	}
	if got := readAll(dup.ID); got != dupBefore {
		t.Fatalf("the duplicate reads %q after its original changed, %q before", got, dupBefore)
	}

	if err := st.DeleteSpace(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	advance(store.RestoreWindow + time.Hour)
	if n, err := st.PurgeDeletedSpaces(ctx); err != nil || n != 1 {
		t.Fatalf("purge: %d %v", n, err)
	}
	if got := readAll(dup.ID); got != dupBefore {
		t.Fatalf("the duplicate reads %q after its original's purge, %q before", got, dupBefore)
	}
	if count(`SELECT count(*) FROM revisions WHERE space_id = ?`, a.ID) != 0 {
		t.Fatal("revisions of the purged space are left")
	}

	if err := st.DeleteSpace(ctx, dup.ID); err != nil {
		t.Fatal(err)
	}
	advance(store.RestoreWindow + time.Hour)
	if n, err := st.PurgeDeletedSpaces(ctx); err != nil || n != 1 {
		t.Fatalf("purge: %d %v", n, err)
	}
	if got := readAll(other.ID); got != otherBefore {
		t.Fatalf("another space reads %q after the purges, %q before", got, otherBefore)
	}
	// Everything left belongs to the other space's lines.
	if n := count(`SELECT count(*) FROM lines WHERE space_id != ?`, other.ID); n != 0 {
		t.Fatalf("%d lines of purged spaces are left", n)
	}
	for _, q := range []string{
		`SELECT count(*) FROM page_versions v JOIN lines l ON l.id = v.line_id WHERE l.space_id != ?`,
		`SELECT count(*) FROM page_versions v WHERE NOT EXISTS (SELECT 1 FROM lines l WHERE l.id = v.line_id) AND ? != ''`,
		`SELECT count(*) FROM file_versions f WHERE NOT EXISTS (SELECT 1 FROM lines l WHERE l.id = f.line_id AND l.space_id = ?)`,
		`SELECT count(*) FROM page_links k WHERE NOT EXISTS (SELECT 1 FROM page_versions v JOIN lines l ON l.id = v.line_id
			WHERE v.id = k.version_id AND l.space_id = ?)`,
		`SELECT count(*) FROM page_bodies b WHERE NOT EXISTS (SELECT 1 FROM page_versions v JOIN lines l ON l.id = v.line_id
			WHERE v.body_id = b.id AND l.space_id = ?)`,
		`SELECT count(*) FROM blobs b WHERE NOT EXISTS (SELECT 1 FROM file_versions f JOIN lines l ON l.id = f.line_id
			WHERE f.blob_id = b.id AND l.space_id = ?)`,
	} {
		if n := count(q, other.ID); n != 0 {
			t.Fatalf("%d rows only purged spaces used are left: %s", n, q)
		}
	}
	if count(`SELECT count(*) FROM blobs`) != 1 || count(`SELECT count(*) FROM page_bodies`) == 0 {
		t.Fatal("the bytes and bodies the other space uses are gone")
	}
}
