package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/publicspec"
)

// Revision-pinned reads answer the content of the revision named, whatever the space's current
// revision is since.
func TestRevisionPinnedReads(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Seed")
	first := w.apply(t, w.admin, sp.Id, cr.Id,
		insertFiles(fileUpload("notes.txt", "text/plain", []byte("hello"), "nf")),
		insertMarkdown("Guide", "Read [setup](./setup.md#install), [by path](/pages/setup), the [notes](/files/nf) and [the web](https://example.com/x.md).\n", "g"),
		insertMarkdown("Setup", "# Setup\n\n## Install\n\nRun it.\n", "s"))
	rev1 := w.merged(t, sp.Id, cr.Id)
	guide, setup, notes := first.Refs["g"], first.Refs["s"], first.Refs["nf"]
	base := "/spaces/" + sp.Id + "/revisions/" + rev1

	// Main moves on: the guide is rewritten, the setup page deleted.
	cr2 := w.create(t, w.admin, sp.Id, "Rewrite")
	w.apply(t, w.admin, sp.Id, cr2.Id, editPage(guide, "Nothing to read.\n"), deletePage(setup))
	rev2 := w.merged(t, sp.Id, cr2.Id)

	t.Run("Revision", func(t *testing.T) {
		r := getJSON[gen.Revision](t, w.testServer, w.reader, base+"?metadata=true")
		if r.Id != rev1 || len(r.Pages) != 2 || len(r.Files) != 1 || r.Files[0].Id != notes {
			t.Fatalf("revision %s: %d pages, files %+v", r.Id, len(r.Pages), r.Files)
		}
		if r.MergedFrom == nil || r.MergedFrom.Id != cr.Id {
			t.Fatalf("mergedFrom = %+v, want the seed change request", r.MergedFrom)
		}
		pt := getJSON[gen.PageTree](t, w.testServer, w.reader, base+"/pages")
		wantOutline(t, "pages of the first revision", pt.Pages, "guide Guide", "setup Setup")
	})

	t.Run("PageById", func(t *testing.T) {
		md := getJSON[gen.RevisionPage](t, w.testServer, w.reader, base+"/page/"+guide+"?format=markdown")
		if md.Markdown == nil || !strings.Contains(*md.Markdown, "(./setup.md#install)") {
			t.Fatalf("markdown of the first revision = %q", *md.Markdown)
		}
		now := getJSON[gen.RevisionPage](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/revisions/"+rev2+"/page/"+guide+"?format=markdown")
		if *now.Markdown != "Nothing to read.\n" {
			t.Fatalf("markdown of the second revision = %q", *now.Markdown)
		}
		doc := getJSON[gen.RevisionPage](t, w.testServer, w.reader, base+"/page/"+guide)
		if doc.Document == nil || doc.DocumentId == nil || doc.Markdown != nil {
			t.Fatalf("document page: document %v, documentId %v", doc.Document != nil, doc.DocumentId)
		}
	})

	t.Run("StableRefs", func(t *testing.T) {
		p := getJSON[gen.RevisionPage](t, w.testServer, w.reader, base+"/page/"+guide+"?format=markdown&format.markdown.refs=stable")
		want := "Read [setup](/pages/" + setup + "#install), [by path](/pages/" + setup + "), the [notes](/files/" + notes + ") and [the web](https://example.com/x.md).\n"
		if p.Markdown == nil || *p.Markdown != want {
			t.Fatalf("stable markdown\n%v\nwant\n%s", *p.Markdown, want)
		}
		// In the second revision the setup page is gone: its link stays as written.
		cr3 := w.create(t, w.admin, sp.Id, "Link")
		w.apply(t, w.admin, sp.Id, cr3.Id, editPage(guide, "See [setup](./setup.md).\n"))
		rev3 := w.merged(t, sp.Id, cr3.Id)
		p = getJSON[gen.RevisionPage](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/revisions/"+rev3+"/page/"+guide+"?format=markdown&format.markdown.refs=stable")
		if *p.Markdown != "See [setup](./setup.md).\n" {
			t.Fatalf("a link to a page the revision lacks = %q", *p.Markdown)
		}
		w.Expect(t, http.StatusBadRequest, w.reader, "GET", base+"/page/"+guide+"?format=markdown&format.markdown.refs=absolute", nil)
	})

	t.Run("PageByPath", func(t *testing.T) {
		p := getJSON[gen.RevisionPage](t, w.testServer, w.reader, base+"/path/setup")
		if p.Id != setup {
			t.Fatalf("page at setup = %s", p.Id)
		}
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+sp.Id+"/revisions/"+rev2+"/path/setup", nil)
	})

	t.Run("Document", func(t *testing.T) {
		for _, q := range []string{"", "?evaluated=deterministic-only&dereferenced=reusable-contents", "?evaluated=true&dereferenced=true"} {
			d := getJSON[map[string]any](t, w.testServer, w.reader, base+"/page/"+setup+"/document"+q)
			if d["object"] != "document" || !strings.Contains(mustJSONText(t, d), "Run it.") {
				t.Fatalf("document%s = %v", q, d)
			}
		}
		w.Expect(t, http.StatusBadRequest, w.reader, "GET", base+"/page/"+setup+"/document?dereferenced=some", nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+sp.Id+"/revisions/"+rev2+"/page/"+setup+"/document", nil)
	})

	t.Run("DocumentById", func(t *testing.T) {
		p := getJSON[gen.RevisionPage](t, w.testServer, w.reader, base+"/page/"+setup)
		d := getJSON[map[string]any](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/documents/"+*p.DocumentId)
		if !strings.Contains(mustJSONText(t, d), "Run it.") {
			t.Fatalf("document %s = %v", *p.DocumentId, d)
		}
		// The page's document changes with its content.
		g1 := getJSON[gen.RevisionPage](t, w.testServer, w.reader, base+"/page/"+guide)
		g2 := getJSON[gen.RevisionPage](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/revisions/"+rev2+"/page/"+guide)
		if *g1.DocumentId == *g2.DocumentId {
			t.Fatalf("an edited page kept its documentId %s", *g1.DocumentId)
		}
		// Another space does not reach this space's documents; nor does an outsider.
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+other.Id+"/documents/"+*p.DocumentId, nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+sp.Id+"/documents/"+*p.DocumentId, nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", "/spaces/"+sp.Id+"/documents/not-a-document", nil)
	})

	t.Run("Files", func(t *testing.T) {
		l := getJSON[gen.RevisionFileList](t, w.testServer, w.reader, base+"/files?limit=1")
		if l.Count != 1 || len(l.Items) != 1 || l.Items[0].Id != notes {
			t.Fatalf("files = %+v", l)
		}
		f := getJSON[gen.RevisionFile](t, w.testServer, w.reader, base+"/files/"+notes)
		if f.Name != "notes.txt" {
			t.Fatalf("file = %+v", f)
		}
		w.Expect(t, http.StatusNotFound, w.reader, "GET", base+"/files/nope", nil)
	})

	t.Run("AnswersMatchTodaysClient", func(t *testing.T) {
		for op, path := range map[string]string{
			"getRevisionById":               base,
			"listPagesInRevisionById":       base + "/pages",
			"getPageInRevisionById":         base + "/page/" + guide + "?format=markdown&format.markdown.refs=stable",
			"getPageInRevisionByPath":       base + "/path/setup",
			"getPageDocumentInRevisionById": base + "/page/" + setup + "/document",
			"listFilesInRevisionById":       base + "/files",
			"getFileInRevisionById":         base + "/files/" + notes,
			"getRevisionSemanticChanges":    base + "/changes",
			"listRevisionPageMetaLinks":     base + "/page/" + guide + "/meta-links",
		} {
			wantPublic(t, publicspec.V202, op, w.Expect(t, http.StatusOK, w.reader, "GET", path, nil))
		}
	})

	t.Run("OnlyTheSpacesRevisions", func(t *testing.T) {
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
		for _, suffix := range []string{"", "/pages", "/page/" + guide, "/page/" + guide + "/document", "/path/guide", "/files", "/files/" + notes, "/changes", "/page/" + guide + "/meta-links"} {
			w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+other.Id+"/revisions/"+rev1+suffix, nil)
			w.Expect(t, http.StatusNotFound, w.outsider, "GET", base+suffix, nil)
		}
	})
}

// Semantic changes list what a revision changed from its parent, and a change request from its
// base.
func TestRevisionSemanticChanges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, ids := w.spaceWithPages(t, "Alpha", "A.\n", "Beta", "B.\n", "Gamma", "G.\n")
	first := w.mainRevision(t, sp.Id).Id

	cr := w.create(t, w.admin, sp.Id, "Changes")
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		editPage(ids["Alpha"], "A, again.\n"), updatePage(ids["Beta"], "title", "Beta two"),
		movePage(ids["Gamma"], ids["Alpha"]), insertMarkdown("Delta", "D.\n", "delta"),
		insertFiles(fileUpload("n.txt", "text/plain", []byte("n"), "n")))
	delta := res.Refs["delta"]

	crChanges := getJSON[gen.RevisionSemanticChanges](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/changes?limit=100"))
	wantChanges(t, crChanges, "page_edited "+ids["Alpha"], "page_moved "+ids["Gamma"], "page_edited "+ids["Beta"], "page_created "+delta, "file_created "+res.Refs["n"])
	for _, c := range crChanges.Changes {
		switch {
		case c.Page != nil && c.Page.Id == ids["Alpha"]:
			if a := c.Attributes; a == nil || a.Document == nil || a.Document.Before == nil || a.Title != nil {
				t.Fatalf("alpha's attributes = %+v", a)
			}
		case c.Page != nil && c.Page.Id == ids["Beta"]:
			if a := c.Attributes; a == nil || a.Title == nil || *a.Title.Before != "Beta" || *a.Title.After != "Beta two" || a.Document != nil {
				t.Fatalf("beta's attributes = %+v", a)
			}
		case c.Page != nil && c.Page.Id == ids["Gamma"]:
			if c.Parent == nil || c.Parent.Before != nil || c.Parent.After == nil || c.Parent.After.Id != ids["Alpha"] {
				t.Fatalf("gamma's parent = %+v", c.Parent)
			}
		}
	}
	limited := getJSON[gen.RevisionSemanticChanges](t, w.testServer, w.reader, crPath(sp.Id, cr.Id, "/changes?limit=2"))
	if len(limited.Changes) != 2 || limited.More == nil || *limited.More != 3 {
		t.Fatalf("limit 2: %d changes, more %v", len(limited.Changes), limited.More)
	}
	w.Expect(t, http.StatusBadRequest, w.reader, "GET", crPath(sp.Id, cr.Id, "/changes?limit=0"), nil)

	merged := w.merged(t, sp.Id, cr.Id)
	revChanges := getJSON[gen.RevisionSemanticChanges](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/revisions/"+merged+"/changes?limit=100&metadata=false&computed=false")
	if !reflect.DeepEqual(revChanges.Changes, crChanges.Changes) || revChanges.MergedFrom == nil || revChanges.MergedFrom.Id != cr.Id {
		t.Fatalf("the merge's changes differ from the change request's, or lack mergedFrom: %+v", revChanges)
	}
	// The space's first revision with content created its pages; the default limit is 10.
	seeded := getJSON[gen.RevisionSemanticChanges](t, w.testServer, w.reader, "/spaces/"+sp.Id+"/revisions/"+first+"/changes")
	wantChanges(t, seeded, "page_created "+ids["Alpha"], "page_created "+ids["Beta"], "page_created "+ids["Gamma"])

	cr2 := w.create(t, w.admin, sp.Id, "Delete")
	w.apply(t, w.admin, sp.Id, cr2.Id, deletePage(delta))
	wantChanges(t, getJSON[gen.RevisionSemanticChanges](t, w.testServer, w.reader, crPath(sp.Id, cr2.Id, "/changes")), "page_deleted "+delta)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", crPath(sp.Id, cr2.Id, "/changes"), nil)
	wantPublic(t, publicspec.V202, "getChangeRequestChanges", w.Expect(t, http.StatusOK, w.reader, "GET", crPath(sp.Id, cr.Id, "/changes"), nil))
	wantPublic(t, publicspec.V202, "getRevisionSemanticChanges", w.Expect(t, http.StatusOK, w.reader, "GET", "/spaces/"+sp.Id+"/revisions/"+merged+"/changes", nil))
}

func wantChanges(t *testing.T, got gen.RevisionSemanticChanges, want ...string) {
	t.Helper()
	var have []string
	for _, c := range got.Changes {
		id := ""
		if c.Page != nil {
			id = c.Page.Id
		} else if c.File != nil {
			id = c.File.Id
		}
		have = append(have, string(c.Type)+" "+id)
	}
	if !reflect.DeepEqual(have, want) {
		t.Fatalf("changes %q, want %q", have, want)
	}
}
