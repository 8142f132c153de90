package server_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestContentBatchSlugs(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	res := f.apply(t, f.admin, space.Id, cr.Id,
		insertPage("Intro", "ref", "i1"),
		insertPage("Intro", "ref", "i2"),
		insertPage("intro!", "ref", "i3"),
		insertPage("Café Crème — Déjà vu!", "ref", "cafe"),
		insertPage("  C++ & Go: 100% (fun)  ", "ref", "cpp"),
		insertPage("¿Qué pasa?", "ref", "que"),
		insertPage("Ünïcödé Straße", "ref", "uni"),
		insertPage("🚀", "ref", "rocket"),
		insertPage("Intro", "ref", "nested", "into", "i1"),
		insertPage(strings.Repeat("long words ", 18), "ref", "long"),
	)
	want := map[string]string{
		"i1": "intro", "i2": "intro-2", "i3": "intro-3", "cafe": "cafe-creme-deja-vu", "cpp": "c-go-100-fun",
		"que": "que-pasa", "nested": "intro",
	}
	pages := f.crPages(t, space.Id, cr.Id)
	for ref, slug := range want {
		p := findPage(pages, res.Refs[ref])
		if p == nil || p.Slug != slug {
			t.Fatalf("%s: page %+v, want slug %q", ref, p, slug)
		}
	}
	if p := findPage(pages, res.Refs["nested"]); p.Path != "intro/intro" {
		t.Fatalf("nested path %q", p.Path)
	}
	// Every slug is lower-case ASCII words joined by single hyphens, never empty, at most 100 long.
	for _, ref := range []string{"uni", "rocket", "long"} {
		p := findPage(pages, res.Refs[ref])
		if p == nil || !contentSlugOK(p.Slug) || len(p.Slug) > 100 {
			t.Fatalf("%s: slug %q", ref, p.Slug)
		}
	}
	if p := findPage(pages, res.Refs["uni"]); !strings.HasPrefix(p.Slug, "unicode-stra") {
		t.Fatalf("unicode slug %q", p.Slug)
	}
	// Renaming a page to a sibling's title keeps its slug, and the sibling's.
	f.apply(t, f.admin, space.Id, cr.Id, updatePage(res.Refs["cafe"], "title", "Intro"))
	pages = f.crPages(t, space.Id, cr.Id)
	for ref, slug := range map[string]string{"i1": "intro", "i2": "intro-2", "i3": "intro-3", "cafe": "cafe-creme-deja-vu"} {
		if p := findPage(pages, res.Refs[ref]); p.Slug != slug || p.Path != slug {
			t.Fatalf("%s: slug %q path %q, want %q", ref, p.Slug, p.Path, slug)
		}
	}
	// A new page placed before an existing "Intro" does not take the existing page's slug.
	r := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Intro", "ref", "new", "at", 0))
	pages = f.crPages(t, space.Id, cr.Id)
	if p := findPage(pages, res.Refs["i1"]); p.Slug != "intro" || p.Path != "intro" {
		t.Fatalf("existing page's slug changed to %q (path %q)", p.Slug, p.Path)
	}
	if p := findPage(pages, res.Refs["nested"]); p.Path != "intro/intro" {
		t.Fatalf("existing subpage's path changed to %q", p.Path)
	}
	if p := findPage(pages, r.Refs["new"]); p.Slug == "intro" || !strings.HasPrefix(p.Slug, "intro-") {
		t.Fatalf("new page slug %q", p.Slug)
	}
	// An explicit slug a sibling already has is refused, and nothing changes.
	before := outline(pages)
	f.refuse(t, space.Id, cr.Id, []map[string]any{insertPage("Other"), updatePage(res.Refs["que"], "slug", "intro")},
		"changes[1].slug", "already the slug of a sibling")
	// Two explicit slugs of one batch collide too.
	f.refuse(t, space.Id, cr.Id, []map[string]any{insertPage("A", "slug", "same"), insertPage("B", "slug", "same")}, "changes[1].slug")
	if got := outline(f.crPages(t, space.Id, cr.Id)); !reflect.DeepEqual(got, before) {
		t.Fatalf("refused slugs changed the tree: %q", got)
	}
	// A slug freed earlier in the batch may be taken later in it.
	f.apply(t, f.admin, space.Id, cr.Id, updatePage(res.Refs["i1"], "slug", "first-intro"), updatePage(res.Refs["que"], "slug", "intro"))
	pages = f.crPages(t, space.Id, cr.Id)
	if p := findPage(pages, res.Refs["que"]); p.Slug != "intro" {
		t.Fatalf("explicit slug became %q", p.Slug)
	}
	if p := findPage(pages, res.Refs["i1"]); p.Slug != "first-intro" || p.Path != "first-intro" {
		t.Fatalf("renamed sibling's slug %q", p.Slug)
	}
	// Paths stay unique across the tree.
	seen := map[string]bool{}
	for _, line := range outline(pages) {
		path := strings.Fields(line)[0]
		if seen[path] {
			t.Fatalf("path %q twice: %q", path, outline(pages))
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
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	res := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Alpha", "ref", "a", "document", markdownDoc("alpha\n")), insertPage("Beta", "ref", "b"))
	before := f.get(t, space.Id, cr.Id)
	was := outline(f.crPages(t, space.Id, cr.Id))

	msg := f.refuse(t, space.Id, cr.Id, []map[string]any{
		insertPage("Gamma"),
		updatePage(res.Refs["a"], "title", "Renamed", "document", markdownDoc("changed\n")),
		updatePage("no-such-page", "title", "X"),
		deletePage(res.Refs["b"]),
	}, "changes[2]", "no-such-page")
	if strings.Contains(msg, "changes[0]") || strings.Contains(msg, "changes[1]") {
		t.Fatalf("message names other changes: %q", msg)
	}
	after := f.get(t, space.Id, cr.Id)
	if after.Revision != before.Revision {
		t.Fatalf("revision moved from %s to %s", before.Revision, after.Revision)
	}
	if got := outline(f.crPages(t, space.Id, cr.Id)); !reflect.DeepEqual(got, was) {
		t.Fatalf("pages changed: %q, was %q", got, was)
	}
	if p := f.page(t, crPath(space.Id, cr.Id), res.Refs["a"], "?format=markdown"); p.Title != "Alpha" || *p.Markdown != "alpha\n" {
		t.Fatalf("page a %s %q", p.Title, *p.Markdown)
	}
	rev := getJSON[gen.Revision](t, f.testServer, f.admin, "/spaces/"+space.Id+"/change-requests/"+cr.Id+"/content")
	if rev.Id != before.Revision {
		t.Fatalf("revision %s, change request says %s", rev.Id, before.Revision)
	}
}

func TestContentBatchRejects(t *testing.T) {
	t.Parallel()
	f := newWorld(t)
	space, cr := f.draft(t)
	res := f.apply(t, f.admin, space.Id, cr.Id, insertPage("Parent", "ref", "p"), insertPage("Child", "ref", "c", "into", "p"),
		insertPage("Grandchild", "ref", "g", "into", "c"))
	parent, child, grandchild := res.Refs["p"], res.Refs["c"], res.Refs["g"]
	before := f.get(t, space.Id, cr.Id).Revision

	cases := []struct {
		name    string
		changes []map[string]any
		parts   []string
	}{
		{"InsertWithoutDocument", []map[string]any{{"operation": "insert_page", "title": "X"}}, []string{"changes[0]", "document"}},
		{"InsertWithEmptyTitle", []map[string]any{insertPage("")}, []string{"changes[0].title"}},
		{"InsertWithPage", []map[string]any{insertPage("X", "page", parent)}, []string{"changes[0]", "page"}},
		{"InsertIntoMissingPage", []map[string]any{insertPage("X", "into", "nope")}, []string{"changes[0]", "into"}},
		{"UpdateWithoutPage", []map[string]any{{"operation": "update_page", "title": "X"}}, []string{"changes[0]", "page"}},
		{"UpdateMissingPage", []map[string]any{insertPage("X"), updatePage("nope", "title", "Y")}, []string{"changes[1]", "nope"}},
		{"UpdateWithRef", []map[string]any{updatePage(parent, "ref", "r")}, []string{"changes[0]", "ref"}},
		{"DeleteWithoutPage", []map[string]any{{"operation": "delete_page"}}, []string{"changes[0]", "page"}},
		{"AtPastTheEnd", []map[string]any{insertPage("X", "at", 2)}, []string{"changes[0]", "at"}},
		{"AtPastTheEndOfAParent", []map[string]any{insertPage("X", "into", parent, "at", 2)}, []string{"changes[0]", "at"}},
		{"NegativeAt", []map[string]any{insertPage("X", "at", -1)}, []string{"at"}},
		{"IntoItself", []map[string]any{updatePage(parent, "into", parent)}, []string{"changes[0]", "into"}},
		{"IntoItsOwnSubpage", []map[string]any{updatePage(parent, "into", grandchild)}, []string{"changes[0]", "into"}},
		{"IntoItsChild", []map[string]any{updatePage(child, "into", grandchild)}, []string{"changes[0]", "into"}},
		{"DuplicateRef", []map[string]any{insertPage("X", "ref", "r"), insertPage("Y", "ref", "r")}, []string{"changes[1]", "r"}},
		{"UnknownOperation", []map[string]any{insertPage("X"), {"operation": "rename_page", "page": parent}}, []string{"changes[1].operation"}},
		{"UnknownProperty", []map[string]any{insertPage("X", "colour", "red")}, []string{"colour"}},
		{"UnknownDocumentProperty", []map[string]any{insertPage("X", "document", map[string]any{"markdown": "x", "html": "<p>"})}, []string{"html"}},
		{"BadSlug", []map[string]any{updatePage(parent, "slug", "Not A Slug")}, []string{"slug"}},
		{"TitleTooLong", []map[string]any{insertPage(strings.Repeat("t", 201))}, []string{"title"}},
		{"NoOperation", []map[string]any{{"title": "X"}}, []string{"changes[0].operation"}},
		{"OldTypeField", []map[string]any{{"type": "insert_page", "title": "X"}}, []string{"changes[0].operation"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f.refuse(t, space.Id, cr.Id, c.changes, c.parts...)
		})
	}
	t.Run("NoChanges", func(t *testing.T) {
		f.Expect(t, http.StatusBadRequest, f.admin, "POST", crPath(space.Id, cr.Id, "/content"), map[string]any{"changes": []any{}})
		f.Expect(t, http.StatusBadRequest, f.admin, "POST", crPath(space.Id, cr.Id, "/content"), map[string]any{})
		f.Expect(t, http.StatusBadRequest, f.admin, "POST", crPath(space.Id, cr.Id, "/content"), map[string]any{"changes": []any{}, "extra": 1})
	})
	t.Run("Over50Changes", func(t *testing.T) {
		changes := make([]map[string]any, 51)
		for i := range changes {
			changes[i] = insertPage(fmt.Sprintf("Page %d", i))
		}
		f.refuse(t, space.Id, cr.Id, changes, "changes")
	})
	t.Run("MarkdownOver1MiB", func(t *testing.T) {
		f.refuse(t, space.Id, cr.Id, []map[string]any{insertPage("Big", "document", markdownDoc(strings.Repeat("a", 1<<20+1)))}, "markdown")
	})
	if after := f.get(t, space.Id, cr.Id).Revision; after != before {
		t.Fatalf("a rejected batch moved the revision from %s to %s", before, after)
	}
	wantOutline(t, "after rejects", f.crPages(t, space.Id, cr.Id), "parent Parent", "  parent/child Child", "    parent/child/grandchild Grandchild")

	t.Run("Exactly50ChangesAndMarkdownOf1MiB", func(t *testing.T) {
		changes := make([]map[string]any, 50)
		for i := range changes {
			changes[i] = insertPage(fmt.Sprintf("Page %d", i), "ref", fmt.Sprintf("p%d", i))
		}
		big := strings.Repeat("b", 1<<20)
		changes[0]["document"] = markdownDoc(big)
		res := f.apply(t, f.admin, space.Id, cr.Id, changes...)
		if len(res.Refs) != 50 {
			t.Fatalf("%d refs", len(res.Refs))
		}
		if n := len(f.crPages(t, space.Id, cr.Id)); n != 51 {
			t.Fatalf("%d top-level pages", n)
		}
		if p := f.page(t, crPath(space.Id, cr.Id), res.Refs["p0"], "?format=markdown"); p.Markdown == nil || *p.Markdown != big {
			t.Fatal("1 MiB markdown not kept")
		}
	})
}
