package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The change-request family of comments: /spaces/{id}/change-requests/{cr}/comments… and
// …/commenters. Helpers are prefixed cc.

// ccWorld is the world with a space with a page "Intro" in its main content, and a change
// request by the editor that adds a page "Draft" (only in the change request).
type ccWorld struct {
	*world
	sp    gen.Space
	cr    gen.ChangeRequest
	intro string // page in main and in the change request
	draft string // page only in the change request
}

const ccDraftMarkdown = "First paragraph of the draft.\n\nSecond paragraph of the draft.\n"

func ccNewWorld(t *testing.T) *ccWorld {
	t.Helper()
	w := &ccWorld{world: newWorld(t)}
	w.sp = w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	w.intro = w.seed(t, w.sp.Id, "Intro", "Hello.\n")["Intro"]
	w.cr = w.create(t, w.editor, w.sp.Id, "Drafting")
	w.draft = w.apply(t, w.editor, w.sp.Id, w.cr.Id, insertMarkdown("Draft", ccDraftMarkdown, "draft")).Refs["draft"]
	w.cr = w.get(t, w.sp.Id, w.cr.Id)
	return w
}

// ccPath is a path under a change request's comments (suffix "" for the list).
func ccPath(spaceID, crID string, suffix ...string) string {
	return crPath(spaceID, crID, "/comments"+strings.Join(suffix, ""))
}

// ccNum is a change request's number, as a path segment.
func ccNum(cr gen.ChangeRequest) string { return strconv.Itoa(cr.Number) }

// ccPost posts a comment as u, which must answer 200.
func ccPost(t *testing.T, w *ccWorld, u *testUser, crID string, body map[string]any) gen.Comment {
	t.Helper()
	return sendJSON[gen.Comment](t, w.testServer, http.StatusOK, u, "POST", ccPath(w.sp.Id, crID), body)
}

// ccText posts a comment with only a body as u.
func ccText(t *testing.T, w *ccWorld, u *testUser, crID, markdown string) gen.Comment {
	t.Helper()
	return ccPost(t, w, u, crID, map[string]any{"body": markdownDoc(markdown)})
}

// ccGet reads a comment as u (path suffix may carry a query).
func ccGet(t *testing.T, w *ccWorld, u *testUser, crID, id string) gen.Comment {
	t.Helper()
	return getJSON[gen.Comment](t, w.testServer, u, ccPath(w.sp.Id, crID, "/"+id))
}

// ccPut updates a comment as u, which must answer 200.
func ccPut(t *testing.T, w *ccWorld, u *testUser, crID, id string, body map[string]any) gen.Comment {
	t.Helper()
	return sendJSON[gen.Comment](t, w.testServer, http.StatusOK, u, "PUT", ccPath(w.sp.Id, crID, "/"+id), body)
}

// ccList lists a change request's comments as u with a query ("" for none).
func ccList(t *testing.T, w *ccWorld, u *testUser, crID, query string) gen.CommentList {
	t.Helper()
	var l gen.CommentList
	path := ccPath(w.sp.Id, crID)
	if query != "" {
		path += "?" + query
	}
	w.Expect(t, http.StatusOK, u, "GET", path, nil).Decode(t, &l)
	return l
}

// ccReply posts a reply as u, which must answer 200.
func ccReply(t *testing.T, w *ccWorld, u *testUser, crID, commentID, markdown string) gen.CommentReply {
	t.Helper()
	return sendJSON[gen.CommentReply](t, w.testServer, http.StatusOK, u, "POST", ccPath(w.sp.Id, crID, "/"+commentID+"/replies"), map[string]any{"body": markdownDoc(markdown)})
}

// ccReplies lists a comment's replies as u with a query ("" for none).
func ccReplies(t *testing.T, w *ccWorld, u *testUser, crID, commentID, query string) gen.CommentReplyList {
	t.Helper()
	var l gen.CommentReplyList
	path := ccPath(w.sp.Id, crID, "/"+commentID+"/replies")
	if query != "" {
		path += "?" + query
	}
	w.Expect(t, http.StatusOK, u, "GET", path, nil).Decode(t, &l)
	return l
}

