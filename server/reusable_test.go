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
