package server_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/markdown"
)

// contentFixture is an organization with one space, an admin who edits it, a `read` member, a
// guest and an outsider (a member of another organization).
type contentFixture struct {
	*testServer
	admin, reader, guest, outsider *testUser
	org                            gen.Organization
	space                          gen.Space
}

func newContentFixture(t *testing.T) *contentFixture {
	t.Helper()
	ts := newTestServer(t)
	f := &contentFixture{
		testServer: ts,
		admin:      ts.MustCreateUser(t, "ada@docs.test", "Ada"),
		reader:     ts.MustCreateUser(t, "rita@readers.test", "Rita"),
		guest:      ts.MustCreateUser(t, "gus@guests.test", "Gus"),
		outsider:   ts.MustCreateUser(t, "otto@other.test", "Otto"),
	}
	f.org = ts.MustCreateOrg(t, f.admin, "Docs Inc")
	ts.MustAddMember(t, f.admin, f.org.Id, f.reader, "read")
	ts.MustAddMember(t, f.admin, f.org.Id, f.guest, "")
	ts.MustCreateOrg(t, f.outsider, "Other Co")
	f.space = ts.MustCreateSpace(t, f.admin, f.org.Id, "Handbook", "")
	return f
}

// newCR opens a change request on a space as the admin.
func (f *contentFixture) newCR(t *testing.T, spaceID string) gen.ChangeRequest {
	t.Helper()
	var cr gen.ChangeRequest
	f.Expect(t, http.StatusCreated, f.admin, "POST", "/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Edits"}).Decode(t, &cr)
	return cr
}

// cr re-reads a change request.
func (f *contentFixture) cr(t *testing.T, spaceID, crID string) gen.ChangeRequest {
	t.Helper()
	var cr gen.ChangeRequest
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+spaceID+"/change-requests/"+crID, nil).Decode(t, &cr)
	return cr
}

func contentBatchPath(spaceID, crID string) string {
	return "/spaces/" + spaceID + "/change-requests/" + crID + "/content"
}

// apply sends a batch to a change request of the fixture's space, which must answer 200.
func (f *contentFixture) apply(t *testing.T, crID string, changes ...map[string]any) batchResult {
	t.Helper()
	return f.applyIn(t, f.space.Id, crID, changes...)
}

func (f *contentFixture) applyIn(t *testing.T, spaceID, crID string, changes ...map[string]any) batchResult {
	t.Helper()
	return postBatch(t, f.testServer, f.admin, spaceID, crID, changes)
}

// reject sends a batch that must answer 400 with a message containing every part.
func (f *contentFixture) reject(t *testing.T, crID string, changes []map[string]any, parts ...string) string {
	t.Helper()
	r := f.Expect(t, http.StatusBadRequest, f.admin, "POST", contentBatchPath(f.space.Id, crID), map[string]any{"changes": changes})
	msg := r.ErrorMessage(t)
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Fatalf("message %q does not contain %q", msg, p)
		}
	}
	return msg
}

// crPages lists the page tree of a change request of the fixture's space.
func (f *contentFixture) crPages(t *testing.T, crID string) []gen.RevisionPage {
	t.Helper()
	return f.crPagesIn(t, f.space.Id, crID)
}

func (f *contentFixture) crPagesIn(t *testing.T, spaceID, crID string) []gen.RevisionPage {
	t.Helper()
	var tree gen.PageTree
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+spaceID+"/change-requests/"+crID+"/content/pages", nil).Decode(t, &tree)
	return tree.Pages
}

// spacePages lists the page tree of a space's current revision.
func (f *contentFixture) spacePages(t *testing.T, u *testUser, spaceID string) []gen.RevisionPage {
	t.Helper()
	var tree gen.PageTree
	f.Expect(t, http.StatusOK, u, "GET", "/spaces/"+spaceID+"/content/pages", nil).Decode(t, &tree)
	return tree.Pages
}

// crPage reads a page of a change request by id with a query ("" for none).
func (f *contentFixture) crPage(t *testing.T, crID, pageID, query string) gen.RevisionPage {
	t.Helper()
	var p gen.RevisionPage
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+f.space.Id+"/change-requests/"+crID+"/content/page/"+pageID+query, nil).Decode(t, &p)
	return p
}

func (f *contentFixture) merge(t *testing.T, spaceID, crID string) string {
	t.Helper()
	var m gen.MergeChangeRequestResult
	f.Expect(t, http.StatusOK, f.admin, "POST", "/spaces/"+spaceID+"/change-requests/"+crID+"/merge", nil).Decode(t, &m)
	if m.Result != "merge" || m.Revision == "" {
		t.Fatalf("merge %+v", m)
	}
	return m.Revision
}

// contentOutline flattens a page tree depth-first as "path title", indented by depth.
func contentOutline(pages []gen.RevisionPage) []string {
	out := []string{}
	var walk func(ps []gen.RevisionPage, depth int)
	walk = func(ps []gen.RevisionPage, depth int) {
		for _, p := range ps {
			out = append(out, strings.Repeat("  ", depth)+p.Path+" "+p.Title)
			walk(p.Pages, depth+1)
		}
	}
	walk(pages, 0)
	return out
}

func contentWantOutline(t *testing.T, what string, pages []gen.RevisionPage, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := contentOutline(pages); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s outline:\n got %q\nwant %q", what, got, want)
	}
}

// contentFind returns the page with an id anywhere in a tree.
func contentFind(pages []gen.RevisionPage, id string) *gen.RevisionPage {
	for i := range pages {
		if pages[i].Id == id {
			return &pages[i]
		}
		if p := contentFind(pages[i].Pages, id); p != nil {
			return p
		}
	}
	return nil
}

func contentInsert(title string, extra ...any) map[string]any {
	c := map[string]any{"operation": "insert_page", "title": title, "document": contentMarkdown("")}
	for i := 0; i+1 < len(extra); i += 2 {
		c[extra[i].(string)] = extra[i+1]
	}
	return c
}

func contentUpdate(page string, extra ...any) map[string]any {
	c := map[string]any{"operation": "update_page", "page": page}
	for i := 0; i+1 < len(extra); i += 2 {
		c[extra[i].(string)] = extra[i+1]
	}
	return c
}

func contentDelete(page string) map[string]any {
	return map[string]any{"operation": "delete_page", "page": page}
}

func contentMarkdown(md string) map[string]any { return map[string]any{"markdown": md} }

