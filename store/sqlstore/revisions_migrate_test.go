package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/quire-docs/quire/store"
)

// A database written by the old content model (every revision a full copy of its pages, files
// and links: migrations up to 0006) is migrated on start, and every revision reads back as it was;
// content written after the migration builds on the migrated revisions.
func TestMigrationKeepsEveryRevision(t *testing.T) {
	ctx := context.Background()
	dbPath := t.TempDir() + "/old.db"
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?_foreign_keys=1")
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`)
	history, err := migrations(false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range history {
		if m.name >= "migrations/0007" {
			break
		}
		exec(m.body)
		exec(`INSERT INTO schema_migrations (name, applied_at) VALUES (?, '2026-01-01T00:00:00.000000Z')`, m.name)
	}
	now := "2026-01-01T00:00:00.000000Z"
	exec(`INSERT INTO users (id, email, display_name, created_at) VALUES ('u1', 'old@example.com', 'Old', ?)`, now)
	exec(`INSERT INTO organizations (id, title, created_at) VALUES ('o1', 'Old org', ?)`, now)
	exec(`INSERT INTO spaces (id, organization_id, title, revision_id, position, created_by, created_at, updated_at)
		VALUES ('s1', 'o1', 'Old space', 'r3', 0, 'u1', ?, ?)`, now, now)
	for _, r := range [][2]string{{"r1", `[]`}, {"r2", `["r1"]`}, {"r3", `["r2"]`}, {"r4", `["r2"]`}} {
		exec(`INSERT INTO revisions (id, space_id, parents, created_at) VALUES (?, 's1', ?, ?)`, r[0], r[1], now)
	}
	exec(`INSERT INTO page_bodies (id, markdown) VALUES (1, ?), (2, 'Guide v1'), (3, 'Guide v2'),
		(4, 'New in r3'), (5, 'Guide in the change request ![x](/files/f1)')`, "# Intro\n\nSee [guide](/pages/pg).\n")
	page := func(rev, id string, parent any, pos float64, title, path string, body int) {
		exec(`INSERT INTO revision_pages (revision_id, page_id, parent_id, position, title, slug, path, body_id, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, rev, id, parent, pos, title, path[strings.LastIndex(path, "/")+1:], path, body, now, now)
	}
	page("r2", "pi", nil, 0, "Intro", "intro", 1)
	page("r2", "pg", "pi", 0, "Guide", "intro/guide", 2)
	page("r3", "pi", nil, 0, "Intro", "intro", 1)
	page("r3", "pg", "pi", 0, "Guide", "intro/guide", 3)
	page("r3", "pn", nil, 1, "New", "new", 4)
	page("r4", "pi", nil, 0, "Intro", "intro", 1)
	page("r4", "pg", "pi", 0, "Guide", "intro/guide", 5)
	exec(`INSERT INTO blobs (id, sha256, size, data) VALUES (1, 'abc', 3, x'010203')`)
	exec(`INSERT INTO revision_files (revision_id, file_id, name, content_type, blob_id) VALUES ('r4', 'f1', 'x.png', 'image/png', 1)`)
	for _, rev := range []string{"r2", "r3", "r4"} {
		exec(`INSERT INTO revision_links (revision_id, page_id, kind, target) VALUES (?, 'pi', 'page', 'pg')`, rev)
	}
	exec(`INSERT INTO revision_links (revision_id, page_id, kind, target) VALUES ('r4', 'pg', 'file', 'f1')`)
	exec(`INSERT INTO change_requests (id, space_id, number, created_by, revision_initial, revision_id, created_at, updated_at)
		VALUES ('c1', 's1', 1, 'u1', 'r2', 'r4', ?, ?)`, now, now)
	db.Close()

	st, err := OpenSQLite(ctx, dbPath, testIsUnique)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	type want struct {
		pages map[string]string // id -> path + " " + markdown
		files []string
	}
	wants := map[string]want{
		"r1": {pages: map[string]string{}},
		"r2": {pages: map[string]string{"pi": "intro # Intro\n\nSee [guide](/pages/pg).\n", "pg": "intro/guide Guide v1"}},
		"r3": {pages: map[string]string{"pi": "intro # Intro\n\nSee [guide](/pages/pg).\n", "pg": "intro/guide Guide v2", "pn": "new New in r3"}},
		"r4": {pages: map[string]string{"pi": "intro # Intro\n\nSee [guide](/pages/pg).\n", "pg": "intro/guide Guide in the change request ![x](/files/f1)"},
			files: []string{"f1"}},
	}
	check := func(when string) {
		t.Helper()
		for rev, w := range wants {
			r, err := st.FindRevision(ctx, "s1", rev)
			if err != nil || len(r.Pages) != len(w.pages) {
				t.Fatalf("%s: revision %s: %v, %d pages, want %d", when, rev, err, len(r.Pages), len(w.pages))
			}
			for _, p := range r.Pages {
				full, err := st.FindPage(ctx, rev, p.ID)
				if err != nil || full.Path+" "+full.Markdown != w.pages[p.ID] {
					t.Fatalf("%s: revision %s page %s: %q (%v), want %q", when, rev, p.ID, full.Path+" "+full.Markdown, err, w.pages[p.ID])
				}
				if byPath, err := st.FindPageByPath(ctx, rev, p.Path); err != nil || byPath.ID != p.ID {
					t.Fatalf("%s: revision %s path %s: %v", when, rev, p.Path, err)
				}
			}
			files, err := st.FindAllFiles(ctx, rev)
			if err != nil || len(files) != len(w.files) || (len(files) == 1 && files[0].ID != "f1") {
				t.Fatalf("%s: revision %s files %v %v, want %v", when, rev, files, err, w.files)
			}
			if len(w.pages) > 0 {
				back, err := st.FindBacklinks(ctx, rev, "page", "pg", store.Page{})
				if err != nil || back.Count != 1 || back.Items[0] != "pi" {
					t.Fatalf("%s: revision %s backlinks of pg: %+v %v", when, rev, back, err)
				}
			}
		}
		links, stats, err := st.FindLinks(ctx, "r4", store.LinkFilter{}, store.Page{})
		if err != nil || stats.Total != 2 || stats.Broken != 0 || links.Count != 2 {
			t.Fatalf("%s: links of r4: %+v %+v %v", when, links, stats, err)
		}
		if data, ct, err := st.FindBlob(ctx, "abc", "x.png"); err != nil || ct != "image/png" || len(data) != 3 {
			t.Fatalf("%s: blob: %v", when, err)
		}
	}
	check("after the migration")

	// New content builds on the migrated revisions: a batch on the change request, its merge.
	md := "Guide v3"
	pg := "pg"
	if _, err := st.UpdateChangeRequestContent(ctx, "s1", "c1", "u1", []store.PageChange{{Type: "update_page", Page: &pg, Markdown: &md}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateChangeRequestFromMain(ctx, "s1", "c1"); err == nil || store.ErrorCode(err) != store.ECONFLICT {
		t.Fatalf("update from main: %v, want a conflict on the guide", err)
	}
	title, slug := "Intro renamed", "intro-renamed"
	pi := "pi"
	cr, err := st.CreateChangeRequest(ctx, "s1", "u1", "rename")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdateChangeRequestContent(ctx, "s1", cr.ID, "u1", []store.PageChange{{Type: "update_page", Page: &pi, Title: &title, Slug: &slug}}); err != nil {
		t.Fatal(err)
	}
	merged, conflicts, err := st.MergeChangeRequest(ctx, "s1", cr.ID, "u1")
	if err != nil || conflicts {
		t.Fatalf("merge: %v %v", err, conflicts)
	}
	p, err := st.FindPageByPath(ctx, merged, "intro-renamed/guide")
	if err != nil || p.Markdown != "Guide v2" {
		t.Fatalf("merged revision's guide: %+v %v", p, err)
	}
	check("after new writes")
}
