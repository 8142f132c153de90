package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// insertReusable is an insert_reusable_content change with markdown.
func insertReusable(title, md, ref string) map[string]any {
	c := map[string]any{"operation": "insert_reusable_content", "title": title, "document": markdownDoc(md)}
	if ref != "" {
		c["ref"] = ref
	}
	return c
}

// Reusable contents are written by the content batch and read per revision: the change
// request's before the merge, main's after, an older revision's as it was.
func TestReusableContents(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Seed")
	res := w.apply(t, w.admin, sp.Id, cr.Id, insertReusable("Warning", "Mind [the guide](./guide.md).\n", "warn"),
		insertMarkdown("Guide", "# Guide\n", "guide"))
	warn := res.Refs["warn"]
	if warn == "" || res.Update.ReusableContents == nil || (*res.Update.ReusableContents)[0].Kind != gen.ChangeRequestContentUpdateReusableContentKindCreated {
		t.Fatalf("batch answer %+v", res.Update.ReusableContents)
	}
	inCR := getJSON[gen.RevisionReusableContent](t, w.testServer, w.admin, crPath(sp.Id, cr.Id, "/content/reusable-contents/"+warn))
	if inCR.Id != warn || inCR.Title != "Warning" || inCR.Document == nil {
		t.Fatalf("in the change request: %+v", inCR)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/reusable-contents/"+warn, nil)
	rev1 := w.merged(t, sp.Id, cr.Id)
	cur := getJSON[gen.RevisionReusableContent](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/reusable-contents/"+warn)
	if cur.Title != "Warning" {
		t.Fatalf("current: %+v", cur)
	}
	doc := string(w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/revisions/"+rev1+"/reusable-contents/"+warn+"/document", nil).Body)
	if !strings.Contains(doc, "Mind ") || !strings.Contains(doc, res.Refs["guide"]) {
		t.Fatalf("document (the link resolved to the guide's id): %s", doc)
	}
	byID := string(w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/documents/"+*cur.Document, nil).Body)
	if !strings.Contains(byID, "Mind ") {
		t.Fatalf("getDocumentById: %s", byID)
	}

	// A page includes it by the tag Git Sync writes: a reusable-content block naming it.
	cr2 := w.create(t, w.admin, sp.Id, "Edit")
	inc := w.apply(t, w.admin, sp.Id, cr2.Id, map[string]any{"operation": "update_reusable_content", "reusableContent": warn, "title": "Caution"},
		insertMarkdown("Uses", "Before\n\n{% include \""+warn+"\" %}\n", "uses"))
	pageDoc := string(w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr2.Id, "/content/page/"+inc.Refs["uses"]), nil).Body)
	if !strings.Contains(pageDoc, `"type":"reusable-content"`) || !strings.Contains(pageDoc, `"reusableContent":"`+warn+`"`) {
		t.Fatalf("the page's document has no reusable-content block naming it: %s", pageDoc)
	}
	w.merged(t, sp.Id, cr2.Id)
	if got := getJSON[gen.RevisionReusableContent](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/reusable-contents/"+warn); got.Title != "Caution" {
		t.Fatalf("after the update: %+v", got)
	}
	if old := getJSON[gen.RevisionReusableContent](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/revisions/"+rev1+"/reusable-contents/"+warn); old.Title != "Warning" {
		t.Fatalf("the older revision: %+v", old)
	}

	cr3 := w.create(t, w.admin, sp.Id, "Bad")
	w.refuse(t, sp.Id, cr3.Id, []map[string]any{{"operation": "delete_reusable_content", "reusableContent": "nope"}}, "changes[0].reusableContent")
	w.refuse(t, sp.Id, cr3.Id, []map[string]any{{"operation": "insert_reusable_content"}}, "title")
	w.apply(t, w.admin, sp.Id, cr3.Id, map[string]any{"operation": "delete_reusable_content", "reusableContent": warn})
	w.merged(t, sp.Id, cr3.Id)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/reusable-contents/"+warn, nil)
}

// A revision lists the reusable contents it holds, and its semantic changes (and a change
// request's) tell the ones created, edited and deleted.
func TestReusableContentsListedAndChanged(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Seed")
	res := w.apply(t, w.admin, sp.Id, cr.Id, insertReusable("Warning", "Mind the gap.\n", "warn"), insertReusable("Tip", "Look.\n", "tip"))
	warn, tip := res.Refs["warn"], res.Refs["tip"]
	rev1 := w.merged(t, sp.Id, cr.Id)
	titles := func(rev string) map[string]string {
		t.Helper()
		r := getJSON[gen.Revision](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/revisions/"+rev)
		m := map[string]string{}
		for _, rc := range r.ReusableContents {
			m[rc.Id] = rc.Title
		}
		return m
	}
	if got := titles(rev1); len(got) != 2 || got[warn] != "Warning" || got[tip] != "Tip" {
		t.Fatalf("the revision's reusableContents: %v", got)
	}
	kinds := func(ch gen.RevisionSemanticChanges) map[string]gen.RevisionSemanticChange {
		m := map[string]gen.RevisionSemanticChange{}
		for _, c := range ch.Changes {
			if c.ReusableContent != nil {
				m[c.ReusableContent.Id] = c
			}
		}
		return m
	}
	created := kinds(getJSON[gen.RevisionSemanticChanges](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/revisions/"+rev1+"/changes"))
	if created[warn].Type != "reusable_content_created" || created[tip].Type != "reusable_content_created" || created[warn].ReusableContent.Title != "Warning" {
		t.Fatalf("changes of the first merge: %+v", created)
	}

	cr2 := w.create(t, w.admin, sp.Id, "Edit")
	w.apply(t, w.admin, sp.Id, cr2.Id, map[string]any{"operation": "update_reusable_content", "reusableContent": warn, "title": "Caution"},
		map[string]any{"operation": "delete_reusable_content", "reusableContent": tip})
	changes := w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr2.Id, "/changes"), nil)
	wantPublicEverywhere(t, "getChangeRequestChanges", changes) // the reusable-content changes in 0.202.0's shapes
	var crChanges gen.RevisionSemanticChanges
	changes.Decode(t, &crChanges)
	changed := kinds(crChanges)
	edit := changed[warn]
	if edit.Type != "reusable_content_edited" || edit.Attributes == nil || edit.Attributes.Title == nil ||
		*edit.Attributes.Title.Before != "Warning" || *edit.Attributes.Title.After != "Caution" || edit.Attributes.Document != nil {
		t.Fatalf("the edit: %+v", edit)
	}
	if changed[tip].Type != "reusable_content_deleted" || changed[tip].ReusableContent.Title != "Tip" {
		t.Fatalf("the delete: %+v", changed[tip])
	}
	rev2 := w.merged(t, sp.Id, cr2.Id)
	wantPublicEverywhere(t, "getRevisionSemanticChanges", w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/revisions/"+rev2+"/changes", nil))
	wantPublicEverywhere(t, "getRevisionById", w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/revisions/"+rev2, nil))
	if got := titles(rev2); len(got) != 1 || got[warn] != "Caution" {
		t.Fatalf("after the edit and the delete: %v", got)
	}
	if got := titles(rev1); len(got) != 2 {
		t.Fatalf("the older revision lost its reusable contents: %v", got)
	}
}

// A duplicated space holds the original's reusable contents, and editing them in the copy leaves
// the original's as they were.
func TestReusableContentsDuplicated(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Seed")
	warn := w.apply(t, w.admin, sp.Id, cr.Id, insertReusable("Warning", "Mind the gap.\n", "warn")).Refs["warn"]
	w.merged(t, sp.Id, cr.Id)
	dup := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/duplicate", nil)
	if got := getJSON[gen.RevisionReusableContent](t, w.testServer, w.admin, "/spaces/"+dup.Id+"/content/reusable-contents/"+warn); got.Title != "Warning" {
		t.Fatalf("in the copy: %+v", got)
	}
	dcr := w.create(t, w.admin, dup.Id, "Edit the copy")
	w.apply(t, w.admin, dup.Id, dcr.Id, map[string]any{"operation": "update_reusable_content", "reusableContent": warn, "title": "Copied"})
	w.merged(t, dup.Id, dcr.Id)
	if got := getJSON[gen.RevisionReusableContent](t, w.testServer, w.admin, "/spaces/"+dup.Id+"/content/reusable-contents/"+warn); got.Title != "Copied" {
		t.Fatalf("edited in the copy: %+v", got)
	}
	if got := getJSON[gen.RevisionReusableContent](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/reusable-contents/"+warn); got.Title != "Warning" {
		t.Fatalf("the original changed with its copy: %+v", got)
	}
}

// A batch's include tags that name a reusable content by a ref of the batch, or by its file in Git
// Sync's layout, are stored with its id; a path that names none refuses the batch.
func TestReusableContentsIncludedByRefAndPath(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.admin, sp.Id, "Seed")
	caution := w.apply(t, w.admin, sp.Id, cr.Id, insertReusable("Caution: hot!", "Hot.\n", "c")).Refs["c"]
	w.merged(t, sp.Id, cr.Id)

	cr = w.create(t, w.admin, sp.Id, "Includes")
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		insertMarkdown("Uses", "{% include \"warn\" %}\n\n{% include \"../.gitbook/includes/caution-hot.md\" %}\n\n{% include \".gitbook/includes/new-one.md\" %}\n", "uses"),
		insertReusable("Warning", "Mind.\n\n{% include \"../.gitbook/includes/caution-hot.md\" %}\n", "warn"),
		insertReusable("New one", "New.\n", ""))
	warn := res.Refs["warn"]
	md := func(path string) string {
		t.Helper()
		p := getJSON[gen.RevisionPage](t, w.testServer, w.admin, path+"?format=markdown")
		return *p.Markdown
	}
	got := md(crPath(sp.Id, cr.Id, "/content/page/"+res.Refs["uses"]))
	if !strings.Contains(got, `{% include "`+warn+`" %}`) || !strings.Contains(got, `{% include "`+caution+`" %}`) || strings.Contains(got, ".gitbook") {
		t.Fatalf("the page's includes were not stored by id: %q", got)
	}
	doc := string(w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id, "/content/reusable-contents/"+warn), nil).Body)
	if !strings.Contains(doc, warn) {
		t.Fatalf("reusable content: %s", doc)
	}
	rev := w.merged(t, sp.Id, cr.Id)
	rdoc := string(w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/revisions/"+rev+"/reusable-contents/"+warn+"/document", nil).Body)
	if !strings.Contains(rdoc, `"reusableContent":"`+caution+`"`) {
		t.Fatalf("an include inside a reusable content was not stored by id: %s", rdoc)
	}

	bad := w.create(t, w.admin, sp.Id, "Bad")
	w.refuse(t, sp.Id, bad.Id, []map[string]any{insertMarkdown("Ok", "x\n", "ok"),
		insertMarkdown("Lost", "{% include \"../.gitbook/includes/nothing.md\" %}\n", "lost")}, "changes[1].document", "nothing.md")
	w.refuse(t, sp.Id, bad.Id, []map[string]any{{"operation": "delete_reusable_content", "reusableContent": caution},
		insertMarkdown("Late", "{% include \".gitbook/includes/caution-hot.md\" %}\n", "late")}, "changes[1].document")
}