func TestContentBatchInsertNestedWithRefs(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	if cr.Number != 1 || cr.Revision != cr.RevisionInitial || cr.RevisionInitial != f.space.Revision {
		t.Fatalf("new change request %+v (space revision %s)", cr, f.space.Revision)
	}
	res := f.apply(t, cr.Id,
		contentInsert("Getting started", "ref", "gs", "document", contentMarkdown("Welcome.\n")),
		contentInsert("Install", "ref", "inst", "into", "gs"),
		contentInsert("Configure", "into", "gs"),
		contentInsert("Reference", "ref", "ref"),
	)
	if len(res.Refs) != 3 || res.Refs["gs"] == "" || res.Refs["inst"] == "" || res.Refs["ref"] == "" ||
		res.Refs["gs"] == res.Refs["inst"] || res.Refs["gs"] == res.Refs["ref"] {
		t.Fatalf("refs %v", res.Refs)
	}
	if res.Revision == cr.Revision {
		t.Fatal("the batch did not make a new revision")
	}
	if got := f.cr(t, f.space.Id, cr.Id); got.Revision != res.Revision || got.RevisionInitial != cr.RevisionInitial {
		t.Fatalf("change request revision %s / initial %s after batch %s", got.Revision, got.RevisionInitial, res.Revision)
	}
	pages := f.crPages(t, cr.Id)
	contentWantOutline(t, "after insert", pages,
		"getting-started Getting started",
		"  getting-started/install Install",
		"  getting-started/configure Configure",
		"reference Reference")
	if pages[0].Id != res.Refs["gs"] || pages[0].Pages[0].Id != res.Refs["inst"] || pages[1].Id != res.Refs["ref"] {
		t.Fatalf("ids do not match refs %v: %q %q %q", res.Refs, pages[0].Id, pages[0].Pages[0].Id, pages[1].Id)
	}
	for _, p := range []gen.RevisionPage{pages[0], pages[0].Pages[0], pages[1]} {
		if p.Kind != "sheet" || p.Type != "document" || p.Slug == "" || p.Markdown != nil || p.Document != nil {
			t.Fatalf("listed page %+v", p)
		}
		if !strings.Contains(p.Urls.App, p.Path) {
			t.Fatalf("page app url %q for path %q", p.Urls.App, p.Path)
		}
	}
	if p := f.crPage(t, cr.Id, res.Refs["gs"], "?format=markdown"); p.Markdown == nil || *p.Markdown != "Welcome.\n" {
		t.Fatalf("markdown %v", p.Markdown)
	}
	// A page inserted without a document has an empty body.
	if p := f.crPage(t, cr.Id, res.Refs["inst"], "?format=markdown"); p.Markdown == nil || *p.Markdown != "" {
		t.Fatalf("empty page markdown %v", p.Markdown)
	}

	// A later batch inserts into a page by its id, and refs are answered per batch.
	res2 := f.apply(t, cr.Id, contentInsert("Linux", "into", res.Refs["inst"], "ref", "linux"))
	if len(res2.Refs) != 1 || res2.Refs["linux"] == "" {
		t.Fatalf("second batch refs %v", res2.Refs)
	}
	pages = f.crPages(t, cr.Id)
	if p := contentFind(pages, res2.Refs["linux"]); p == nil || p.Path != "getting-started/install/linux" {
		t.Fatalf("deep page %+v", p)
	}
	// A ref of an earlier batch means nothing in a later one.
	f.reject(t, cr.Id, []map[string]any{contentInsert("X", "into", "gs")}, "changes[0]", "gs")
	// An empty batch answers an empty refs map.
	res3 := f.apply(t, cr.Id, contentUpdate(res.Refs["ref"], "title", "Reference"))
	if len(res3.Refs) != 0 {
		t.Fatalf("refs %v", res3.Refs)
	}
}

func TestContentBatchAtPlacesPages(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	res := f.apply(t, cr.Id, contentInsert("A", "ref", "a"), contentInsert("B", "ref", "b"), contentInsert("C"))
	f.apply(t, cr.Id, contentInsert("First", "at", 0))
	contentWantOutline(t, "at 0", f.crPages(t, cr.Id), "first First", "a A", "b B", "c C")
	f.apply(t, cr.Id, contentInsert("Between", "at", 2))
	contentWantOutline(t, "at 2", f.crPages(t, cr.Id), "first First", "a A", "between Between", "b B", "c C")
	f.apply(t, cr.Id, contentInsert("Last", "at", 5))
	contentWantOutline(t, "at the end", f.crPages(t, cr.Id), "first First", "a A", "between Between", "b B", "c C", "last Last")

	// Several in one batch, each placed among the siblings as they are at that point.
	f.apply(t, cr.Id,
		contentInsert("Kid 1", "into", res.Refs["a"]),
		contentInsert("Kid 0", "into", res.Refs["a"], "at", 0),
		contentInsert("Kid 0.5", "into", res.Refs["a"], "at", 1),
	)
	pages := f.crPages(t, cr.Id)
	contentWantOutline(t, "nested at", pages[1].Pages, "a/kid-0 Kid 0", "a/kid-0-5 Kid 0.5", "a/kid-1 Kid 1")

	// update_page with `at` alone moves a page among its siblings.
	f.apply(t, cr.Id, contentUpdate(res.Refs["b"], "at", 0))
	contentWantOutline(t, "move b first", f.crPages(t, cr.Id)[:3], "b B", "first First", "a A",
		"  a/kid-0 Kid 0", "  a/kid-0-5 Kid 0.5", "  a/kid-1 Kid 1")
	// `at` counts the other siblings: the last index for a page already there is len-1.
	f.apply(t, cr.Id, contentUpdate(res.Refs["b"], "at", 5))
	pages = f.crPages(t, cr.Id)
	if pages[len(pages)-1].Id != res.Refs["b"] || len(pages) != 6 {
		t.Fatalf("b not last: %q", contentOutline(pages))
	}
	f.reject(t, cr.Id, []map[string]any{contentUpdate(res.Refs["b"], "at", 6)}, "changes[0]", "at")
}

