package server_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// TestPageLinkTitleAndCover: a batch sets a page's link title and cover (a file it inserts, by
// ref; an address for dark mode); the page answers them, merges keep them (and a change to one
// merges beside a change to the other), a published page shows the cover and its neighbours
// and navigation the link title; null and "" remove them; a cover on a link page, or an address
// that is not http(s), is refused.
func TestPageLinkTitleAndCover(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, cr := w.draft(t)
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc`\x00\x00\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82"))
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"ref": "img", "name": "cover.png", "contentType": "image/png", "base64": png}}},
		insertMarkdown("Installing quire on a server", "Steps.\n", "install", "linkTitle", "Install",
			"cover", map[string]any{"ref": map[string]any{"kind": "file", "file": "img"}, "refDark": map[string]any{"kind": "url", "url": "https://example.com/dark.png"}, "yPos": 12, "height": 300}),
		insertMarkdown("Next steps", "More.\n", "next"),
	)
	page := w.page(t, crPath(sp.Id, cr.Id), res.Refs["install"], "")
	if page.LinkTitle == nil || *page.LinkTitle != "Install" || page.Cover == nil || page.Cover.Ref.File == nil ||
		*page.Cover.Ref.File != res.Refs["img"] || page.Cover.RefDark == nil || *page.Cover.RefDark.Url != "https://example.com/dark.png" ||
		page.Cover.YPos != 12 || page.Cover.Height == nil || *page.Cover.Height != 300 || page.Layout == nil || !page.Layout.Cover {
		t.Fatalf("page %+v cover %+v", page, page.Cover)
	}
	wantPublic(t, "0.202.0", "getPageById", w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id)+"/content/page/"+res.Refs["install"], nil))
	w.merged(t, sp.Id, cr.Id)

	// Published: the cover above the title, the link title in the navigation and the pager.
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{"title": "Docs", "spaces": []string{sp.Id}})
	w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+w.org.Id+"/sites/"+site.Id+"/publish", nil)
	body := webGet(t, w.testServer, "/s/"+site.Id+"/installing-quire-on-a-server")
	wantIn(t, "the page", body, `<picture class="cover">`, `media="(prefers-color-scheme: dark)"`, `height="300"`,
		`<h1 class="title">Installing quire on a server</h1>`, `>Install</a>`)
	if strings.Contains(body, ">Installing quire on a server</a>") {
		t.Errorf("the navigation shows the title, not the link title")
	}
	wantIn(t, "the next page", webGet(t, w.testServer, "/s/"+site.Id+"/next-steps"), "<span>Previous</span>Install</a>")

	// One change request changes the link title, another the cover: both merge.
	a, b := w.create(t, w.admin, sp.Id, "Title"), w.create(t, w.admin, sp.Id, "Cover")
	id := res.Refs["install"]
	postBatch(t, w.testServer, w.admin, sp.Id, a.Id, []map[string]any{{"operation": "update_page", "page": id, "linkTitle": "Setup"}})
	postBatch(t, w.testServer, w.admin, sp.Id, b.Id, []map[string]any{{"operation": "update_page", "page": id, "cover": nil}})
	w.merged(t, sp.Id, a.Id)
	w.merged(t, sp.Id, b.Id)
	live := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/page/"+id)
	if live.LinkTitle == nil || *live.LinkTitle != "Setup" || live.Cover != nil || live.Layout.Cover {
		t.Fatalf("after the merges: linkTitle %v cover %+v", live.LinkTitle, live.Cover)
	}
	c := w.create(t, w.admin, sp.Id, "Refusals")
	postBatch(t, w.testServer, w.admin, sp.Id, c.Id, []map[string]any{{"operation": "update_page", "page": id, "linkTitle": ""}})
	if got := w.page(t, crPath(sp.Id, c.Id), id, ""); got.LinkTitle != nil {
		t.Fatalf("an empty link title is kept: %q", *got.LinkTitle)
	}
	w.refuse(t, sp.Id, c.Id, []map[string]any{{"operation": "update_page", "page": id,
		"cover": map[string]any{"ref": map[string]any{"kind": "url", "url": "javascript:alert(1)"}}}}, "changes[0].cover.ref.url")
	w.refuse(t, sp.Id, c.Id, []map[string]any{{"operation": "update_page", "page": id,
		"cover": map[string]any{"ref": map[string]any{"kind": "file", "url": "https://example.com/x.png"}}}}, "changes[0].cover.ref")
	w.refuse(t, sp.Id, c.Id, []map[string]any{{"operation": "insert_page", "title": "Out", "type": "link",
		"target": map[string]any{"kind": "url", "url": "https://example.com"},
		"cover":  map[string]any{"ref": map[string]any{"kind": "url", "url": "https://example.com/x.png"}}}}, "changes[0].cover", "link page has no cover")
}

// webGet reads a web page of the test server, failing unless it answers 200.
func webGet(t *testing.T, ts *testServer, path string) string {
	t.Helper()
	res, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%.2000s", path, res.StatusCode, b)
	}
	return string(b)
}