// ccCommenters lists a change request's commenters as the admin, with a query ("" for none).
func ccCommenters(t *testing.T, w *ccWorld, crID, query string) gen.MemberList {
	t.Helper()
	var l gen.MemberList
	path := crPath(w.sp.Id, crID, "/commenters")
	if query != "" {
		path += "?" + query
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Decode(t, &l)
	return l
}

// ccWantCounter checks a change request's open-comment counter.
func ccWantCounter(t *testing.T, w *ccWorld, crID string, want int) {
	t.Helper()
	if got := w.get(t, w.sp.Id, crID).Comments; got != want {
		t.Fatalf("change request %s: comments %d, want %d", crID, got, want)
	}
}

// ccWantSpaceCounter checks the space's open-comment counter.
func ccWantSpaceCounter(t *testing.T, w *ccWorld, want int) {
	t.Helper()
	if got := w.space(t, w.sp.Id).Comments; got != want {
		t.Fatalf("space comments %d, want %d", got, want)
	}
}

// ccNodeKeys returns the block keys of a page's document as the change request serves it.
func ccNodeKeys(t *testing.T, w *ccWorld, crID, pageID string) []string {
	t.Helper()
	p := getJSON[gen.RevisionPage](t, w.testServer, w.admin, crPath(w.sp.Id, crID, "/content/page/"+pageID))
	if p.Document == nil {
		t.Fatalf("page %s served no document", pageID)
	}
	var keys []string
	for _, n := range p.Document.Nodes {
		if n.Object == "block" && n.Key != "" {
			keys = append(keys, n.Key)
		}
	}
	return keys
}

func ccMarkdown(t *testing.T, b gen.CommentBody) string {
	t.Helper()
	if b.Markdown == nil {
		t.Fatalf("body has no markdown: %+v", b)
	}
	return *b.Markdown
}

func TestCommentCRPost(t *testing.T) {
	t.Parallel()
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr

	t.Run("OnTheChangeRequestAsAWhole", func(t *testing.T) {
		c := ccText(t, w, w.commenter, cr.Id, "Looks **good**.")
		if c.Object != "comment" || c.Id == "" || c.PostedBy.Id != w.commenter.ID || c.PostedAt.IsZero() || c.EditedAt != nil {
			t.Fatalf("posted %+v", c)
		}
		if ccMarkdown(t, c.Body) != "Looks **good**." || c.Status != gen.CommentStatusOpen || c.ResolvedAt != nil || c.ResolvedBy != nil {
			t.Fatalf("body %+v status %s resolved %v %v", c.Body, c.Status, c.ResolvedAt, c.ResolvedBy)
		}
		if c.Replies != 0 || len(c.Repliers) != 0 || len(c.Reactions) != 0 {
			t.Fatalf("replies %d repliers %v reactions %v", c.Replies, c.Repliers, c.Reactions)
		}
		tg := c.Target
		if tg.Space != sp.Id || tg.ChangeRequest == nil || *tg.ChangeRequest != cr.Id || tg.Revision != cr.Revision {
			t.Fatalf("target %+v; want space %s, change request %s, revision %s", tg, sp.Id, cr.Id, cr.Revision)
		}
		if tg.Revision == sp.Revision {
			t.Fatal("target revision is the space's, not the change request's")
		}
		if tg.Page != nil || tg.Node != nil || tg.TableCell != nil || tg.Review != nil {
			t.Fatalf("target %+v", tg)
		}
		if !strings.HasSuffix(c.Urls.Location, ccPath(sp.Id, cr.Id, "/"+c.Id)) {
			t.Fatalf("urls.location %q", c.Urls.Location)
		}
		if p := c.Permissions; !p.View || !p.Edit || !p.Reply || !p.Delete {
			t.Fatalf("author's permissions %+v", p)
		}
		if got := ccGet(t, w, w.commenter, cr.Id, c.Id); !reflect.DeepEqual(got, c) {
			t.Fatalf("re-read %+v\nwant %+v", got, c)
		}
	})

	t.Run("ByNumber", func(t *testing.T) {
		// The seeding change request is number 1; this one comes next.
		if cr.Number != 2 {
			t.Fatalf("number %d", cr.Number)
		}
		c := ccText(t, w, w.editor, ccNum(cr), "By number.")
		if c.Target.ChangeRequest == nil || *c.Target.ChangeRequest != cr.Id || c.Target.Revision != cr.Revision {
			t.Fatalf("target %+v", c.Target)
		}
		if !strings.HasSuffix(c.Urls.Location, ccPath(sp.Id, cr.Id, "/"+c.Id)) {
			t.Fatalf("urls.location %q uses the number, not the id", c.Urls.Location)
		}
		ccGet(t, w, w.admin, cr.Id, c.Id)
		ccGet(t, w, w.admin, ccNum(cr), c.Id)
	})

	t.Run("OnAPageOfTheSpace", func(t *testing.T) {
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("On intro."), "page": w.intro})
		if c.Target.Page == nil || c.Target.Page.Id != w.intro || c.Target.Node != nil {
			t.Fatalf("target %+v", c.Target)
		}
		if got := ccGet(t, w, w.admin, cr.Id, c.Id); got.Target.Page == nil || got.Target.Page.Id != w.intro {
			t.Fatalf("re-read target %+v", got.Target)
		}
	})

	t.Run("OnAPageOnlyInTheChangeRequest", func(t *testing.T) {
		// Not in the space's content: the space family refuses it, this one accepts it.
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+sp.Id+"/content/page/"+w.draft, nil)
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("On draft."), "page": w.draft})
		if c.Target.Page == nil || c.Target.Page.Id != w.draft || c.Target.Revision != cr.Revision {
			t.Fatalf("target %+v", c.Target)
		}
		r := w.Expect(t, http.StatusBadRequest, w.commenter, "POST", "/spaces/"+sp.Id+"/comments",
			map[string]any{"body": markdownDoc("On draft."), "page": w.draft})
		wantMessage(t, r, "page")
	})

	t.Run("OnANode", func(t *testing.T) {
		keys := ccNodeKeys(t, w, cr.Id, w.draft)
		if len(keys) != 2 {
			t.Fatalf("draft blocks %v", keys)
		}
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("On the second paragraph."), "page": w.draft, "node": keys[1]})
		if c.Target.Page == nil || c.Target.Page.Id != w.draft || c.Target.Node == nil || c.Target.Node.Id != keys[1] {
			t.Fatalf("target %+v", c.Target)
		}
		if got := ccGet(t, w, w.admin, cr.Id, c.Id); !reflect.DeepEqual(got.Target, c.Target) {
			t.Fatalf("re-read target %+v", got.Target)
		}
	})

	t.Run("OnATableCell", func(t *testing.T) {
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("On a cell."), "page": w.draft,
			"tableCell": map[string]any{"record": "rec-1", "definition": "col-a"}})
		if tc := c.Target.TableCell; tc == nil || tc.Record != "rec-1" || tc.Definition != "col-a" || c.Target.Page == nil {
			t.Fatalf("target %+v", c.Target)
		}
		if got := ccGet(t, w, w.admin, cr.Id, c.Id); !reflect.DeepEqual(got.Target, c.Target) {
			t.Fatalf("re-read target %+v", got.Target)
		}
	})

	t.Run("BadTargets", func(t *testing.T) {
		before := ccList(t, w, w.admin, cr.Id, "").Count
		counter := w.get(t, sp.Id, cr.Id).Comments
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
		otherPage := w.seed(t, other.Id, "Elsewhere", "Elsewhere.\n")["Elsewhere"]
		for name, body := range map[string]map[string]any{
			"unknown page":          {"body": markdownDoc("x"), "page": "no-such-page"},
			"page of another space": {"body": markdownDoc("x"), "page": otherPage},
			"unknown node":          {"body": markdownDoc("x"), "page": w.draft, "node": "no-such-node"},
			"node of another page":  {"body": markdownDoc("x"), "page": w.intro, "node": ccNodeKeys(t, w, cr.Id, w.draft)[0]},
			"node without page":     {"body": markdownDoc("x"), "node": ccNodeKeys(t, w, cr.Id, w.draft)[0]},
		} {
			r := w.Do(t, w.commenter, "POST", ccPath(sp.Id, cr.Id), body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 400: %s", name, r.Status, r.Body)
			}
			r.ErrorMessage(t)
		}
		// A page deleted in the change request is no longer a target there.
		cr2 := w.create(t, w.admin, sp.Id, "Deleting intro")
		w.apply(t, w.admin, sp.Id, cr2.Id, deletePage(w.intro))
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", ccPath(sp.Id, cr2.Id), map[string]any{"body": markdownDoc("x"), "page": w.intro})
		wantMessage(t, r, "page")
		// Invalid bodies.
		for name, body := range map[string]any{
			"no body":      map[string]any{"page": w.draft},
			"empty body":   map[string]any{"body": markdownDoc("")},
			"unknown key":  map[string]any{"body": markdownDoc("x"), "resolved": true},
			"not json":     []byte("{"),
			"half a table": map[string]any{"body": markdownDoc("x"), "tableCell": map[string]any{"record": "r"}},
		} {
			if r := w.Do(t, w.commenter, "POST", ccPath(sp.Id, cr.Id), body); r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 400: %s", name, r.Status, r.Body)
			}
		}
		if got := ccList(t, w, w.admin, cr.Id, "").Count; got != before {
			t.Fatalf("refused posts changed the list: %d, was %d", got, before)
		}
		ccWantCounter(t, w, cr.Id, counter)
	})

	t.Run("Access", func(t *testing.T) {
		before := ccList(t, w, w.admin, cr.Id, "").Count
		body := map[string]any{"body": markdownDoc("Not allowed.")}
		r := w.Expect(t, http.StatusForbidden, w.reader, "POST", ccPath(sp.Id, cr.Id), body)
		r.ErrorMessage(t)
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", ccPath(sp.Id, cr.Id), body).ErrorMessage(t)
		w.Expect(t, http.StatusUnauthorized, nil, "POST", ccPath(sp.Id, cr.Id), body)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath(sp.Id, "no-such-cr"), body).ErrorMessage(t)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath(sp.Id, "99"), body)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath("no-such-space", cr.Id), body)
		// A change request of another space is not found through this one.
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Third", "")
		otherCR := w.create(t, w.admin, other.Id, "Elsewhere")
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath(sp.Id, otherCR.Id), body)
		if got := ccList(t, w, w.admin, cr.Id, "").Count; got != before {
			t.Fatalf("refused posts changed the list: %d, was %d", got, before)
		}
		// The reader and the guest with no role can't post; the reader reads.
		// The guest (a member with no role, no access to the space) is refused too.
		w.Expect(t, http.StatusNotFound, w.guest, "POST", ccPath(sp.Id, cr.Id), body)
		w.Expect(t, http.StatusNotFound, w.guest, "GET", ccPath(sp.Id, cr.Id), nil)
		l := ccList(t, w, w.reader, cr.Id, "")
		if l.Count != before {
			t.Fatalf("reader lists %d, want %d", l.Count, before)
		}
		for _, c := range l.Items {
			if p := c.Permissions; !p.View || p.Edit || p.Reply || p.Delete {
				t.Fatalf("reader's permissions on %s: %+v", c.Id, p)
			}
		}
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", ccPath(sp.Id, cr.Id), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", ccPath(sp.Id, cr.Id, "/"+l.Items[0].Id), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", ccPath(sp.Id, "no-such-cr"), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", ccPath(sp.Id, cr.Id, "/no-such-comment"), nil)
	})
}

