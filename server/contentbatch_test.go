package server_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

func TestContentBatchAnswers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, cr := w.draft(t)
	// compat left out: the answer is the change request.
	var ans gen.ChangeRequest
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, cr.Id, "/content"), map[string]any{"changes": []any{
		map[string]any{"operation": "insert_page", "ref": "a", "title": "Alpha", "document": markdownDoc("alpha")},
	}}).Decode(t, &ans)
	if ans.Object != gen.ChangeRequestObjectChangeRequest || ans.Id != cr.Id || ans.Revision == cr.Revision {
		t.Fatalf("compat answer %+v", ans)
	}
	// The answer is the change request as the batch left it (the store's write answers it, not a
	// read after it): what reading it again gives, also when it was named by its number.
	var again gen.ChangeRequest
	w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id, ""), nil).Decode(t, &again)
	if ans.Revision != again.Revision || !ans.UpdatedAt.Equal(again.UpdatedAt) || ans.Number != again.Number {
		t.Fatalf("the batch answered revision %s, updated %s; the change request reads %s, %s", ans.Revision, ans.UpdatedAt, again.Revision, again.UpdatedAt)
	}
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, fmt.Sprint(cr.Number), "/content"), map[string]any{"changes": []any{
		map[string]any{"operation": "insert_page", "title": "Gamma", "document": markdownDoc("gamma")},
	}}).Decode(t, &ans)
	if ans.Id != cr.Id || ans.Revision == again.Revision {
		t.Fatalf("a batch by number answered %+v", ans)
	}
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, cr.Id, "/content?compat=true"), map[string]any{"changes": []any{
		map[string]any{"operation": "insert_page", "title": "Beta", "document": markdownDoc("beta")},
	}}).Decode(t, &ans)
	if ans.Object != gen.ChangeRequestObjectChangeRequest {
		t.Fatalf("compat=true answer %+v", ans)
	}
	pages := flatten(w.crPages(t, sp.Id, cr.Id))
	var alpha, beta string
	for id, p := range pages {
		switch p.Title {
		case "Alpha":
			alpha = id
		case "Beta":
			beta = id
		}
	}
	// compat=false: one outcome per page, in the order first touched, refs echoed.
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		map[string]any{"operation": "update_page", "page": beta, "title": "Beta two"},
		map[string]any{"operation": "insert_page", "ref": "c", "title": "Gamma", "document": markdownDoc("gamma"), "into": alpha},
		map[string]any{"operation": "update_page", "page": beta, "document": markdownDoc("beta two")},
		map[string]any{"operation": "delete_page", "page": alpha},
		map[string]any{"operation": "insert_page", "ref": "d", "title": "Delta", "document": markdownDoc("")},
		map[string]any{"operation": "insert_page", "title": "Epsilon", "document": markdownDoc("")},
	)
	got := res.outcomes(t)
	var delta, epsilon string
	for id, p := range flatten(w.crPages(t, sp.Id, cr.Id)) {
		switch p.Title {
		case "Delta":
			delta = id
		case "Epsilon":
			epsilon = id
		}
	}
	// Gamma went with its parent Alpha: created and deleted in the batch, it has no outcome.
	want := []string{"updated " + beta, "deleted " + alpha, "created " + delta + " d", "created " + epsilon}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("outcomes %q, want %q (a page created and deleted in the batch has none)", got, want)
	}
	if res.Update.ChangeRequest.Id != cr.Id || res.Revision != w.get(t, sp.Id, cr.Id).Revision {
		t.Fatalf("change request in the answer %+v", res.Update.ChangeRequest)
	}
	up, _ := res.Update.Changes[0].AsChangeRequestContentUpdateUpdatedPage()
	if up.Page.Urls.Location != testBaseURL+"/v1/spaces/"+sp.Id+"/change-requests/"+cr.Id+"/content/page/"+beta {
		t.Fatalf("page location %q", up.Page.Urls.Location)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", strings.TrimPrefix(up.Page.Urls.Location, testBaseURL+"/v1"), nil)
}

