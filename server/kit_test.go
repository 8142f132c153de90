package server_test

import (
	"io"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

// The kit every area's tests share: one cast (world), the change-request and content steps, the
// page-change builders, page-tree walks, id lists and the error-message check. An area keeps its
// own steps in its test file as methods on *world, or on a small struct embedding it when the area
// adds content of its own (a site, a seeded space, the access matrix's targets).

// world is the cast: an organization "Acme" administered by admin, with an editor (edit role), a
// reader (read), a commenter (comment) and a guest, and an outsider who administers an
// organization of their own, "Other Co". Each world is a server of its own, so a test that makes
// one can run in parallel with the others.
type world struct {
	*testServer
	admin, editor, reader, commenter, guest, outsider *testUser
	org, other                                        gen.Organization
}

func newWorld(t testing.TB, opts ...server.Options) *world {
	t.Helper()
	ts := newTestServer(t, opts...)
	w := &world{
		testServer: ts,
		admin:      ts.MustCreateUser(t, "ada@acme.test", "Ada"),
		editor:     ts.MustCreateUser(t, "eve@editors.test", "Eve"),
		reader:     ts.MustCreateUser(t, "rita@readers.test", "Rita"),
		commenter:  ts.MustCreateUser(t, "cora@commenters.test", "Cora"),
		guest:      ts.MustCreateUser(t, "gus@guests.test", "Gus"),
		outsider:   ts.MustCreateUser(t, "otto@other.test", "Otto"),
	}
	w.org = ts.MustCreateOrg(t, w.admin, "Acme")
	ts.MustAddMember(t, w.admin, w.org.Id, w.editor, "edit")
	ts.MustAddMember(t, w.admin, w.org.Id, w.reader, "read")
	ts.MustAddMember(t, w.admin, w.org.Id, w.commenter, "comment")
	ts.MustAddMember(t, w.admin, w.org.Id, w.guest, "")
	w.other = ts.MustCreateOrg(t, w.outsider, "Other Co")
	return w
}

// crPath is the path of a change request (or of one of its operations with suffix).
func crPath(spaceID, crID string, suffix ...string) string {
	return "/spaces/" + spaceID + "/change-requests/" + crID + strings.Join(suffix, "")
}

// create opens a change request as u, which must answer 201.
func (w *world) create(t testing.TB, u *testUser, spaceID, subject string) gen.ChangeRequest {
	t.Helper()
	return sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusCreated, u, "POST", "/spaces/"+spaceID+"/change-requests", map[string]any{"subject": subject})
}

// get reads a change request (by id or number) as the admin.
func (w *world) get(t testing.TB, spaceID, crID string) gen.ChangeRequest {
	t.Helper()
	return getJSON[gen.ChangeRequest](t, w.testServer, w.admin, crPath(spaceID, crID))
}

// patch updates a change request as the admin, which must answer 200.
func (w *world) patch(t testing.TB, spaceID, crID string, body map[string]any) gen.ChangeRequest {
	t.Helper()
	return sendJSON[gen.ChangeRequest](t, w.testServer, http.StatusOK, w.admin, "PATCH", crPath(spaceID, crID), body)
}

// apply posts a content batch as u, which must answer 200.
func (w *world) apply(t testing.TB, u *testUser, spaceID, crID string, changes ...map[string]any) batchResult {
	t.Helper()
	return postBatch(t, w.testServer, u, spaceID, crID, changes)
}

// refuse posts a content batch as the admin, which must answer 400 with a message containing
// every part and leave the change request's revision where it was; it returns the message.
func (w *world) refuse(t testing.TB, spaceID, crID string, changes []map[string]any, parts ...string) string {
	t.Helper()
	before := w.get(t, spaceID, crID).Revision
	r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", crPath(spaceID, crID, "/content"), map[string]any{"changes": changes})
	msg := wantMessage(t, r, parts...)
	if after := w.get(t, spaceID, crID).Revision; after != before {
		t.Fatalf("a refused batch moved the revision from %s to %s", before, after)
	}
	return msg
}

// merge merges a change request as u, which must answer 200.
func (w *world) merge(t testing.TB, u *testUser, spaceID, crID string) gen.MergeChangeRequestResult {
	t.Helper()
	return sendJSON[gen.MergeChangeRequestResult](t, w.testServer, http.StatusOK, u, "POST", crPath(spaceID, crID, "/merge"), nil)
}

