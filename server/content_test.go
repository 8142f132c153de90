package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestContentBatchInsertNestedWithRefs(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	if cr.Number != 1 || cr.Revision != cr.RevisionInitial || cr.RevisionInitial != space.Revision {
		t.Fatalf("new change request %+v (space revision %s)", cr, space.Revision)
	}
	res := f.apply(t, f.admin, space.Id, cr.Id,
		insertPage("Getting started", "ref", "gs", "document", markdownDoc("Welcome.\n")),
		insertPage("Install", "ref", "inst", "into", "gs"),
		insertPage("Configure", "into", "gs"),
		insertPage("Reference", "ref", "ref"),
	)
	if len(res.Refs) != 3 || res.Refs["gs"] == "" || res.Refs["inst"] == "" || res.Refs["ref"] == "" ||
		res.Refs["gs"] == res.Refs["inst"] || res.Refs["gs"] == res.Refs["ref"] {
		t.Fatalf("refs %v", res.Refs)
	}
	if res.Revision == cr.Revision {
		t.Fatal("the batch did not make a new revision")
	}
	if got := f.get(t, space.Id, cr.Id); got.Revision != res.Revision || got.RevisionInitial != cr.RevisionInitial {
		t.Fatalf("change request revision %s / initial %s after batch %s", got.Revision, got.RevisionInitial, res.Revision)
	}
	pages := f.crPages(t, space.Id, cr.Id)
	wantOutline(t, "after insert", pages,
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
	if p := f.page(t, crPath(space.Id, cr.Id), res.Refs["gs"], "?format=markdown"); p.Markdown == nil || *p.Markdown != "Welcome.\n" {
		t.Fatalf("markdown %v", p.Markdown)
	}
	// A page inserted without a document has an empty body.
	if p := f.page(t, crPath(space.Id, cr.Id), res.Refs["inst"], "?format=markdown"); p.Markdown == nil || *p.Markdown != "" {
		t.Fatalf("empty page markdown %v", p.Markdown)
	}

	// A later batch inserts into a page by its id, and refs are answered per batch.
	res2 := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Linux", "into", res.Refs["inst"], "ref", "linux"))
	if len(res2.Refs) != 1 || res2.Refs["linux"] == "" {
		t.Fatalf("second batch refs %v", res2.Refs)
	}
	pages = f.crPages(t, space.Id, cr.Id)
	if p := findPage(pages, res2.Refs["linux"]); p == nil || p.Path != "getting-started/install/linux" {
		t.Fatalf("deep page %+v", p)
	}
	// A ref of an earlier batch means nothing in a later one.
	f.refuse(t, space.Id, cr.Id, []map[string]any{insertPage("X", "into", "gs")}, "changes[0]", "gs")
	// An empty batch answers an empty refs map.
	res3 := f.apply(t, f.admin, space.Id, cr.Id, updatePage(res.Refs["ref"], "title", "Reference"))
	if len(res3.Refs) != 0 {
		t.Fatalf("refs %v", res3.Refs)
	}
}

func TestContentBatchAtPlacesPages(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	res := f.apply(t, f.admin, space.Id, cr.Id, insertPage("A", "ref", "a"), insertPage("B", "ref", "b"), insertPage("C"))
	f.apply(t, f.admin, space.Id, cr.Id, insertPage("First", "at", 0))
	wantOutline(t, "at 0", f.crPages(t, space.Id, cr.Id), "first First", "a A", "b B", "c C")
	f.apply(t, f.admin, space.Id, cr.Id, insertPage("Between", "at", 2))
	wantOutline(t, "at 2", f.crPages(t, space.Id, cr.Id), "first First", "a A", "between Between", "b B", "c C")
	f.apply(t, f.admin, space.Id, cr.Id, insertPage("Last", "at", 5))
	wantOutline(t, "at the end", f.crPages(t, space.Id, cr.Id), "first First", "a A", "between Between", "b B", "c C", "last Last")

	// Several in one batch, each placed among the siblings as they are at that point.
	f.apply(t, f.admin, space.Id, cr.Id,
		insertPage("Kid 1", "into", res.Refs["a"]),
		insertPage("Kid 0", "into", res.Refs["a"], "at", 0),
		insertPage("Kid 0.5", "into", res.Refs["a"], "at", 1),
	)
	pages := f.crPages(t, space.Id, cr.Id)
	wantOutline(t, "nested at", pages[1].Pages, "a/kid-0 Kid 0", "a/kid-0-5 Kid 0.5", "a/kid-1 Kid 1")

	// update_page with `at` alone moves a page among its siblings.
	f.apply(t, f.admin, space.Id, cr.Id, updatePage(res.Refs["b"], "at", 0))
	wantOutline(t, "move b first", f.crPages(t, space.Id, cr.Id)[:3], "b B", "first First", "a A",
		"  a/kid-0 Kid 0", "  a/kid-0-5 Kid 0.5", "  a/kid-1 Kid 1")
	// `at` counts the other siblings: the last index for a page already there is len-1.
	f.apply(t, f.admin, space.Id, cr.Id, updatePage(res.Refs["b"], "at", 5))
	pages = f.crPages(t, space.Id, cr.Id)
	if pages[len(pages)-1].Id != res.Refs["b"] || len(pages) != 6 {
		t.Fatalf("b not last: %q", outline(pages))
	}
	f.refuse(t, space.Id, cr.Id, []map[string]any{updatePage(res.Refs["b"], "at", 6)}, "changes[0]", "at")
}

func TestContentBatchUpdatePage(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	res := f.apply(t, f.admin, space.Id, cr.Id,
		insertPage("Guides", "ref", "guides"),
		insertPage("Setup", "ref", "setup", "into", "guides", "document", markdownDoc("old body\n")),
		insertPage("One", "ref", "one", "into", "setup"),
		insertPage("Other", "ref", "other"),
	)
	guides, setup, one, other := res.Refs["guides"], res.Refs["setup"], res.Refs["one"], res.Refs["other"]

	t.Run("TitleAloneKeepsTheSlugASlugMovesTheSubpages", func(t *testing.T) {
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(guides, "title", "User Guides"))
		wantOutline(t, "renamed", f.crPages(t, space.Id, cr.Id),
			"guides User Guides", "  guides/setup Setup", "    guides/setup/one One", "other Other")
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(guides, "slug", "user-guides"))
		wantOutline(t, "renamed", f.crPages(t, space.Id, cr.Id),
			"user-guides User Guides", "  user-guides/setup Setup", "    user-guides/setup/one One", "other Other")
		p := f.page(t, crPath(space.Id, cr.Id), one, "")
		if p.Path != "user-guides/setup/one" {
			t.Fatalf("subpage path %q", p.Path)
		}
	})
	t.Run("ExplicitSlug", func(t *testing.T) {
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(setup, "slug", "installation"))
		p := f.page(t, crPath(space.Id, cr.Id), setup, "")
		if p.Slug != "installation" || p.Path != "user-guides/installation" || p.Title != "Setup" {
			t.Fatalf("page %s %s %s", p.Title, p.Slug, p.Path)
		}
		if p := f.page(t, crPath(space.Id, cr.Id), one, ""); p.Path != "user-guides/installation/one" {
			t.Fatalf("subpage path %q", p.Path)
		}
		// Title and slug together: the slug given wins.
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(setup, "title", "Set it up", "slug", "setup"))
		p = f.page(t, crPath(space.Id, cr.Id), setup, "")
		if p.Slug != "setup" || p.Title != "Set it up" || p.Path != "user-guides/setup" {
			t.Fatalf("page %s %s %s", p.Title, p.Slug, p.Path)
		}
	})
	t.Run("Document", func(t *testing.T) {
		md := "# Setup\n\nNew *body* with a [link](https://example.com).\n"
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(setup, "document", markdownDoc(md)))
		p := f.page(t, crPath(space.Id, cr.Id), setup, "?format=markdown")
		if p.Markdown == nil || *p.Markdown != md || p.Title != "Set it up" || p.Path != "user-guides/setup" {
			t.Fatalf("page %+v markdown %v", p, p.Markdown)
		}
		// The document alone leaves the title, slug and place alone.
		wantOutline(t, "after document", f.crPages(t, space.Id, cr.Id),
			"user-guides User Guides", "  user-guides/setup Set it up", "    user-guides/setup/one One", "other Other")
	})
	t.Run("ByRefInTheSameBatch", func(t *testing.T) {
		res := f.apply(t, f.admin, space.Id, cr.Id,
			insertPage("Draft", "ref", "d"),
			updatePage("d", "title", "Final", "document", markdownDoc("done\n")),
		)
		p := f.page(t, crPath(space.Id, cr.Id), res.Refs["d"], "?format=markdown")
		if p.Title != "Final" || p.Slug != "final" || p.Path != "final" || *p.Markdown != "done\n" {
			t.Fatalf("page %s %s %s %q", p.Title, p.Slug, p.Path, *p.Markdown)
		}
		f.apply(t, f.admin, space.Id, cr.Id, deletePage(res.Refs["d"]))
	})
	t.Run("IntoMovesTheSubtree", func(t *testing.T) {
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(setup, "into", other))
		wantOutline(t, "moved", f.crPages(t, space.Id, cr.Id),
			"user-guides User Guides", "other Other", "  other/setup Set it up", "    other/setup/one One")
		if p := f.page(t, crPath(space.Id, cr.Id), one, "?format=markdown"); p.Path != "other/setup/one" {
			t.Fatalf("subpage path %q", p.Path)
		}
		// With `at` it lands at that index among the new siblings.
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(guides, "into", other, "at", 0))
		wantOutline(t, "moved first", f.crPages(t, space.Id, cr.Id),
			"other Other", "  other/user-guides User Guides", "  other/setup Set it up", "    other/setup/one One")
	})
	t.Run("IntoNullMovesToTheTopLevel", func(t *testing.T) {
		f.apply(t, f.admin, space.Id, cr.Id, map[string]any{"operation": "update_page", "page": setup, "into": nil})
		wantOutline(t, "top level", f.crPages(t, space.Id, cr.Id),
			"other Other", "  other/user-guides User Guides", "setup Set it up", "  setup/one One")
		f.apply(t, f.admin, space.Id, cr.Id, map[string]any{"operation": "update_page", "page": guides, "into": nil, "at": 0})
		wantOutline(t, "top level first", f.crPages(t, space.Id, cr.Id),
			"user-guides User Guides", "other Other", "setup Set it up", "  setup/one One")
	})
	t.Run("OtherFields", func(t *testing.T) {
		f.apply(t, f.admin, space.Id, cr.Id, updatePage(other, "description", "All the rest", "emoji", "1f4da", "hidden", true))
		p := f.page(t, crPath(space.Id, cr.Id), other, "")
		if p.Description == nil || *p.Description != "All the rest" || p.Emoji == nil || *p.Emoji != "1f4da" ||
			p.Hidden == nil || !*p.Hidden || p.Title != "Other" {
			t.Fatalf("page %+v", p)
		}
	})
}