func TestCommentCRList(t *testing.T) {
	t.Parallel()
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	a := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("A on *draft*."), "page": w.draft})
	b := ccText(t, w, w.editor, cr.Id, "B")
	c := ccPost(t, w, w.admin, cr.Id, map[string]any{"body": markdownDoc("C on intro."), "page": w.intro})
	d := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("D on draft."), "page": w.draft})
	ccPut(t, w, w.admin, cr.Id, b.Id, map[string]any{"resolved": true})
	ccPut(t, w, w.editor, cr.Id, d.Id, map[string]any{"resolved": true})
	// A comment on the space and one on another change request are not listed here.
	ccWantSpaceCounter(t, w, 0)
	w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": markdownDoc("On the space.")})
	other := w.create(t, w.admin, sp.Id, "Other")
	ccText(t, w, w.admin, other.Id, "On the other change request.")

	t.Run("NewestFirstByDefault", func(t *testing.T) {
		wantList(t, "default", ccList(t, w, w.admin, cr.Id, ""), 4, d.Id, c.Id, b.Id, a.Id)
		wantList(t, "desc", ccList(t, w, w.admin, cr.Id, "order=desc"), 4, d.Id, c.Id, b.Id, a.Id)
		wantList(t, "asc", ccList(t, w, w.admin, cr.Id, "order=asc"), 4, a.Id, b.Id, c.Id, d.Id)
		wantList(t, "by number", ccList(t, w, w.reader, ccNum(cr), ""), 4, d.Id, c.Id, b.Id, a.Id)
	})

	t.Run("Status", func(t *testing.T) {
		wantList(t, "all", ccList(t, w, w.admin, cr.Id, "status=all"), 4, d.Id, c.Id, b.Id, a.Id)
		wantList(t, "open", ccList(t, w, w.admin, cr.Id, "status=open"), 2, c.Id, a.Id)
		wantList(t, "resolved", ccList(t, w, w.admin, cr.Id, "status=resolved&order=asc"), 2, b.Id, d.Id)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", ccPath(sp.Id, cr.Id)+"?status=closed", nil)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", ccPath(sp.Id, cr.Id)+"?order=sideways", nil)
	})

	t.Run("TargetPage", func(t *testing.T) {
		wantList(t, "draft", ccList(t, w, w.admin, cr.Id, "targetPage="+w.draft), 2, d.Id, a.Id)
		wantList(t, "intro", ccList(t, w, w.admin, cr.Id, "targetPage="+w.intro), 1, c.Id)
		wantList(t, "draft open", ccList(t, w, w.admin, cr.Id, "targetPage="+w.draft+"&status=open"), 1, a.Id)
		wantList(t, "unknown", ccList(t, w, w.admin, cr.Id, "targetPage=nope"), 0)
	})

	t.Run("Authors", func(t *testing.T) {
		wantList(t, "commenter", ccList(t, w, w.admin, cr.Id, "authors="+w.commenter.ID), 2, d.Id, a.Id)
		q := url.Values{"authors": {w.editor.ID, w.admin.ID}}.Encode()
		wantList(t, "editor and admin", ccList(t, w, w.admin, cr.Id, q), 2, c.Id, b.Id)
		wantList(t, "reader", ccList(t, w, w.admin, cr.Id, "authors="+w.reader.ID), 0)
		wantList(t, "commenter, resolved, draft", ccList(t, w, w.admin, cr.Id,
			"authors="+w.commenter.ID+"&status=resolved&targetPage="+w.draft), 1, d.Id)
	})

	t.Run("Paging", func(t *testing.T) {
		for _, order := range []string{"desc", "asc"} {
			var got []string
			query := "limit=3&order=" + order
			pages := 0
			for {
				l := ccList(t, w, w.admin, cr.Id, query)
				pages++
				if l.Count != 4 || len(l.Items) > 3 {
					t.Fatalf("%s page %d: count %d, %d items", order, pages, l.Count, len(l.Items))
				}
				got = append(got, idsOf(l.Items)...)
				if l.Next == nil {
					break
				}
				if pages > 3 {
					t.Fatal("paging does not end")
				}
				query = "limit=3&order=" + order + "&page=" + url.QueryEscape(l.Next.Page)
			}
			want := []string{d.Id, c.Id, b.Id, a.Id}
			if order == "asc" {
				want = []string{a.Id, b.Id, c.Id, d.Id}
			}
			if pages != 2 || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %d pages %v, want %v", order, pages, got, want)
			}
		}
		// Paging with a filter.
		l := ccList(t, w, w.admin, cr.Id, "limit=1&status=resolved")
		if l.Count != 2 || len(l.Items) != 1 || l.Items[0].Id != d.Id || l.Next == nil {
			t.Fatalf("resolved page 1: %v count %d next %v", idsOf(l.Items), l.Count, l.Next)
		}
		l = ccList(t, w, w.admin, cr.Id, "limit=1&status=resolved&page="+url.QueryEscape(l.Next.Page))
		if l.Count != 2 || len(l.Items) != 1 || l.Items[0].Id != b.Id || l.Next != nil {
			t.Fatalf("resolved page 2: %v count %d next %v", idsOf(l.Items), l.Count, l.Next)
		}
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", ccPath(sp.Id, cr.Id)+"?page=garbage", nil)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", ccPath(sp.Id, cr.Id)+"?limit=0", nil)
	})

	t.Run("FormatDocument", func(t *testing.T) {
		l := ccList(t, w, w.admin, cr.Id, "format=document&order=asc")
		first := l.Items[0]
		if first.Id != a.Id || first.Body.Markdown != nil || first.Body.Document == nil {
			t.Fatalf("document body %+v", first.Body)
		}
		if doc := first.Body.Document; doc.Object != "document" || len(doc.Nodes) != 1 || doc.Nodes[0].Type != "paragraph" {
			t.Fatalf("document %+v", doc)
		}
		got := ccGet(t, w, w.admin, cr.Id, a.Id+"?format=document")
		if got.Body.Markdown != nil || !reflect.DeepEqual(got.Body.Document, first.Body.Document) {
			t.Fatalf("get with format=document %+v", got.Body)
		}
		if md := ccGet(t, w, w.admin, cr.Id, a.Id+"?format=markdown"); ccMarkdown(t, md.Body) != "A on *draft*." {
			t.Fatalf("markdown %+v", md.Body)
		}
		if md := ccList(t, w, w.admin, cr.Id, "order=asc").Items[0]; ccMarkdown(t, md.Body) != "A on *draft*." {
			t.Fatalf("default body %+v", md.Body)
		}
	})
}