// merged merges a change request as the admin, which must merge it; it returns the space's new
// revision.
func (w *world) merged(t testing.TB, spaceID, crID string) string {
	t.Helper()
	m := w.merge(t, w.admin, spaceID, crID)
	if m.Result != gen.MergeResultMerge || m.Revision == "" {
		t.Fatalf("merge %+v", m)
	}
	return m.Revision
}

// update pulls main into a change request as u, which must answer 200.
func (w *world) update(t testing.TB, u *testUser, spaceID, crID string) gen.UpdateChangeRequestResult {
	t.Helper()
	return sendJSON[gen.UpdateChangeRequestResult](t, w.testServer, http.StatusOK, u, "POST", crPath(spaceID, crID, "/update"), nil)
}

// space reads a space as the admin.
func (w *world) space(t testing.TB, spaceID string) gen.Space {
	t.Helper()
	return w.spaceAs(t, w.admin, spaceID)
}

// spaceAs reads a space as u, which must answer 200.
func (w *world) spaceAs(t testing.TB, u *testUser, spaceID string) gen.Space {
	t.Helper()
	return getJSON[gen.Space](t, w.testServer, u, "/spaces/"+spaceID)
}

// list reads a change request list as u.
func (w *world) list(t testing.TB, u *testUser, path string) gen.ChangeRequestList {
	t.Helper()
	return getJSON[gen.ChangeRequestList](t, w.testServer, u, path)
}

// mainRevision reads the space's current revision.
func (w *world) mainRevision(t testing.TB, spaceID string) gen.Revision {
	t.Helper()
	return getJSON[gen.Revision](t, w.testServer, w.admin, "/spaces/"+spaceID+"/content")
}

// crRevision reads a change request's revision.
func (w *world) crRevision(t testing.TB, spaceID, crID string) gen.Revision {
	t.Helper()
	return getJSON[gen.Revision](t, w.testServer, w.admin, crPath(spaceID, crID, "/content"))
}

// pageTree reads the page tree under base (a space's path for its current revision, or crPath
// for a change request's) as u.
func (w *world) pageTree(t testing.TB, u *testUser, base string) []gen.RevisionPage {
	t.Helper()
	pt := getJSON[gen.PageTree](t, w.testServer, u, base+"/content/pages")
	return pt.Pages
}

// mainPages reads the page tree of the space's current revision.
func (w *world) mainPages(t testing.TB, spaceID string) []gen.RevisionPage {
	t.Helper()
	return w.pageTree(t, w.admin, "/spaces/"+spaceID)
}

// crPages reads the page tree of a change request's revision.
func (w *world) crPages(t testing.TB, spaceID, crID string) []gen.RevisionPage {
	t.Helper()
	return w.pageTree(t, w.admin, crPath(spaceID, crID))
}

// page reads a page by id under base (as pageTree) with a query ("" for none), as the admin.
func (w *world) page(t testing.TB, base, pageID, query string) gen.RevisionPage {
	t.Helper()
	return getJSON[gen.RevisionPage](t, w.testServer, w.admin, base+"/content/page/"+pageID+query)
}

// markdownAt reads a page's markdown under base (as pageTree).
func (w *world) markdownAt(t testing.TB, base, pageID string) string {
	t.Helper()
	p := w.page(t, base, pageID, "?format=markdown")
	if p.Markdown == nil {
		t.Fatalf("page %s answered no markdown with format=markdown", pageID)
	}
	return *p.Markdown
}

// mainMarkdown reads a page's markdown in the space's current revision.
func (w *world) mainMarkdown(t testing.TB, spaceID, pageID string) string {
	t.Helper()
	return w.markdownAt(t, "/spaces/"+spaceID, pageID)
}

// crMarkdown reads a page's markdown in a change request's revision.
func (w *world) crMarkdown(t testing.TB, spaceID, crID, pageID string) string {
	t.Helper()
	return w.markdownAt(t, crPath(spaceID, crID), pageID)
}

// seed writes top-level pages (title, markdown pairs) into a space through a merged change
// request and returns their ids by title.
func (w *world) seed(t testing.TB, spaceID string, titleMarkdown ...string) map[string]string {
	t.Helper()
	cr := w.create(t, w.admin, spaceID, "Seed")
	var changes []map[string]any
	for i := 0; i+1 < len(titleMarkdown); i += 2 {
		changes = append(changes, insertMarkdown(titleMarkdown[i], titleMarkdown[i+1], titleMarkdown[i]))
	}
	res := w.apply(t, w.admin, spaceID, cr.Id, changes...)
	w.merged(t, spaceID, cr.Id)
	return res.Refs
}