func TestContentBatchUpdatePage(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	res := f.apply(t, cr.Id,
		contentInsert("Guides", "ref", "guides"),
		contentInsert("Setup", "ref", "setup", "into", "guides", "document", contentMarkdown("old body\n")),
		contentInsert("One", "ref", "one", "into", "setup"),
		contentInsert("Other", "ref", "other"),
	)
	guides, setup, one, other := res.Refs["guides"], res.Refs["setup"], res.Refs["one"], res.Refs["other"]

	t.Run("TitleAloneKeepsTheSlugASlugMovesTheSubpages", func(t *testing.T) {
		f.apply(t, cr.Id, contentUpdate(guides, "title", "User Guides"))
		contentWantOutline(t, "renamed", f.crPages(t, cr.Id),
			"guides User Guides", "  guides/setup Setup", "    guides/setup/one One", "other Other")
		f.apply(t, cr.Id, contentUpdate(guides, "slug", "user-guides"))
		contentWantOutline(t, "renamed", f.crPages(t, cr.Id),
			"user-guides User Guides", "  user-guides/setup Setup", "    user-guides/setup/one One", "other Other")
		p := f.crPage(t, cr.Id, one, "")
		if p.Path != "user-guides/setup/one" {
			t.Fatalf("subpage path %q", p.Path)
		}
	})
	t.Run("ExplicitSlug", func(t *testing.T) {
		f.apply(t, cr.Id, contentUpdate(setup, "slug", "installation"))
		p := f.crPage(t, cr.Id, setup, "")
		if p.Slug != "installation" || p.Path != "user-guides/installation" || p.Title != "Setup" {
			t.Fatalf("page %s %s %s", p.Title, p.Slug, p.Path)
		}
		if p := f.crPage(t, cr.Id, one, ""); p.Path != "user-guides/installation/one" {
			t.Fatalf("subpage path %q", p.Path)
		}
		// Title and slug together: the slug given wins.
		f.apply(t, cr.Id, contentUpdate(setup, "title", "Set it up", "slug", "setup"))
		p = f.crPage(t, cr.Id, setup, "")
		if p.Slug != "setup" || p.Title != "Set it up" || p.Path != "user-guides/setup" {
			t.Fatalf("page %s %s %s", p.Title, p.Slug, p.Path)
		}
	})
	t.Run("Document", func(t *testing.T) {
		md := "# Setup\n\nNew *body* with a [link](https://example.com).\n"
		f.apply(t, cr.Id, contentUpdate(setup, "document", contentMarkdown(md)))
		p := f.crPage(t, cr.Id, setup, "?format=markdown")
		if p.Markdown == nil || *p.Markdown != md || p.Title != "Set it up" || p.Path != "user-guides/setup" {
			t.Fatalf("page %+v markdown %v", p, p.Markdown)
		}
		// The document alone leaves the title, slug and place alone.
		contentWantOutline(t, "after document", f.crPages(t, cr.Id),
			"user-guides User Guides", "  user-guides/setup Set it up", "    user-guides/setup/one One", "other Other")
	})
	t.Run("ByRefInTheSameBatch", func(t *testing.T) {
		res := f.apply(t, cr.Id,
			contentInsert("Draft", "ref", "d"),
			contentUpdate("d", "title", "Final", "document", contentMarkdown("done\n")),
		)
		p := f.crPage(t, cr.Id, res.Refs["d"], "?format=markdown")
		if p.Title != "Final" || p.Slug != "final" || p.Path != "final" || *p.Markdown != "done\n" {
			t.Fatalf("page %s %s %s %q", p.Title, p.Slug, p.Path, *p.Markdown)
		}
		f.apply(t, cr.Id, contentDelete(res.Refs["d"]))
	})
	t.Run("IntoMovesTheSubtree", func(t *testing.T) {
		f.apply(t, cr.Id, contentUpdate(setup, "into", other))
		contentWantOutline(t, "moved", f.crPages(t, cr.Id),
			"user-guides User Guides", "other Other", "  other/setup Set it up", "    other/setup/one One")
		if p := f.crPage(t, cr.Id, one, "?format=markdown"); p.Path != "other/setup/one" {
			t.Fatalf("subpage path %q", p.Path)
		}
		// With `at` it lands at that index among the new siblings.
		f.apply(t, cr.Id, contentUpdate(guides, "into", other, "at", 0))
		contentWantOutline(t, "moved first", f.crPages(t, cr.Id),
			"other Other", "  other/user-guides User Guides", "  other/setup Set it up", "    other/setup/one One")
	})
	t.Run("IntoNullMovesToTheTopLevel", func(t *testing.T) {
		f.apply(t, cr.Id, map[string]any{"operation": "update_page", "page": setup, "into": nil})
		contentWantOutline(t, "top level", f.crPages(t, cr.Id),
			"other Other", "  other/user-guides User Guides", "setup Set it up", "  setup/one One")
		f.apply(t, cr.Id, map[string]any{"operation": "update_page", "page": guides, "into": nil, "at": 0})
		contentWantOutline(t, "top level first", f.crPages(t, cr.Id),
			"user-guides User Guides", "other Other", "setup Set it up", "  setup/one One")
	})
	t.Run("OtherFields", func(t *testing.T) {
		f.apply(t, cr.Id, contentUpdate(other, "description", "All the rest", "emoji", "1f4da", "hidden", true))
		p := f.crPage(t, cr.Id, other, "")
		if p.Description == nil || *p.Description != "All the rest" || p.Emoji == nil || *p.Emoji != "1f4da" ||
			p.Hidden == nil || !*p.Hidden || p.Title != "Other" {
			t.Fatalf("page %+v", p)
		}
	})
}

func TestContentBatchDeletePageWithSubpages(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	res := f.apply(t, cr.Id,
		contentInsert("Keep", "ref", "keep"),
		contentInsert("Gone", "ref", "gone"),
		contentInsert("Child", "ref", "child", "into", "gone"),
		contentInsert("Grandchild", "ref", "gc", "into", "child"),
		contentInsert("Kept child", "into", "keep"),
	)
	f.apply(t, cr.Id, contentDelete(res.Refs["gone"]))
	contentWantOutline(t, "after delete", f.crPages(t, cr.Id), "keep Keep", "  keep/kept-child Kept child")
	base := "/spaces/" + f.space.Id + "/change-requests/" + cr.Id + "/content/"
	for _, id := range []string{res.Refs["gone"], res.Refs["child"], res.Refs["gc"]} {
		f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"page/"+id, nil)
	}
	f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/gone", nil)
	// A deleted page is no longer there to delete.
	f.reject(t, cr.Id, []map[string]any{contentDelete(res.Refs["child"])}, "changes[0]")
	// Inserting and deleting in one batch leaves nothing.
	r := f.apply(t, cr.Id, contentInsert("Temp", "ref", "t"), contentInsert("Temp kid", "into", "t"), contentDelete("t"))
	if len(r.Update.Changes) != 0 {
		t.Fatalf("a page inserted and deleted in one batch has outcomes %v", r.outcomes(t))
	}
	contentWantOutline(t, "after temp", f.crPages(t, cr.Id), "keep Keep", "  keep/kept-child Kept child")
	// Deleting everything leaves an empty tree.
	f.apply(t, cr.Id, contentDelete(res.Refs["keep"]))
	contentWantOutline(t, "empty", f.crPages(t, cr.Id))
}

