package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// insertGroup and insertLink are insert_page changes of a group and of a link page.
func insertGroup(title, ref string, kv ...any) map[string]any {
	return withFields(map[string]any{"operation": "insert_page", "type": "group", "title": title, "ref": ref}, kv)
}

func insertLink(title, ref string, target map[string]any, kv ...any) map[string]any {
	return withFields(map[string]any{"operation": "insert_page", "type": "link", "title": title, "ref": ref, "target": target}, kv)
}

func urlTarget(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }

// Group and link pages go through a content batch, are merged, listed and read in GitBook's
// RevisionPageGroup and RevisionPageLink shapes (valid against both public specs), searched by
// title, and refused where their kind does not fit.
func TestGroupAndLinkPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Elsewhere", "")
	cr := w.create(t, w.admin, sp.Id, "Kinds")
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		insertGroup("Getting started", "g", "emoji", "1f680"),
		insertMarkdown("Install", "Run the binary.\n", "install", "into", "g"),
		insertLink("Status page", "status", urlTarget("https://status.example.com/"), "into", "g"),
		insertLink("Read install", "toinstall", map[string]any{"kind": "page", "page": "install"}, "into", "g"),
		insertLink("Other space", "tospace", map[string]any{"kind": "space", "space": other.Id}),
	)
	ids := res.Refs
	w.merged(t, sp.Id, cr.Id)

	t.Run("Listed", func(t *testing.T) {
		r := w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/content/pages", nil)
		wantPublicEverywhere(t, "listPages", r)
		var tree gen.PageTree
		r.Decode(t, &tree)
		wantOutline(t, "main", tree.Pages, "getting-started Getting started", "  getting-started/install Install",
			"  getting-started/status-page Status page", "  getting-started/read-install Read install", "other-space Other space")
		g := tree.Pages[0]
		if g.Type != gen.PageTypeGroup || g.Kind != gen.PageKindGroup || g.Path != "getting-started" || g.Urls != nil || g.Layout != nil {
			t.Fatalf("group answered %+v", g)
		}
		if doc := g.Pages[0]; doc.Type != gen.PageTypeDocument || doc.Path != "getting-started/install" || doc.Urls == nil {
			t.Fatalf("document in the group answered %+v", doc)
		}
		link := g.Pages[1]
		target, err := link.Target.AsPageLinkTargetURL()
		if link.Type != gen.PageTypeLink || link.Kind != gen.PageKindLink || err != nil || target.Url != "https://status.example.com/" ||
			link.Href == nil || *link.Href != "https://status.example.com/" || len(link.Pages) != 0 {
			t.Fatalf("url link answered %+v (%v)", link, err)
		}
		toPage, err := g.Pages[2].Target.AsPageLinkTargetPage()
		if err != nil || toPage.Page != ids["install"] || g.Pages[2].Href == nil || !strings.HasSuffix(*g.Pages[2].Href, "/s/"+sp.Id+"/getting-started/install") {
			t.Fatalf("page link answered %+v (%v)", g.Pages[2], err)
		}
		toSpace, err := tree.Pages[1].Target.AsPageLinkTargetSpace()
		if err != nil || toSpace.Space != other.Id {
			t.Fatalf("space link answered %+v (%v)", tree.Pages[1], err)
		}
	})

	t.Run("Read", func(t *testing.T) {
		r := w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+ids["g"], nil)
		wantPublicEverywhere(t, "getPageById", r)
		var g gen.RevisionPage
		r.Decode(t, &g)
		if g.Type != gen.PageTypeGroup || len(g.Pages) != 3 || g.Document != nil || g.Emoji == nil || *g.Emoji != "1f680" {
			t.Fatalf("group read %+v", g)
		}
		r = w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/content/path/getting-started", nil)
		wantPublicEverywhere(t, "getPageByPath", r)
		r = w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+ids["toinstall"], nil)
		wantPublicEverywhere(t, "getPageById", r)
		var link gen.RevisionPage
		r.Decode(t, &link)
		if link.Type != gen.PageTypeLink || link.Href == nil || !strings.HasSuffix(*link.Href, "/getting-started/install") {
			t.Fatalf("link read %+v", link)
		}
		// A link has no page of its own: no path reaches it.
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/path/getting-started%2Fstatus-page", nil)
		wantPublicEverywhere(t, "getRevisionOfChangeRequestById",
			w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id, "/content"), nil))
	})

	t.Run("Searched", func(t *testing.T) {
		for q, want := range map[string]string{"getting started": ids["g"], "status page": ids["status"]} {
			hits := getJSON[gen.SearchPageList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/search?query="+strings.ReplaceAll(q, " ", "+"))
			if len(hits.Items) == 0 || hits.Items[0].Id != want {
				t.Fatalf("search %q = %+v, want %s first", q, hits.Items, want)
			}
		}
		// A hit on a link leads where the link does (it has no page of its own), in the space's
		// search and the organization's; a document's hit leads to its page.
		installURL := w.page(t, "/spaces/"+sp.Id, ids["install"], "").Urls.App
		for q, want := range map[string]string{"status page": "https://status.example.com/", "read install": installURL,
			"other space": "/s/" + other.Id, "install": "/getting-started/install"} {
			hits := getJSON[gen.SearchPageList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/search?query="+strings.ReplaceAll(q, " ", "+"))
			if len(hits.Items) == 0 || !strings.HasSuffix(hits.Items[0].Urls.App, want) || !strings.HasSuffix(hits.Items[0].Sections[0].Urls.App, want) {
				t.Errorf("search %q leads to %+v, want …%s", q, hits.Items, want)
			}
			org := getJSON[gen.SearchSpaceList](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/search?query="+strings.ReplaceAll(q, " ", "+"))
			if len(org.Items) == 0 || len(org.Items[0].Pages) == 0 || !strings.HasSuffix(org.Items[0].Pages[0].Urls.App, want) {
				t.Errorf("organization search %q leads to %+v, want …%s", q, org.Items, want)
			}
		}
	})

	t.Run("UpdatedAndMerged", func(t *testing.T) {
		// One side moves the link's target, the other renames it and the group: all three merge.
		a := w.create(t, w.admin, sp.Id, "Target")
		b := w.create(t, w.admin, sp.Id, "Titles")
		w.apply(t, w.admin, sp.Id, a.Id, updatePage(ids["status"], "target", urlTarget("https://status.example.org/")))
		w.apply(t, w.admin, sp.Id, b.Id, updatePage(ids["status"], "title", "Uptime"), updatePage(ids["g"], "title", "Start here"))
		w.merged(t, sp.Id, a.Id)
		w.merged(t, sp.Id, b.Id)
		pages := w.mainPages(t, sp.Id)
		link := findPage(pages, ids["status"])
		target, _ := link.Target.AsPageLinkTargetURL()
		if link.Title != "Uptime" || target.Url != "https://status.example.org/" || findPage(pages, ids["g"]).Title != "Start here" {
			t.Fatalf("merged link %+v target %v, group %+v", link, target, findPage(pages, ids["g"]))
		}
		// Both sides retarget the link: a conflict, nothing merged.
		c := w.create(t, w.admin, sp.Id, "One")
		d := w.create(t, w.admin, sp.Id, "Two")
		w.apply(t, w.admin, sp.Id, c.Id, updatePage(ids["status"], "target", urlTarget("https://one.example/")))
		w.apply(t, w.admin, sp.Id, d.Id, updatePage(ids["status"], "target", urlTarget("https://two.example/")))
		w.merged(t, sp.Id, c.Id)
		if got := w.merge(t, w.admin, sp.Id, d.Id); got.Result != gen.MergeResultConflicts {
			t.Fatalf("second retarget merged: %+v", got)
		}
	})

	t.Run("Refused", func(t *testing.T) {
		bad := w.create(t, w.admin, sp.Id, "Bad")
		for _, tc := range []struct {
			change map[string]any
			parts  []string
		}{
			{insertGroup("Nested", "n", "into", ids["install"]), []string{"changes[0].into", "top level"}},
			{insertGroup("With text", "n", "document", markdownDoc("Some text")), []string{"changes[0].document", "no content"}},
			{insertPage("Under a link", "into", ids["status"]), []string{"changes[0].into", "link page"}},
			{map[string]any{"operation": "insert_page", "type": "link", "title": "No target"}, []string{"changes[0].target", "required"}},
			{insertLink("Bad URL", "n", urlTarget("javascript:alert(1)")), []string{"changes[0].target.url"}},
			{insertLink("Missing page", "n", map[string]any{"kind": "page", "page": "nope"}), []string{"changes[0].target.page"}},
			{insertLink("Missing space", "n", map[string]any{"kind": "space", "space": "nope"}), []string{"changes[0].target.space"}},
			{insertLink("Missing page elsewhere", "n", map[string]any{"kind": "page", "page": "nope", "space": other.Id}), []string{"changes[0].target.page"}},
			{insertLink("Page of a missing space", "n", map[string]any{"kind": "page", "page": "nope", "space": "nope"}), []string{"changes[0].target.space"}},
			{map[string]any{"operation": "insert_page", "title": "No document"}, []string{"changes[0].document", "required"}},
			{updatePage(ids["install"], "target", urlTarget("https://x.example/")), []string{"changes[0].target", "only a link"}},
			{updatePage(ids["status"], "slug", "status"), []string{"changes[0].slug"}},
		} {
			w.refuse(t, sp.Id, bad.Id, []map[string]any{tc.change}, tc.parts...)
		}
		w.refuse(t, sp.Id, bad.Id, []map[string]any{insertMarkdown("Top", "", "top"), movePage(ids["g"], "top")}, "changes[1].into", "top level")
		// A target of a kind a link does not take, or without its id, fails the request schema.
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", crPath(sp.Id, bad.Id, "/content"), map[string]any{"changes": []any{
			insertLink("User", "n", map[string]any{"kind": "user", "user": "x"})}})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", crPath(sp.Id, bad.Id, "/content"), map[string]any{"changes": []any{
			insertLink("No url", "n", map[string]any{"kind": "url"})}})
	})
}