// The page changes of a content batch. kv are further fields of the change as name, value pairs.

// insertPage is an insert_page change with an empty document.
func insertPage(title string, kv ...any) map[string]any {
	return withFields(map[string]any{"operation": "insert_page", "title": title, "document": markdownDoc("")}, kv)
}

// insertMarkdown is an insert_page change of a page with markdown and a ref ("" for none).
func insertMarkdown(title, markdown, ref string, kv ...any) map[string]any {
	c := insertPage(title, "document", markdownDoc(markdown))
	if ref != "" {
		c["ref"] = ref
	}
	return withFields(c, kv)
}

// updatePage is an update_page change.
func updatePage(page string, kv ...any) map[string]any {
	return withFields(map[string]any{"operation": "update_page", "page": page}, kv)
}

// editPage is an update_page change of a page's markdown.
func editPage(page, markdown string) map[string]any {
	return updatePage(page, "document", markdownDoc(markdown))
}

// movePage is an update_page change moving a page under another ("" for the top level).
func movePage(page, into string) map[string]any {
	var in any = into
	if into == "" {
		in = nil
	}
	return updatePage(page, "into", in)
}

// deletePage is a delete_page change.
func deletePage(page string) map[string]any {
	return map[string]any{"operation": "delete_page", "page": page}
}

// markdownDoc is a document (or a comment body) given as markdown.
func markdownDoc(md string) map[string]any { return map[string]any{"markdown": md} }

// commentBody is the body of a comment or reply given as markdown.
func commentBody(md string) map[string]any { return map[string]any{"body": markdownDoc(md)} }

func withFields(c map[string]any, kv []any) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i].(string)] = kv[i+1]
	}
	return c
}

// walkPages visits a page tree depth-first, each page with its parent's id ("" at the top) and
// its depth.
func walkPages(pages []gen.RevisionPage, visit func(p gen.RevisionPage, parent string, depth int)) {
	var walk func(parent string, list []gen.RevisionPage, depth int)
	walk = func(parent string, list []gen.RevisionPage, depth int) {
		for _, p := range list {
			visit(p, parent, depth)
			walk(p.Id, p.Pages, depth+1)
		}
	}
	walk("", pages, 0)
}

// outline flattens a page tree depth-first as "path title", indented by depth.
func outline(pages []gen.RevisionPage) []string {
	out := []string{}
	walkPages(pages, func(p gen.RevisionPage, _ string, depth int) {
		out = append(out, strings.Repeat("  ", depth)+p.Path+" "+p.Title)
	})
	return out
}

func wantOutline(t testing.TB, what string, pages []gen.RevisionPage, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := outline(pages); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s outline:\n got %q\nwant %q", what, got, want)
	}
}

// flatPage is a page of a tree, flattened.
type flatPage struct {
	Parent, Title, Path string
}

// flatten indexes a page tree by page id, with each page's parent id ("" at the top level).
func flatten(pages []gen.RevisionPage) map[string]flatPage {
	out := map[string]flatPage{}
	walkPages(pages, func(p gen.RevisionPage, parent string, _ int) {
		out[p.Id] = flatPage{Parent: parent, Title: p.Title, Path: p.Path}
	})
	return out
}

// findPage returns the page with an id anywhere in a tree (nil when there is none).
func findPage(pages []gen.RevisionPage, id string) *gen.RevisionPage {
	var found *gen.RevisionPage
	walkPages(pages, func(p gen.RevisionPage, _ string, _ int) {
		if p.Id == id && found == nil {
			found = &p
		}
	})
	return found
}

// ids returns the Id field of each item (any gen type with one), in order.
func idsOf[T any](items []T) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, reflect.ValueOf(it).FieldByName("Id").String())
	}
	return out
}

// wantIDs fails unless got is want (no ids and none wanted being equal however each is spelled).
func wantIDs(t testing.TB, what string, got []string, want ...string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// wantList fails unless a list answer (a gen …List: Items with ids, and Count) holds the items
// want, in order, and counts count.
func wantList(t testing.TB, what string, list any, count int, want ...string) {
	t.Helper()
	v := reflect.ValueOf(list)
	var got []string
	items := v.FieldByName("Items")
	for i := 0; i < items.Len(); i++ {
		got = append(got, items.Index(i).FieldByName("Id").String())
	}
	if n := int(v.FieldByName("Count").Int()); n != count || !(len(got) == 0 && len(want) == 0) && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: items %v (count %d), want %v (count %d)", what, got, n, want, count)
	}
}