func TestContentBatchSlugs(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	res := f.apply(t, cr.Id,
		contentInsert("Intro", "ref", "i1"),
		contentInsert("Intro", "ref", "i2"),
		contentInsert("intro!", "ref", "i3"),
		contentInsert("Café Crème — Déjà vu!", "ref", "cafe"),
		contentInsert("  C++ & Go: 100% (fun)  ", "ref", "cpp"),
		contentInsert("¿Qué pasa?", "ref", "que"),
		contentInsert("Ünïcödé Straße", "ref", "uni"),
		contentInsert("🚀", "ref", "rocket"),
		contentInsert("Intro", "ref", "nested", "into", "i1"),
		contentInsert(strings.Repeat("long words ", 18), "ref", "long"),
	)
	want := map[string]string{
		"i1": "intro", "i2": "intro-2", "i3": "intro-3", "cafe": "cafe-creme-deja-vu", "cpp": "c-go-100-fun",
		"que": "que-pasa", "nested": "intro",
	}
	pages := f.crPages(t, cr.Id)
	for ref, slug := range want {
		p := contentFind(pages, res.Refs[ref])
		if p == nil || p.Slug != slug {
			t.Fatalf("%s: page %+v, want slug %q", ref, p, slug)
		}
	}
	if p := contentFind(pages, res.Refs["nested"]); p.Path != "intro/intro" {
		t.Fatalf("nested path %q", p.Path)
	}
	// Every slug is lower-case ASCII words joined by single hyphens, never empty, at most 100 long.
	for _, ref := range []string{"uni", "rocket", "long"} {
		p := contentFind(pages, res.Refs[ref])
		if p == nil || !contentSlugOK(p.Slug) || len(p.Slug) > 100 {
			t.Fatalf("%s: slug %q", ref, p.Slug)
		}
	}
	if p := contentFind(pages, res.Refs["uni"]); !strings.HasPrefix(p.Slug, "unicode-stra") {
		t.Fatalf("unicode slug %q", p.Slug)
	}
	// Renaming a page to a sibling's title keeps its slug, and the sibling's.
	f.apply(t, cr.Id, contentUpdate(res.Refs["cafe"], "title", "Intro"))
	pages = f.crPages(t, cr.Id)
	for ref, slug := range map[string]string{"i1": "intro", "i2": "intro-2", "i3": "intro-3", "cafe": "cafe-creme-deja-vu"} {
		if p := contentFind(pages, res.Refs[ref]); p.Slug != slug || p.Path != slug {
			t.Fatalf("%s: slug %q path %q, want %q", ref, p.Slug, p.Path, slug)
		}
	}
	// A new page placed before an existing "Intro" does not take the existing page's slug.
	r := f.apply(t, cr.Id, contentInsert("Intro", "ref", "new", "at", 0))
	pages = f.crPages(t, cr.Id)
	if p := contentFind(pages, res.Refs["i1"]); p.Slug != "intro" || p.Path != "intro" {
		t.Fatalf("existing page's slug changed to %q (path %q)", p.Slug, p.Path)
	}
	if p := contentFind(pages, res.Refs["nested"]); p.Path != "intro/intro" {
		t.Fatalf("existing subpage's path changed to %q", p.Path)
	}
	if p := contentFind(pages, r.Refs["new"]); p.Slug == "intro" || !strings.HasPrefix(p.Slug, "intro-") {
		t.Fatalf("new page slug %q", p.Slug)
	}
	// An explicit slug a sibling already has is refused, and nothing changes.
	before := contentOutline(pages)
	f.reject(t, cr.Id, []map[string]any{contentInsert("Other"), contentUpdate(res.Refs["que"], "slug", "intro")},
		"changes[1].slug", "already the slug of a sibling")
	// Two explicit slugs of one batch collide too.
	f.reject(t, cr.Id, []map[string]any{contentInsert("A", "slug", "same"), contentInsert("B", "slug", "same")}, "changes[1].slug")
	if got := contentOutline(f.crPages(t, cr.Id)); !reflect.DeepEqual(got, before) {
		t.Fatalf("refused slugs changed the tree: %q", got)
	}
	// A slug freed earlier in the batch may be taken later in it.
	f.apply(t, cr.Id, contentUpdate(res.Refs["i1"], "slug", "first-intro"), contentUpdate(res.Refs["que"], "slug", "intro"))
	pages = f.crPages(t, cr.Id)
	if p := contentFind(pages, res.Refs["que"]); p.Slug != "intro" {
		t.Fatalf("explicit slug became %q", p.Slug)
	}
	if p := contentFind(pages, res.Refs["i1"]); p.Slug != "first-intro" || p.Path != "first-intro" {
		t.Fatalf("renamed sibling's slug %q", p.Slug)
	}
	// Paths stay unique across the tree.
	seen := map[string]bool{}
	for _, line := range contentOutline(pages) {
		path := strings.Fields(line)[0]
		if seen[path] {
			t.Fatalf("path %q twice: %q", path, contentOutline(pages))
		}
		seen[path] = true
	}
}

func contentSlugOK(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func TestContentBatchIsAtomic(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	res := f.apply(t, cr.Id, contentInsert("Alpha", "ref", "a", "document", contentMarkdown("alpha\n")), contentInsert("Beta", "ref", "b"))
	before := f.cr(t, f.space.Id, cr.Id)
	outline := contentOutline(f.crPages(t, cr.Id))

	msg := f.reject(t, cr.Id, []map[string]any{
		contentInsert("Gamma"),
		contentUpdate(res.Refs["a"], "title", "Renamed", "document", contentMarkdown("changed\n")),
		contentUpdate("no-such-page", "title", "X"),
		contentDelete(res.Refs["b"]),
	}, "changes[2]", "no-such-page")
	if strings.Contains(msg, "changes[0]") || strings.Contains(msg, "changes[1]") {
		t.Fatalf("message names other changes: %q", msg)
	}
	after := f.cr(t, f.space.Id, cr.Id)
	if after.Revision != before.Revision {
		t.Fatalf("revision moved from %s to %s", before.Revision, after.Revision)
	}
	if got := contentOutline(f.crPages(t, cr.Id)); !reflect.DeepEqual(got, outline) {
		t.Fatalf("pages changed: %q, was %q", got, outline)
	}
	if p := f.crPage(t, cr.Id, res.Refs["a"], "?format=markdown"); p.Title != "Alpha" || *p.Markdown != "alpha\n" {
		t.Fatalf("page a %s %q", p.Title, *p.Markdown)
	}
	var rev gen.Revision
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+f.space.Id+"/change-requests/"+cr.Id+"/content", nil).Decode(t, &rev)
	if rev.Id != before.Revision {
		t.Fatalf("revision %s, change request says %s", rev.Id, before.Revision)
	}
}