func TestContentBatchDeletePageWithSubpages(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	res := f.apply(t, f.admin, space.Id, cr.Id,
		insertPage("Keep", "ref", "keep"),
		insertPage("Gone", "ref", "gone"),
		insertPage("Child", "ref", "child", "into", "gone"),
		insertPage("Grandchild", "ref", "gc", "into", "child"),
		insertPage("Kept child", "into", "keep"),
	)
	f.apply(t, f.admin, space.Id, cr.Id, deletePage(res.Refs["gone"]))
	wantOutline(t, "after delete", f.crPages(t, space.Id, cr.Id), "keep Keep", "  keep/kept-child Kept child")
	base := "/spaces/" + space.Id + "/change-requests/" + cr.Id + "/content/"
	for _, id := range []string{res.Refs["gone"], res.Refs["child"], res.Refs["gc"]} {
		f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"page/"+id, nil)
	}
	f.Expect(t, http.StatusNotFound, f.admin, "GET", base+"path/gone", nil)
	// A deleted page is no longer there to delete.
	f.refuse(t, space.Id, cr.Id, []map[string]any{deletePage(res.Refs["child"])}, "changes[0]")
	// Inserting and deleting in one batch leaves nothing.
	r := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Temp", "ref", "t"), insertPage("Temp kid", "into", "t"), deletePage("t"))
	if len(r.Update.Changes) != 0 {
		t.Fatalf("a page inserted and deleted in one batch has outcomes %v", r.outcomes(t))
	}
	wantOutline(t, "after temp", f.crPages(t, space.Id, cr.Id), "keep Keep", "  keep/kept-child Kept child")
	// Deleting everything leaves an empty tree.
	f.apply(t, f.admin, space.Id, cr.Id, deletePage(res.Refs["keep"]))
	wantOutline(t, "empty", f.crPages(t, space.Id, cr.Id))
}

