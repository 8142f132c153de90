package sqlstore

import (
	"context"
	"database/sql"
	"testing"

	"github.com/quire-docs/quire/store"
	"github.com/quire-docs/quire/store/storetest"
)

// A database whose section index was made without positions (migration 0003's detail=column,
// where bm25 scores every section 0) gets it made again by migration 0030 from the text it keeps:
// the same sections are found, the organization scope still applies, and sections rank.
func TestMigrationMakesTheSectionIndexRank(t *testing.T) {
	ctx := context.Background()
	dbPath := t.TempDir() + "/search.db"
	st, err := OpenSQLite(ctx, dbPath, testIsUnique)
	if err != nil {
		t.Fatal(err)
	}
	o := storetest.MustOwner(t, st, "search@example.com")
	str := func(s string) *string { return &s }
	sp, err := st.CreateSpace(ctx, o.Org.ID, o.User.ID, store.SpaceCreate{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := st.CreateChangeRequest(ctx, sp.ID, o.User.ID, "content")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateChangeRequestContent(ctx, sp.ID, cr.ID, o.User.ID, []store.PageChange{
		{Type: "insert_page", Ref: str("a"), Title: str("Animals"), Markdown: str("Intro.\n\n## Zebras\n\nThe zebra grazes; a zebra runs; zebra zebra.\n")},
		{Type: "insert_page", Ref: str("b"), Title: str("Birds"), Markdown: str("A heron waits by a long river, and a zebra passes far away behind the trees.\n")},
	}); err != nil {
		t.Fatal(err)
	}
	if _, c, err := st.MergeChangeRequest(ctx, sp.ID, cr.ID, o.User.ID); err != nil || c {
		t.Fatalf("merge: %v %v", err, c)
	}
	st.Close()

	db, err := sql.Open("sqlite3", "file:"+dbPath+"?_foreign_keys=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`DROP TABLE search_fts`,
		`CREATE VIRTUAL TABLE search_fts USING fts5(title, body, scope, content='', contentless_delete=1, detail=column,
			tokenize='unicode61 remove_diacritics 2')`,
		`DELETE FROM schema_migrations WHERE name = 'migrations/0030_search_sections_ranked.sql'`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	st, err = OpenSQLite(ctx, dbPath, testIsUnique)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, err := st.SearchSpace(ctx, sp.ID, "zebra", store.Page{})
	if err != nil || len(l.Items) != 2 {
		t.Fatalf("after the migration: %+v, %v", l, err)
	}
	// The page saying zebra five times in a short section ranks above the one saying it once.
	if l.Items[0].Title != "Animals" || l.Items[0].Sections[0].Title != "Zebras" || !(l.Items[0].Score > l.Items[1].Score && l.Items[1].Score > 0) {
		t.Fatalf("ranked %q (%v), %q (%v)", l.Items[0].Title, l.Items[0].Score, l.Items[1].Title, l.Items[1].Score)
	}
	hits, err := st.SearchOrganization(ctx, o.Org.ID, "heron", nil, store.Page{})
	if err != nil || len(hits.Items) != 1 {
		t.Fatalf("organization scope after the migration: %+v, %v", hits, err)
	}
	if hits, _ := st.SearchOrganization(ctx, "elsewhere", "heron", nil, store.Page{}); len(hits.Items) != 0 {
		t.Fatalf("another organization finds %+v", hits.Items)
	}
}