func TestContentBatchRejects(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	res := f.apply(t, cr.Id, contentInsert("Parent", "ref", "p"), contentInsert("Child", "ref", "c", "into", "p"),
		contentInsert("Grandchild", "ref", "g", "into", "c"))
	parent, child, grandchild := res.Refs["p"], res.Refs["c"], res.Refs["g"]
	before := f.cr(t, f.space.Id, cr.Id).Revision

	cases := []struct {
		name    string
		changes []map[string]any
		parts   []string
	}{
		{"InsertWithoutDocument", []map[string]any{{"operation": "insert_page", "title": "X"}}, []string{"changes[0]", "document"}},
		{"InsertWithEmptyTitle", []map[string]any{contentInsert("")}, []string{"changes[0].title"}},
		{"InsertWithPage", []map[string]any{contentInsert("X", "page", parent)}, []string{"changes[0]", "page"}},
		{"InsertIntoMissingPage", []map[string]any{contentInsert("X", "into", "nope")}, []string{"changes[0]", "into"}},
		{"UpdateWithoutPage", []map[string]any{{"operation": "update_page", "title": "X"}}, []string{"changes[0]", "page"}},
		{"UpdateMissingPage", []map[string]any{contentInsert("X"), contentUpdate("nope", "title", "Y")}, []string{"changes[1]", "nope"}},
		{"UpdateWithRef", []map[string]any{contentUpdate(parent, "ref", "r")}, []string{"changes[0]", "ref"}},
		{"DeleteWithoutPage", []map[string]any{{"operation": "delete_page"}}, []string{"changes[0]", "page"}},
		{"AtPastTheEnd", []map[string]any{contentInsert("X", "at", 2)}, []string{"changes[0]", "at"}},
		{"AtPastTheEndOfAParent", []map[string]any{contentInsert("X", "into", parent, "at", 2)}, []string{"changes[0]", "at"}},
		{"NegativeAt", []map[string]any{contentInsert("X", "at", -1)}, []string{"at"}},
		{"IntoItself", []map[string]any{contentUpdate(parent, "into", parent)}, []string{"changes[0]", "into"}},
		{"IntoItsOwnSubpage", []map[string]any{contentUpdate(parent, "into", grandchild)}, []string{"changes[0]", "into"}},
		{"IntoItsChild", []map[string]any{contentUpdate(child, "into", grandchild)}, []string{"changes[0]", "into"}},
		{"DuplicateRef", []map[string]any{contentInsert("X", "ref", "r"), contentInsert("Y", "ref", "r")}, []string{"changes[1]", "r"}},
		{"UnknownOperation", []map[string]any{contentInsert("X"), {"operation": "rename_page", "page": parent}}, []string{"changes[1].operation"}},
		{"UnknownProperty", []map[string]any{contentInsert("X", "colour", "red")}, []string{"colour"}},
		{"UnknownDocumentProperty", []map[string]any{contentInsert("X", "document", map[string]any{"markdown": "x", "html": "<p>"})}, []string{"html"}},
		{"BadSlug", []map[string]any{contentUpdate(parent, "slug", "Not A Slug")}, []string{"slug"}},
		{"TitleTooLong", []map[string]any{contentInsert(strings.Repeat("t", 201))}, []string{"title"}},
		{"NoOperation", []map[string]any{{"title": "X"}}, []string{"changes[0].operation"}},
		{"OldTypeField", []map[string]any{{"type": "insert_page", "title": "X"}}, []string{"changes[0].operation"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.reject(t, cr.Id, c.changes, c.parts...)
		})
	}
	t.Run("NoChanges", func(t *testing.T) {
		f.Expect(t, http.StatusBadRequest, f.admin, "POST", contentBatchPath(f.space.Id, cr.Id), map[string]any{"changes": []any{}})
		f.Expect(t, http.StatusBadRequest, f.admin, "POST", contentBatchPath(f.space.Id, cr.Id), map[string]any{})
		f.Expect(t, http.StatusBadRequest, f.admin, "POST", contentBatchPath(f.space.Id, cr.Id), map[string]any{"changes": []any{}, "extra": 1})
	})
	t.Run("Over50Changes", func(t *testing.T) {
		changes := make([]map[string]any, 51)
		for i := range changes {
			changes[i] = contentInsert(fmt.Sprintf("Page %d", i))
		}
		f.reject(t, cr.Id, changes, "changes")
	})
	t.Run("MarkdownOver1MiB", func(t *testing.T) {
		f.reject(t, cr.Id, []map[string]any{contentInsert("Big", "document", contentMarkdown(strings.Repeat("a", 1<<20+1)))}, "markdown")
	})
	if after := f.cr(t, f.space.Id, cr.Id).Revision; after != before {
		t.Fatalf("a rejected batch moved the revision from %s to %s", before, after)
	}
	contentWantOutline(t, "after rejects", f.crPages(t, cr.Id), "parent Parent", "  parent/child Child", "    parent/child/grandchild Grandchild")

	t.Run("Exactly50ChangesAndMarkdownOf1MiB", func(t *testing.T) {
		changes := make([]map[string]any, 50)
		for i := range changes {
			changes[i] = contentInsert(fmt.Sprintf("Page %d", i), "ref", fmt.Sprintf("p%d", i))
		}
		big := strings.Repeat("b", 1<<20)
		changes[0]["document"] = contentMarkdown(big)
		res := f.apply(t, cr.Id, changes...)
		if len(res.Refs) != 50 {
			t.Fatalf("%d refs", len(res.Refs))
		}
		if n := len(f.crPages(t, cr.Id)); n != 51 {
			t.Fatalf("%d top-level pages", n)
		}
		if p := f.crPage(t, cr.Id, res.Refs["p0"], "?format=markdown"); p.Markdown == nil || *p.Markdown != big {
			t.Fatal("1 MiB markdown not kept")
		}
	})
}