func TestContentBatchAccess(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	body := map[string]any{"changes": []map[string]any{insertPage("X")}}
	path := crPath(space.Id, cr.Id, "/content")
	f.Expect(t, http.StatusNotFound, f.admin, "POST", crPath(space.Id, "no-such-cr", "/content"), body)
	f.Expect(t, http.StatusNotFound, f.admin, "POST", crPath("no-such-space", cr.Id, "/content"), body)
	f.Expect(t, http.StatusNotFound, f.outsider, "POST", path, body)
	f.Expect(t, http.StatusForbidden, f.reader, "POST", path, body)
	f.Expect(t, http.StatusNotFound, f.guest, "POST", path, body)
	f.Expect(t, http.StatusUnauthorized, nil, "POST", path, body)
	// A change request of another space is not found through this one.
	other := f.MustCreateSpace(t, f.admin, f.org.Id, "Other", "")
	f.Expect(t, http.StatusNotFound, f.admin, "POST", crPath(other.Id, cr.Id, "/content"), body)
	if got := f.get(t, space.Id, cr.Id); got.Revision != cr.Revision {
		t.Fatalf("refused batches moved the revision")
	}
	// An editor member may write.
	editor := f.MustCreateUser(t, "eve@docs.test", "Eve")
	f.MustAddMember(t, f.admin, f.org.Id, editor, "edit")
	f.Expect(t, http.StatusOK, editor, "POST", path, body)
	wantOutline(t, "editor's page", f.crPages(t, space.Id, cr.Id), "x X")
}