func TestContentBatchMetadataAndFrontmatter(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, cr := w.draft(t)
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		// The frontmatter wins over the fields, and is not body; the heading stays when the
		// frontmatter gives the title.
		map[string]any{"operation": "insert_page", "ref": "fm", "title": "Field title", "description": "Field", "hidden": false,
			"document": markdownDoc("---\ntitle: From frontmatter\ndescription: Said above\nicon: gear\nhidden: true\nnoIndex: true\nnoRobotsIndex: true\nif: visitor.claims.beta === true\nlayout: wide\n---\n# Kept heading\n\nBody.\n")},
		// Without frontmatter, the leading heading is the title and leaves the body.
		map[string]any{"operation": "insert_page", "ref": "h", "title": "Ignored", "emoji": "🚀", "icon": "rocket",
			"condition": `visitor.claims.plan === "pro"`, "document": markdownDoc("\n# The heading title #\n\nText under it.\n\n# Second\n")},
		// No title anywhere: Untitled.
		map[string]any{"operation": "insert_page", "ref": "u", "document": markdownDoc("Just text.\n")},
	)
	fm, h, u := w.page(t, crPath(sp.Id, cr.Id), res.Refs["fm"], "?format=markdown"), w.page(t, crPath(sp.Id, cr.Id), res.Refs["h"], "?format=markdown"), w.page(t, crPath(sp.Id, cr.Id), res.Refs["u"], "?format=markdown")
	if fm.Title != "From frontmatter" || fm.Slug != "from-frontmatter" || *fm.Description != "Said above" || *fm.Icon != "gear" ||
		fm.Hidden == nil || !*fm.Hidden || fm.NoIndex == nil || !*fm.NoIndex || fm.NoRobotsIndex == nil || !*fm.NoRobotsIndex ||
		*fm.Condition != "visitor.claims.beta === true" || *fm.Markdown != "# Kept heading\n\nBody.\n" {
		t.Fatalf("frontmatter page %+v markdown %q", fm, *fm.Markdown)
	}
	if h.Title != "The heading title" || *h.Markdown != "Text under it.\n\n# Second\n" || *h.Emoji != "🚀" || *h.Icon != "rocket" ||
		*h.Condition != `visitor.claims.plan === "pro"` || h.NoIndex != nil || h.Hidden != nil {
		t.Fatalf("heading page %+v markdown %q", h, *h.Markdown)
	}
	if u.Title != "Untitled" || *u.Markdown != "Just text.\n" {
		t.Fatalf("untitled page %+v", u)
	}
	// update_page: fields set and removed; the frontmatter of its markdown is read, its heading kept.
	w.apply(t, w.admin, sp.Id, cr.Id,
		map[string]any{"operation": "update_page", "page": res.Refs["h"], "emoji": "", "icon": "", "condition": "", "noIndex": true},
		map[string]any{"operation": "update_page", "page": res.Refs["fm"], "document": markdownDoc("---\nhidden: false\ntitle: Renamed\n---\n# Heading stays\n")},
	)
	fm, h = w.page(t, crPath(sp.Id, cr.Id), res.Refs["fm"], "?format=markdown"), w.page(t, crPath(sp.Id, cr.Id), res.Refs["h"], "?format=markdown")
	if h.Emoji != nil || h.Icon != nil || h.Condition != nil || h.NoIndex == nil || !*h.NoIndex || h.Title != "The heading title" {
		t.Fatalf("updated page %+v", h)
	}
	if fm.Title != "Renamed" || fm.Hidden != nil || *fm.Markdown != "# Heading stays\n" || *fm.Icon != "gear" {
		t.Fatalf("page updated by frontmatter %+v %q", fm, *fm.Markdown)
	}
	// The metadata is in the page tree and the revision too.
	for _, p := range w.crPages(t, sp.Id, cr.Id) {
		if p.Id == res.Refs["fm"] && (p.Icon == nil || *p.Icon != "gear") {
			t.Fatalf("listed page %+v", p)
		}
	}
	// It survives a merge into the space.
	sendJSON[gen.MergeChangeRequestResult](t, w.testServer, http.StatusOK, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)
	live := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/page/"+res.Refs["h"])
	if live.NoIndex == nil || !*live.NoIndex || live.Title != "The heading title" {
		t.Fatalf("merged page %+v", live)
	}
	// Pages with noIndex are kept out of search.
	found := getJSON[gen.SearchPageList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/search?query=text")
	if len(found.Items) != 1 || found.Items[0].Id != res.Refs["u"] {
		t.Fatalf("search found %+v, want only the untitled page", found.Items)
	}
}