func TestContentBatchAccess(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	body := map[string]any{"changes": []map[string]any{contentInsert("X")}}
	path := contentBatchPath(f.space.Id, cr.Id)
	f.Expect(t, http.StatusNotFound, f.admin, "POST", contentBatchPath(f.space.Id, "no-such-cr"), body)
	f.Expect(t, http.StatusNotFound, f.admin, "POST", contentBatchPath("no-such-space", cr.Id), body)
	f.Expect(t, http.StatusNotFound, f.outsider, "POST", path, body)
	f.Expect(t, http.StatusForbidden, f.reader, "POST", path, body)
	f.Expect(t, http.StatusForbidden, f.guest, "POST", path, body)
	f.Expect(t, http.StatusUnauthorized, nil, "POST", path, body)
	// A change request of another space is not found through this one.
	other := f.MustCreateSpace(t, f.admin, f.org.Id, "Other", "")
	f.Expect(t, http.StatusNotFound, f.admin, "POST", contentBatchPath(other.Id, cr.Id), body)
	if got := f.cr(t, f.space.Id, cr.Id); got.Revision != cr.Revision {
		t.Fatalf("refused batches moved the revision")
	}
	// An editor member may write.
	editor := f.MustCreateUser(t, "eve@docs.test", "Eve")
	f.MustAddMember(t, f.admin, f.org.Id, editor, "edit")
	f.Expect(t, http.StatusOK, editor, "POST", path, body)
	contentWantOutline(t, "editor's page", f.crPages(t, cr.Id), "x X")
}

func TestContentReadChangeRequestAndSpaceRevisions(t *testing.T) {
	f := newContentFixture(t)
	sid := f.space.Id
	var initial gen.Revision
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/content", nil).Decode(t, &initial)
	if initial.Id != f.space.Revision || len(initial.Pages) != 0 || initial.Object != "revision" {
		t.Fatalf("initial revision %+v", initial)
	}
	cr := f.newCR(t, sid)
	var crRev gen.Revision
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/change-requests/"+cr.Id+"/content", nil).Decode(t, &crRev)
	if crRev.Id != initial.Id || len(crRev.Pages) != 0 {
		t.Fatalf("change request's first revision %+v", crRev)
	}

	res1 := f.apply(t, cr.Id, contentInsert("Home", "ref", "home", "document", contentMarkdown("Home page.\n")),
		contentInsert("Sub", "ref", "sub", "into", "home"))
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/change-requests/"+cr.Id+"/content", nil).Decode(t, &crRev)
	if crRev.Id != res1.Revision || !reflect.DeepEqual(crRev.Parents, []string{initial.Id}) {
		t.Fatalf("first batch's revision %s parents %v, want %s with parents [%s]", crRev.Id, crRev.Parents, res1.Revision, initial.Id)
	}
	res2 := f.apply(t, cr.Id, contentInsert("About"))

	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/change-requests/"+cr.Id+"/content", nil).Decode(t, &crRev)
	if crRev.Id != res2.Revision || crRev.Type != "edits" || !reflect.DeepEqual(crRev.Parents, []string{res1.Revision}) {
		t.Fatalf("revision %s type %s parents %v, want %s with parents [%s]", crRev.Id, crRev.Type, crRev.Parents, res2.Revision, res1.Revision)
	}
	contentWantOutline(t, "change request revision", crRev.Pages, "home Home", "  home/sub Sub", "about About")
	if crRev.Pages[0].Pages[0].Id != res1.Refs["sub"] || crRev.Pages[0].Markdown != nil || crRev.Pages[0].Document != nil {
		t.Fatalf("revision pages %+v", crRev.Pages[0])
	}
	if crRev.Files == nil || crRev.Variables == nil || crRev.CreatedAt.IsZero() {
		t.Fatalf("revision %+v", crRev)
	}
	var first gen.Revision
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/change-requests/"+cr.Id+"/content", nil).Decode(t, &first)

	// The space's content has not moved.
	var cur gen.Revision
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/content", nil).Decode(t, &cur)
	if cur.Id != initial.Id || len(cur.Pages) != 0 {
		t.Fatalf("current revision before merge %s with %d pages", cur.Id, len(cur.Pages))
	}
	contentWantOutline(t, "space pages before merge", f.spacePages(t, f.admin, sid))
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/content/page/"+res1.Refs["home"], nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/content/path/home", nil)

	merged := f.merge(t, sid, cr.Id)
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/content", nil).Decode(t, &cur)
	if cur.Id != merged || cur.Type != "merge" {
		t.Fatalf("current revision %s (%s), merge wrote %s", cur.Id, cur.Type, merged)
	}
	if len(cur.Parents) != 2 || !(cur.Parents[0] == initial.Id && cur.Parents[1] == res2.Revision ||
		cur.Parents[1] == initial.Id && cur.Parents[0] == res2.Revision) {
		t.Fatalf("merge parents %v, want %s and %s", cur.Parents, initial.Id, res2.Revision)
	}
	if cur.MergedFrom == nil || cur.MergedFrom.Id != cr.Id {
		t.Fatalf("mergedFrom %+v", cur.MergedFrom)
	}
	contentWantOutline(t, "current revision after merge", cur.Pages, "home Home", "  home/sub Sub", "about About")
	contentWantOutline(t, "space pages after merge", f.spacePages(t, f.admin, sid), "home Home", "  home/sub Sub", "about About")
	var p gen.RevisionPage
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/content/page/"+res1.Refs["home"]+"?format=markdown", nil).Decode(t, &p)
	if p.Markdown == nil || *p.Markdown != "Home page.\n" {
		t.Fatalf("merged page markdown %v", p.Markdown)
	}
	if sp := f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid, nil).Map(t); sp["revision"] != merged {
		t.Fatalf("space revision %v, merge wrote %s", sp["revision"], merged)
	}
}

// contentDocMarkdown exercises the blocks the document form must carry.
const contentDocMarkdown = "# Getting started\n\nRead the [API docs](https://api.example.com/docs) first.\n\n" +
	"- one\n- two\n\n```go\nfmt.Println(\"hi\")\nreturn\n```\n\n![Diagram](https://img.example.com/d.png)\n"

func contentNodeTypes(nodes []*markdown.Node) []string {
	out := []string{}
	for _, n := range nodes {
		if n.Type != "" {
			out = append(out, n.Type)
		} else {
			out = append(out, n.Object)
		}
	}
	return out
}

func contentChildren(n *markdown.Node) []*markdown.Node { return n.Nodes }

// contentText is the text of a document node's leaves, through its descendants.
func contentText(n *markdown.Node) string { return markdown.Text([]*markdown.Node{n}) }