// wantMessage fails unless an error response's message contains every part; it returns the
// message.
func wantMessage(t testing.TB, r *response, parts ...string) string {
	t.Helper()
	msg := r.ErrorMessage(t)
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Fatalf("error message %q does not contain %q", msg, p)
		}
	}
	return msg
}

// sorted returns the ids sorted (a copy).
func sorted(ids ...string) []string {
	out := append([]string{}, ids...)
	sort.Strings(out)
	return out
}

// listAll walks every page of a list (path with its query, which must not set limit) as u and
// returns the ids in order, checking that each page but the last is full, that every page
// reports the same count, and that the count is what was seen.
func (ts *testServer) listAll(t testing.TB, u *testUser, path string, limit int) []string {
	t.Helper()
	base, query, _ := strings.Cut(path, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	q.Set("limit", strconv.Itoa(limit))
	var got []string
	count := -1
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatalf("paging %s does not end", base)
		}
		var l struct {
			Items []struct{ Id string }
			Count int
			Next  *struct{ Page string }
		}
		ts.Expect(t, http.StatusOK, u, "GET", base+"?"+q.Encode(), nil).Decode(t, &l)
		if len(l.Items) > limit || l.Next != nil && len(l.Items) != limit {
			t.Fatalf("page %d of %d items (next %v), limit %d", pages, len(l.Items), l.Next != nil, limit)
		}
		if count >= 0 && l.Count != count {
			t.Fatalf("count %d on page %d, %d before", l.Count, pages, count)
		}
		count = l.Count
		got = append(got, idsOf(l.Items)...)
		if l.Next == nil {
			break
		}
		q.Set("page", l.Next.Page)
	}
	if len(got) != count {
		t.Fatalf("count %d, but %d items listed", count, len(got))
	}
	return got
}

var memberSeq atomic.Int64

// memberWith adds a new member of the organization with a role ("" for a guest), named after it.
func (w *world) memberWith(t testing.TB, role string) *testUser {
	t.Helper()
	name := role
	if name == "" {
		name = "guest"
	}
	n := memberSeq.Add(1)
	u := w.MustCreateUser(t, name+strconv.FormatInt(n, 10)+"@members.test", strings.ToUpper(name[:1])+name[1:])
	w.MustAddMember(t, w.admin, w.org.Id, u, role)
	return u
}

// draft makes a space in the organization with an open change request, both by the admin.
func (w *world) draft(t testing.TB) (gen.Space, gen.ChangeRequest) {
	t.Helper()
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	return sp, w.create(t, w.admin, sp.Id, "Edits")
}

// fetch GETs a URL quire made (under testBaseURL) from the test server, without a token, and
// returns the response with its body read.
func (ts *testServer) fetch(t testing.TB, link string) (*http.Response, []byte) {
	t.Helper()
	res, body := readResponse(t)(http.Get(ts.URL + strings.TrimPrefix(link, testBaseURL)))
	return res, body
}

// readResponse is a request's answer read whole: readResponse(t)(client.Do(req)) fails the test
// when the request or the read fails, and closes the body.
func readResponse(t testing.TB) func(*http.Response, error) (*http.Response, []byte) {
	return func(res *http.Response, err error) (*http.Response, []byte) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, body
	}
}

// spaceWithPages makes a space "Docs" in the organization and seeds it with top-level pages
// (title, markdown pairs); it returns the space and the pages' ids by title.
func (w *world) spaceWithPages(t testing.TB, titleMarkdown ...string) (gen.Space, map[string]string) {
	t.Helper()
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	return sp, w.seed(t, sp.Id, titleMarkdown...)
}

// batch is the changes of one content batch.
type batch = []map[string]any

// rivals opens two change requests on a space's current revision as the admin and applies a
// batch to each; the first is merged, and the second, re-read, is returned for its own merge or
// update against the moved main.
func (w *world) rivals(t testing.TB, spaceID string, first, second batch) gen.ChangeRequest {
	t.Helper()
	a := w.create(t, w.admin, spaceID, "first")
	b := w.create(t, w.admin, spaceID, "second")
	w.apply(t, w.admin, spaceID, a.Id, first...)
	w.apply(t, w.admin, spaceID, b.Id, second...)
	b = w.get(t, spaceID, b.Id)
	w.merge(t, w.admin, spaceID, a.Id)
	return b
}