// contentDocMarkdown exercises the blocks the document form must carry.
const contentDocMarkdown = "# Getting started\n\nRead the [API docs](https://api.example.com/docs) first.\n\n" +
	"- one\n- two\n\n```go\nfmt.Println(\"hi\")\nreturn\n```\n\n![Diagram](https://img.example.com/d.png)\n"

func TestContentBatchManyInsertsAtTheSameIndexKeepOrder(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	f.apply(t, f.admin, space.Id, cr.Id, insertPage("A"), insertPage("B"), insertPage("C"))
	// Each new page goes right after B, before the one inserted just before it: 80 bisections
	// of the same gap.
	want := []string{"a A", "b B"}
	for batch := 0; batch < 2; batch++ {
		changes := make([]map[string]any, 40)
		for i := range changes {
			n := batch*40 + i
			changes[i] = insertPage(fmt.Sprintf("N%d", n), "at", 2)
		}
		f.apply(t, f.admin, space.Id, cr.Id, changes...)
	}
	for n := 79; n >= 0; n-- {
		want = append(want, fmt.Sprintf("n%d N%d", n, n))
	}
	want = append(want, "c C")
	wantOutline(t, "after bisections", f.crPages(t, space.Id, cr.Id), want...)
}

func TestContentBatchRefusedOnMergedChangeRequestAndLockedSpace(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	f.apply(t, f.admin, space.Id, cr.Id, insertPage("A"))
	f.merged(t, space.Id, cr.Id)
	body := map[string]any{"changes": []map[string]any{insertPage("Late")}}
	r := f.Expect(t, http.StatusConflict, f.admin, "POST", crPath(space.Id, cr.Id, "/content"), body)
	if !strings.Contains(r.ErrorMessage(t), "merged") {
		t.Fatalf("message %q", r.ErrorMessage(t))
	}
	wantOutline(t, "merged change request", f.crPages(t, space.Id, cr.Id), "a A")

	open := f.create(t, f.admin, space.Id, "Edits")
	f.Expect(t, http.StatusOK, f.admin, "PATCH", "/spaces/"+space.Id, map[string]any{"editMode": "locked"})
	f.Expect(t, http.StatusForbidden, f.admin, "POST", crPath(space.Id, open.Id, "/content"), body)
	wantOutline(t, "locked space", f.crPages(t, space.Id, open.Id), "a A")
}