// contentCheckDocument checks the document form of contentDocMarkdown.
func contentCheckDocument(t *testing.T, p gen.RevisionPage) {
	t.Helper()
	if p.Markdown != nil {
		t.Fatalf("document form also answered markdown")
	}
	d := p.Document
	if d == nil || d.Object != "document" {
		t.Fatalf("document %+v", d)
	}
	got := contentNodeTypes(d.Nodes)
	want := []string{"heading-1", "paragraph", "list-unordered", "code", "images"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("blocks %v, want %v", got, want)
	}
	for _, n := range d.Nodes {
		if n.Object != "block" || n.Key == "" {
			t.Fatalf("block %+v", n)
		}
	}
	if got := contentText(d.Nodes[0]); got != "Getting started" {
		t.Fatalf("heading text %q", got)
	}
	if got := contentText(d.Nodes[1]); got != "Read the API docs first." {
		t.Fatalf("paragraph text %q", got)
	}
	if got := contentText(d.Nodes[3]); got != "fmt.Println(\"hi\")return" {
		t.Fatalf("code text %q", got)
	}
	para := contentChildren(d.Nodes[1])
	var link *markdown.Node
	for _, n := range para {
		if n.Object == "inline" && n.Type == "link" {
			link = n
		}
	}
	if link == nil || link.Data == nil {
		t.Fatalf("no link inline in %v", contentNodeTypes(para))
	}
	if ref, _ := link.Data["ref"].(map[string]any); ref["kind"] != "url" || ref["url"] != "https://api.example.com/docs" {
		t.Fatalf("link data %v", link.Data)
	}
	if items := contentNodeTypes(contentChildren(d.Nodes[2])); !reflect.DeepEqual(items, []string{"list-item", "list-item"}) {
		t.Fatalf("list items %v", items)
	}
	code := d.Nodes[3]
	if code.Data["syntax"] != "go" {
		t.Fatalf("code data %v", code.Data)
	}
	if lines := contentNodeTypes(contentChildren(code)); !reflect.DeepEqual(lines, []string{"code-line", "code-line"}) {
		t.Fatalf("code lines %v", lines)
	}
	imgs := contentChildren(d.Nodes[4])
	if len(imgs) != 1 || imgs[0].Type != "image" {
		t.Fatalf("images %v", contentNodeTypes(imgs))
	}
}

func TestContentReadPages(t *testing.T) {
	f := newContentFixture(t)
	sid := f.space.Id
	cr := f.newCR(t, sid)
	res := f.apply(t, cr.Id,
		contentInsert("Guide", "ref", "guide", "document", contentMarkdown("---\ntitle: Guide\n---\n"+contentDocMarkdown)),
		contentInsert("Install", "ref", "install", "into", "guide", "document", contentMarkdown("Install *it*.\n")),
		contentInsert("On Linux", "ref", "linux", "into", "install"),
		contentInsert("FAQ", "ref", "faq"),
	)
	guide, install := res.Refs["guide"], res.Refs["install"]
	crBase := "/spaces/" + sid + "/change-requests/" + cr.Id + "/content/"
	spBase := "/spaces/" + sid + "/content/"

	check := func(t *testing.T, base string) {
		t.Run("MarkdownIsExact", func(t *testing.T) {
			var p gen.RevisionPage
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"page/"+guide+"?format=markdown", nil).Decode(t, &p)
			if p.Markdown == nil || *p.Markdown != contentDocMarkdown || p.Document != nil {
				t.Fatalf("markdown %v document %v", p.Markdown, p.Document)
			}
			if p.Id != guide || p.Title != "Guide" || p.Path != "guide" {
				t.Fatalf("page %+v", p)
			}
		})
		t.Run("DocumentByDefaultAndOnRequest", func(t *testing.T) {
			for _, q := range []string{"", "?format=document"} {
				var p gen.RevisionPage
				f.Expect(t, http.StatusOK, f.admin, "GET", base+"page/"+guide+q, nil).Decode(t, &p)
				contentCheckDocument(t, p)
			}
		})
		t.Run("SubpagesAreIncluded", func(t *testing.T) {
			var p gen.RevisionPage
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"page/"+guide, nil).Decode(t, &p)
			contentWantOutline(t, "guide's subpages", p.Pages, "guide/install Install", "  guide/install/on-linux On Linux")
			if p.Pages[0].Id != install || p.Pages[0].Document != nil || p.Pages[0].Markdown != nil {
				t.Fatalf("subpage %+v", p.Pages[0])
			}
			var leaf gen.RevisionPage
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"page/"+res.Refs["linux"], nil).Decode(t, &leaf)
			if len(leaf.Pages) != 0 || leaf.Path != "guide/install/on-linux" || leaf.Document == nil {
				t.Fatalf("leaf %+v", leaf)
			}
			// An empty page answers an empty document.
			if len(leaf.Document.Nodes) != 0 {
				t.Fatalf("empty page's document %+v", leaf.Document)
			}
		})
		t.Run("ByPath", func(t *testing.T) {
			var p gen.RevisionPage
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/guide%2Finstall?format=markdown", nil).Decode(t, &p)
			if p.Id != install || p.Markdown == nil || *p.Markdown != "Install *it*.\n" {
				t.Fatalf("by encoded path %+v", p)
			}
			contentWantOutline(t, "install's subpages", p.Pages, "guide/install/on-linux On Linux")
			var deep, faq, g gen.RevisionPage
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/guide%2Finstall%2Fon-linux", nil).Decode(t, &deep)
			if deep.Id != res.Refs["linux"] {
				t.Fatalf("deep path %+v", deep)
			}
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/faq", nil).Decode(t, &faq)
			if faq.Id != res.Refs["faq"] || faq.Document == nil || faq.Markdown != nil {
				t.Fatalf("by one-segment path %+v", faq)
			}
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/guide", nil).Decode(t, &g)
			contentCheckDocument(t, g)
		})
		t.Run("NestedPathWithRawSlashes", func(t *testing.T) {
			// Sent with real slashes the path spans several segments; quire still finds the page.
			var p gen.RevisionPage
			f.Expect(t, http.StatusOK, f.admin, "GET", base+"path/guide/install/on-linux?format=markdown", nil).Decode(t, &p)
			if p.Id != res.Refs["linux"] || p.Markdown == nil {
				t.Fatalf("by raw path %+v", p)
			}
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/guide/install/nope", nil)
		})
		t.Run("Unknown", func(t *testing.T) {
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"page/no-such-page", nil)
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/no-such-path", nil)
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/guide%2Fnope", nil)
			f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/install", nil) // not at the top level
		})
		t.Run("FormatHTMLIs400", func(t *testing.T) {
			r := f.Expect(t, http.StatusBadRequest, f.admin, "GET", base+"page/"+guide+"?format=html", nil)
			if !strings.Contains(r.ErrorMessage(t), "format") {
				t.Fatalf("message %q", r.ErrorMessage(t))
			}
			f.Expect(t, http.StatusBadRequest, f.admin, "GET", base+"path/guide?format=html", nil)
		})
		t.Run("Access", func(t *testing.T) {
			for _, path := range []string{base + "page/" + guide, base + "path/guide", base + "pages"} {
				f.Expect(t, http.StatusOK, f.reader, "GET", path, nil)
				f.Expect(t, http.StatusForbidden, f.guest, "GET", path, nil)
				f.Expect(t, http.StatusNotFound, f.outsider, "GET", path, nil)
				f.Expect(t, http.StatusUnauthorized, nil, "GET", path, nil)
			}
			var p gen.RevisionPage
			f.Expect(t, http.StatusOK, f.reader, "GET", base+"page/"+guide+"?format=markdown", nil).Decode(t, &p)
			if p.Markdown == nil || *p.Markdown != contentDocMarkdown {
				t.Fatalf("reader's markdown %v", p.Markdown)
			}
		})
	}
	t.Run("ChangeRequest", func(t *testing.T) { check(t, crBase) })

	// The revision reads need the same access.
	for _, path := range []string{"/spaces/" + sid + "/change-requests/" + cr.Id + "/content", "/spaces/" + sid + "/content"} {
		f.Expect(t, http.StatusOK, f.reader, "GET", path, nil)
		f.Expect(t, http.StatusForbidden, f.guest, "GET", path, nil)
		f.Expect(t, http.StatusNotFound, f.outsider, "GET", path, nil)
	}
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/change-requests/no-such-cr/content", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/"+sid+"/change-requests/no-such-cr/content/pages", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/no-such-space/content", nil)
	f.Expect(t, http.StatusNotFound, f.admin, "GET", "/spaces/no-such-space/content/pages", nil)

	f.merge(t, sid, cr.Id)
	t.Run("Space", func(t *testing.T) { check(t, spBase) })
	contentWantOutline(t, "reader's listing", f.spacePages(t, f.reader, sid),
		"guide Guide", "  guide/install Install", "    guide/install/on-linux On Linux", "faq FAQ")
}