func TestContentBatchMetadataMerges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, cr := w.draft(t)
	res := w.apply(t, w.admin, sp.Id, cr.Id, map[string]any{"operation": "insert_page", "ref": "p", "title": "Page", "document": markdownDoc("x\n")})
	page := res.Refs["p"]
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)
	// Two change requests: one sets the icon, the other the condition: both merge.
	a, b, c := w.create(t, w.admin, sp.Id, "Batch"), w.create(t, w.admin, sp.Id, "Batch"), w.create(t, w.admin, sp.Id, "Batch")
	postBatch(t, w.testServer, w.admin, sp.Id, a.Id, []map[string]any{{"operation": "update_page", "page": page, "icon": "one"}})
	postBatch(t, w.testServer, w.admin, sp.Id, b.Id, []map[string]any{{"operation": "update_page", "page": page, "condition": "visitor.claims.x === 1"}})
	postBatch(t, w.testServer, w.admin, sp.Id, c.Id, []map[string]any{{"operation": "update_page", "page": page, "icon": "two"}})
	var m gen.MergeChangeRequestResult
	for _, id := range []string{a.Id, b.Id} {
		w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, id, "/merge"), nil).Decode(t, &m)
		if m.Result != gen.MergeResultMerge {
			t.Fatalf("merge %s: %+v", id, m)
		}
	}
	live := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/content/page/"+page)
	if live.Icon == nil || *live.Icon != "one" || live.Condition == nil || *live.Condition != "visitor.claims.x === 1" {
		t.Fatalf("merged metadata %+v", live)
	}
	// The third set the icon differently: a conflict.
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, c.Id, "/merge"), nil).Decode(t, &m)
	if m.Result != gen.MergeResultConflicts {
		t.Fatalf("conflicting icons merged: %+v", m)
	}
}

func TestContentBatchRevert(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, cr := w.draft(t)
	seed := w.apply(t, w.admin, sp.Id, cr.Id,
		map[string]any{"operation": "insert_page", "ref": "keep", "title": "Keep", "document": markdownDoc("kept\n")},
		map[string]any{"operation": "insert_page", "ref": "edit", "title": "Edit", "icon": "pen", "document": markdownDoc("original\n")},
		map[string]any{"operation": "insert_page", "ref": "gone", "title": "Gone", "document": markdownDoc("gone\n")},
		map[string]any{"operation": "insert_page", "ref": "kid", "title": "Kid", "into": "gone", "document": markdownDoc("kid\n")},
	)
	keep, edit, gone, kid := seed.Refs["keep"], seed.Refs["edit"], seed.Refs["gone"], seed.Refs["kid"]
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(sp.Id, cr.Id, "/merge"), nil)

	cr = w.create(t, w.admin, sp.Id, "Batch")
	base := w.get(t, sp.Id, cr.Id).Revision
	edited := w.apply(t, w.admin, sp.Id, cr.Id,
		map[string]any{"operation": "update_page", "page": edit, "title": "Edited", "icon": "", "document": markdownDoc("changed\n")},
		map[string]any{"operation": "delete_page", "page": gone},
		map[string]any{"operation": "insert_page", "ref": "new", "title": "New", "document": markdownDoc("new\n")},
	)
	mid := edited.Revision
	newPage := edited.Refs["new"]
	w.apply(t, w.admin, sp.Id, cr.Id, map[string]any{"operation": "update_page", "page": edit, "document": markdownDoc("changed again\n")})

	// To the change request's base: the new page goes, the edited one is reset whole, the
	// deleted one comes back (its subpage after it, under it).
	res := w.apply(t, w.admin, sp.Id, cr.Id,
		map[string]any{"operation": "revert_page", "page": newPage},
		map[string]any{"operation": "revert_page", "page": edit},
		map[string]any{"operation": "revert_page", "page": gone},
		map[string]any{"operation": "revert_page", "page": kid},
	)
	if got, want := res.outcomes(t), []string{"deleted " + newPage, "updated " + edit, "created " + gone, "created " + kid}; !reflect.DeepEqual(got, want) {
		t.Fatalf("revert outcomes %q, want %q", got, want)
	}
	pages := flatten(w.crPages(t, sp.Id, cr.Id))
	wantPages := map[string]flatPage{keep: {"", "Keep", "keep"}, edit: {"", "Edit", "edit"}, gone: {"", "Gone", "gone"}, kid: {gone, "Kid", "gone/kid"}}
	if !reflect.DeepEqual(pages, wantPages) {
		t.Fatalf("pages after revert %+v", pages)
	}
	if p := w.page(t, crPath(sp.Id, cr.Id), edit, "?format=markdown"); *p.Markdown != "original\n" || p.Icon == nil || *p.Icon != "pen" {
		t.Fatalf("reverted page %+v %q", p, *p.Markdown)
	}
	// To a given revision: the state after the first edit.
	w.apply(t, w.admin, sp.Id, cr.Id, map[string]any{"operation": "revert_page", "page": edit, "revision": mid},
		map[string]any{"operation": "revert_page", "page": newPage, "revision": mid})
	if p := w.page(t, crPath(sp.Id, cr.Id), edit, "?format=markdown"); p.Title != "Edited" || *p.Markdown != "changed\n" || p.Icon != nil {
		t.Fatalf("page reverted to %s: %+v %q", mid, p, *p.Markdown)
	}
	if p := w.page(t, crPath(sp.Id, cr.Id), newPage, "?format=markdown"); p.Title != "New" {
		t.Fatalf("page restored from %s: %+v", mid, p)
	}
	if base == mid {
		t.Fatal("revisions did not move")
	}
	// A subpage whose parent is not there cannot come back alone; block reverts are refused;
	// a revision of another space is unknown here.
	w.apply(t, w.admin, sp.Id, cr.Id, map[string]any{"operation": "delete_page", "page": gone})
	w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "revert_page", "page": kid}}, "changes[0].page", "revert the parent first")
	w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "revert_page", "page": edit, "block": []string{"b1"}}}, "changes[0].block", "not supported")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
	w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "revert_page", "page": edit, "revision": other.Revision}}, "changes[0].revision")
	w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "revert_page", "page": "noSuchPage"}}, "changes[0].page", "noSuchPage")
}