func TestContentDuplicateSpaceCopiesContent(t *testing.T) {
	f := newContentFixture(t)
	sid := f.space.Id
	cr := f.newCR(t, sid)
	res := f.apply(t, cr.Id,
		contentInsert("Intro", "ref", "intro", "document", contentMarkdown("Hello **world**\n")),
		contentInsert("Details", "ref", "details", "into", "intro", "document", contentMarkdown("More.\n")),
		contentInsert("Appendix"),
	)
	f.merge(t, sid, cr.Id)
	orig := f.spacePages(t, f.admin, sid)

	var dup gen.Space
	f.Expect(t, http.StatusOK, f.admin, "POST", "/spaces/"+sid+"/duplicate", nil).Decode(t, &dup)
	if dup.Id == sid {
		t.Fatal("duplicate has the original's id")
	}
	copied := f.spacePages(t, f.admin, dup.Id)
	if !reflect.DeepEqual(contentOutline(copied), contentOutline(orig)) {
		t.Fatalf("copy's pages %q, original's %q", contentOutline(copied), contentOutline(orig))
	}
	var cp gen.RevisionPage
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+dup.Id+"/content/path/intro%2Fdetails?format=markdown", nil).Decode(t, &cp)
	if cp.Markdown == nil || *cp.Markdown != "More.\n" {
		t.Fatalf("copied markdown %v", cp.Markdown)
	}

	// Edit the copy through its own change request.
	dcr := f.newCR(t, dup.Id)
	if dcr.Number != 1 {
		t.Fatalf("copy's first change request number %d", dcr.Number)
	}
	intro := copied[0]
	f.applyIn(t, dup.Id, dcr.Id,
		contentUpdate(intro.Id, "title", "Welcome", "document", contentMarkdown("Changed\n")),
		contentDelete(copied[1].Id),
		contentInsert("Copy only"),
	)
	f.merge(t, dup.Id, dcr.Id)
	contentWantOutline(t, "edited copy", f.spacePages(t, f.admin, dup.Id),
		"intro Welcome", "  intro/details Details", "copy-only Copy only")

	// The original is as it was.
	contentWantOutline(t, "original", f.spacePages(t, f.admin, sid), contentOutline(orig)...)
	var op gen.RevisionPage
	f.Expect(t, http.StatusOK, f.admin, "GET", "/spaces/"+sid+"/content/page/"+res.Refs["intro"]+"?format=markdown", nil).Decode(t, &op)
	if op.Title != "Intro" || op.Markdown == nil || *op.Markdown != "Hello **world**\n" {
		t.Fatalf("original page %s %v", op.Title, op.Markdown)
	}
	// An open change request of the original still sees the original's content.
	ocr := f.newCR(t, sid)
	contentWantOutline(t, "original's new change request", f.crPages(t, ocr.Id), contentOutline(orig)...)
}

func TestContentBatchManyInsertsAtTheSameIndexKeepOrder(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	f.apply(t, cr.Id, contentInsert("A"), contentInsert("B"), contentInsert("C"))
	// Each new page goes right after B, before the one inserted just before it: 80 bisections
	// of the same gap.
	want := []string{"a A", "b B"}
	for batch := 0; batch < 2; batch++ {
		changes := make([]map[string]any, 40)
		for i := range changes {
			n := batch*40 + i
			changes[i] = contentInsert(fmt.Sprintf("N%d", n), "at", 2)
		}
		f.apply(t, cr.Id, changes...)
	}
	for n := 79; n >= 0; n-- {
		want = append(want, fmt.Sprintf("n%d N%d", n, n))
	}
	want = append(want, "c C")
	contentWantOutline(t, "after bisections", f.crPages(t, cr.Id), want...)
}

func TestContentBatchRefusedOnMergedChangeRequestAndLockedSpace(t *testing.T) {
	f := newContentFixture(t)
	cr := f.newCR(t, f.space.Id)
	f.apply(t, cr.Id, contentInsert("A"))
	f.merge(t, f.space.Id, cr.Id)
	body := map[string]any{"changes": []map[string]any{contentInsert("Late")}}
	r := f.Expect(t, http.StatusConflict, f.admin, "POST", contentBatchPath(f.space.Id, cr.Id), body)
	if !strings.Contains(r.ErrorMessage(t), "merged") {
		t.Fatalf("message %q", r.ErrorMessage(t))
	}
	contentWantOutline(t, "merged change request", f.crPages(t, cr.Id), "a A")

	open := f.newCR(t, f.space.Id)
	f.Expect(t, http.StatusOK, f.admin, "PATCH", "/spaces/"+f.space.Id, map[string]any{"editMode": "locked"})
	f.Expect(t, http.StatusForbidden, f.admin, "POST", contentBatchPath(f.space.Id, open.Id), body)
	contentWantOutline(t, "locked space", f.crPages(t, open.Id), "a A")
}