func TestContentBatchFiles(t *testing.T) {
	t.Parallel()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc`\x00\x00\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82")
	origin := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/diagram":
			rw.Header().Set("Content-Type", "image/png; charset=binary")
			rw.Write(png)
		case "/notes.txt":
			rw.Write([]byte("plain notes"))
		default:
			http.NotFound(rw, r)
		}
	}))
	defer origin.Close()

	t.Run("AllowPrivateURLs", func(t *testing.T) {
		w := newWorld(t, server.Options{AllowPrivateURLs: true})
		sp, cr := w.draft(t)
		res := w.apply(t, w.admin, sp.Id, cr.Id,
			map[string]any{"operation": "insert_files", "files": []any{
				map[string]any{"ref": "d", "name": "diagram.png", "url": origin.URL + "/diagram"},
				map[string]any{"ref": "n", "name": "notes.txt", "contentType": "text/markdown", "url": origin.URL + "/notes.txt"},
				map[string]any{"ref": "b", "name": "inline.bin", "contentType": "application/octet-stream", "base64": base64.StdEncoding.EncodeToString([]byte{0, 1, 2})},
			}},
			map[string]any{"operation": "insert_page", "ref": "p", "title": "Pictures", "document": markdownDoc("![d](./d) [n](/files/n) [b](./b)\n")},
		)
		files := res.Update.InsertedFiles
		if len(files) != 3 || files[0].Name != "diagram.png" || files[0].ContentType != "image/png" || files[0].Size != len(png) ||
			files[0].Dimensions == nil || files[0].Dimensions.Width != 1 ||
			files[1].ContentType != "text/markdown" || files[1].Size != len("plain notes") || files[2].Size != 3 {
			t.Fatalf("inserted files %+v", files)
		}
		if got := *w.page(t, crPath(sp.Id, cr.Id), res.Refs["p"], "?format=markdown").Markdown; got != "![d](/files/"+res.Refs["d"]+") [n](/files/"+res.Refs["n"]+") [b](/files/"+res.Refs["b"]+")\n" {
			t.Fatalf("markdown %q", got)
		}
		if _, body := w.fetch(t, files[0].DownloadURL); string(body) != string(png) {
			t.Fatal("the fetched file's bytes differ")
		}
		w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "insert_files", "files": []any{map[string]any{"name": "x", "url": origin.URL + "/missing"}}}},
			"changes[0].files[0].url", "404")
		closed := httptest.NewServer(http.NotFoundHandler())
		closed.Close()
		w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "insert_files", "files": []any{map[string]any{"name": "x", "url": closed.URL}}}},
			"changes[0].files[0].url", "unreachable")
	})
	t.Run("PrivateURLsRefused", func(t *testing.T) {
		w := newWorld(t)
		sp, cr := w.draft(t)
		w.refuse(t, sp.Id, cr.Id, []map[string]any{
			{"operation": "insert_page", "title": "First", "document": markdownDoc("")},
			{"operation": "insert_files", "files": []any{map[string]any{"name": "d.png", "url": origin.URL + "/diagram"}}},
		}, "changes[1].files[0].url", "loopback")
		w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "insert_files", "files": []any{map[string]any{"name": "m", "url": "http://169.254.169.254/latest/meta-data/"}}}},
			"changes[0].files[0].url", "not allowed")
		w.refuse(t, sp.Id, cr.Id, []map[string]any{{"operation": "insert_files", "files": []any{map[string]any{"name": "f", "url": "ftp://example.com/f"}}}},
			"changes[0].files[0].url", "http")
	})
}

func TestContentBatchRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp, cr := w.draft(t)
	w.apply(t, w.admin, sp.Id, cr.Id, map[string]any{"operation": "insert_page", "title": "Existing", "document": markdownDoc("")})
	ins := func(extra ...any) map[string]any {
		c := map[string]any{"operation": "insert_page", "title": "X", "document": markdownDoc("")}
		for i := 0; i+1 < len(extra); i += 2 {
			c[extra[i].(string)] = extra[i+1]
		}
		return c
	}
	file := func(f map[string]any) map[string]any {
		return map[string]any{"operation": "insert_files", "files": []any{f}}
	}
	b64 := base64.StdEncoding.EncodeToString
	cases := []struct {
		name    string
		changes []map[string]any
		parts   []string
	}{
		{"UnknownOperation", []map[string]any{ins(), ins(), ins(), {"operation": "move_page", "page": "x"}}, []string{"changes[3].operation", `"move_page" is not one of delete_page, delete_reusable_content, insert_files, insert_page, insert_reusable_content, revert_page, update_page, update_reusable_content`}},
		{"NoOperation", []map[string]any{{"page": "x"}}, []string{"changes[0].operation", "required: one of"}},
		{"BothSources", []map[string]any{file(map[string]any{"name": "a", "contentType": "text/plain", "base64": b64([]byte("a")), "url": "https://example.com/a"})},
			[]string{"changes[0].files[0]", "exactly one of base64 or url"}},
		{"NoSource", []map[string]any{ins(), file(map[string]any{"name": "a"})}, []string{"changes[1].files[0]", "exactly one"}},
		{"Base64WithoutType", []map[string]any{file(map[string]any{"name": "a", "base64": b64([]byte("a"))})}, []string{"changes[0].files[0].contentType"}},
		{"Base64Invalid", []map[string]any{file(map[string]any{"name": "a", "contentType": "text/plain", "base64": "@@@"})}, []string{"changes[0].files[0].base64"}},
		{"Base64Over1MiB", []map[string]any{file(map[string]any{"name": "a", "contentType": "text/plain", "base64": b64(make([]byte, 1<<20+1))})},
			[]string{"changes[0].files[0]", "1 MiB"}},
		{"PageRefTwice", []map[string]any{ins("ref", "r"), ins("ref", "r")}, []string{"changes[1].ref", "already"}},
		{"FileRefOfAPage", []map[string]any{ins("ref", "r"), file(map[string]any{"ref": "r", "name": "a", "contentType": "text/plain", "base64": b64([]byte("a"))})},
			[]string{"changes[1].files[0].ref", "already"}},
		{"RefIsAnExistingPath", []map[string]any{ins("ref", "existing")}, []string{"changes[0].ref", "path of an existing page"}},
		{"BadCondition", []map[string]any{ins("condition", "visitor.claims.(")}, []string{"changes[0].condition"}},
		{"BadFrontmatter", []map[string]any{ins("document", markdownDoc("---\nhidden: [\n---\nx"))}, []string{"changes[0].document.markdown", "YAML"}},
		{"FrontmatterWrongType", []map[string]any{ins("document", markdownDoc("---\nhidden: sometimes\n---\nx"))}, []string{"changes[0].document.markdown"}},
		{"WrongFieldForOperation", []map[string]any{{"operation": "delete_page", "page": "x", "title": "y"}}, []string{"changes[0]", "title"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { w.refuse(t, sp.Id, cr.Id, c.changes, c.parts...) })
	}
}
