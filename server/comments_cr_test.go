package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The change-request family of comments: /spaces/{id}/change-requests/{cr}/comments… and
// …/commenters. Helpers are prefixed cc.

// ccWorld is a crWorld with a member of role comment, a space with a page "Intro" in its main
// content, and a change request that adds a page "Draft" (only in the change request).
type ccWorld struct {
	*crWorld
	commenter *testUser
	sp        gen.Space
	cr        gen.ChangeRequest
	intro     string // page in main and in the change request
	draft     string // page only in the change request
}

const ccDraftMarkdown = "First paragraph of the draft.\n\nSecond paragraph of the draft.\n"

func ccNewWorld(t *testing.T) *ccWorld {
	t.Helper()
	w := &ccWorld{crWorld: crNewWorld(t)}
	w.commenter = w.MustCreateUser(t, "cam@commenters.test", "Cam")
	w.MustAddMember(t, w.admin, w.org.Id, w.commenter, "comment")
	w.sp = w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	w.intro = w.seed(t, w.sp.Id, "Intro", "Hello.\n")["Intro"]
	w.cr = w.create(t, w.editor, w.sp.Id, "Drafting")
	w.draft = w.apply(t, w.editor, w.sp.Id, w.cr.Id, crInsert("Draft", ccDraftMarkdown, "draft")).Refs["draft"]
	w.cr = w.get(t, w.sp.Id, w.cr.Id)
	return w
}

// ccPath is a path under a change request's comments (suffix "" for the list).
func ccPath(spaceID, crID string, suffix ...string) string {
	return crPath(spaceID, crID, "/comments"+strings.Join(suffix, ""))
}

// ccNum is a change request's number, as a path segment.
func ccNum(cr gen.ChangeRequest) string { return strconv.Itoa(cr.Number) }

func ccMD(markdown string) map[string]any { return map[string]any{"markdown": markdown} }

// ccPost posts a comment as u, which must answer 200.
func ccPost(t *testing.T, w *ccWorld, u *testUser, crID string, body map[string]any) gen.Comment {
	t.Helper()
	var c gen.Comment
	w.Expect(t, http.StatusOK, u, "POST", ccPath(w.sp.Id, crID), body).Decode(t, &c)
	return c
}

// ccText posts a comment with only a body as u.
func ccText(t *testing.T, w *ccWorld, u *testUser, crID, markdown string) gen.Comment {
	t.Helper()
	return ccPost(t, w, u, crID, map[string]any{"body": ccMD(markdown)})
}

// ccGet reads a comment as u (path suffix may carry a query).
func ccGet(t *testing.T, w *ccWorld, u *testUser, crID, id string) gen.Comment {
	t.Helper()
	var c gen.Comment
	w.Expect(t, http.StatusOK, u, "GET", ccPath(w.sp.Id, crID, "/"+id), nil).Decode(t, &c)
	return c
}

// ccPut updates a comment as u, which must answer 200.
func ccPut(t *testing.T, w *ccWorld, u *testUser, crID, id string, body map[string]any) gen.Comment {
	t.Helper()
	var c gen.Comment
	w.Expect(t, http.StatusOK, u, "PUT", ccPath(w.sp.Id, crID, "/"+id), body).Decode(t, &c)
	return c
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

func ccIDs(l gen.CommentList) []string {
	out := []string{}
	for _, c := range l.Items {
		out = append(out, c.Id)
	}
	return out
}

func ccWantIDs(t *testing.T, what string, l gen.CommentList, count int, ids ...string) {
	t.Helper()
	if ids == nil {
		ids = []string{}
	}
	if got := ccIDs(l); !reflect.DeepEqual(got, ids) || l.Count != count {
		t.Fatalf("%s: items %v (count %d), want %v (count %d)", what, got, l.Count, ids, count)
	}
}

// ccReply posts a reply as u, which must answer 200.
func ccReply(t *testing.T, w *ccWorld, u *testUser, crID, commentID, markdown string) gen.CommentReply {
	t.Helper()
	var r gen.CommentReply
	w.Expect(t, http.StatusOK, u, "POST", ccPath(w.sp.Id, crID, "/"+commentID+"/replies"), map[string]any{"body": ccMD(markdown)}).Decode(t, &r)
	return r
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

func ccReplyIDs(l gen.CommentReplyList) []string {
	out := []string{}
	for _, r := range l.Items {
		out = append(out, r.Id)
	}
	return out
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

func ccUserIDs(l gen.MemberList) []string {
	out := []string{}
	for _, m := range l.Items {
		out = append(out, m.User.Id)
	}
	sort.Strings(out)
	return out
}

func ccSorted(ids ...string) []string {
	out := append([]string{}, ids...)
	sort.Strings(out)
	return out
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
	var p gen.RevisionPage
	w.Expect(t, http.StatusOK, w.admin, "GET", crPath(w.sp.Id, crID, "/content/page/"+pageID), nil).Decode(t, &p)
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
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("On intro."), "page": w.intro})
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
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("On draft."), "page": w.draft})
		if c.Target.Page == nil || c.Target.Page.Id != w.draft || c.Target.Revision != cr.Revision {
			t.Fatalf("target %+v", c.Target)
		}
		r := w.Expect(t, http.StatusBadRequest, w.commenter, "POST", "/spaces/"+sp.Id+"/comments",
			map[string]any{"body": ccMD("On draft."), "page": w.draft})
		crWantMessage(t, r, "page")
	})

	t.Run("OnANode", func(t *testing.T) {
		keys := ccNodeKeys(t, w, cr.Id, w.draft)
		if len(keys) != 2 {
			t.Fatalf("draft blocks %v", keys)
		}
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("On the second paragraph."), "page": w.draft, "node": keys[1]})
		if c.Target.Page == nil || c.Target.Page.Id != w.draft || c.Target.Node == nil || c.Target.Node.Id != keys[1] {
			t.Fatalf("target %+v", c.Target)
		}
		if got := ccGet(t, w, w.admin, cr.Id, c.Id); !reflect.DeepEqual(got.Target, c.Target) {
			t.Fatalf("re-read target %+v", got.Target)
		}
	})

	t.Run("OnATableCell", func(t *testing.T) {
		c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("On a cell."), "page": w.draft,
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
			"unknown page":          {"body": ccMD("x"), "page": "no-such-page"},
			"page of another space": {"body": ccMD("x"), "page": otherPage},
			"unknown node":          {"body": ccMD("x"), "page": w.draft, "node": "no-such-node"},
			"node of another page":  {"body": ccMD("x"), "page": w.intro, "node": ccNodeKeys(t, w, cr.Id, w.draft)[0]},
			"node without page":     {"body": ccMD("x"), "node": ccNodeKeys(t, w, cr.Id, w.draft)[0]},
		} {
			r := w.Do(t, w.commenter, "POST", ccPath(sp.Id, cr.Id), body)
			if r.Status != http.StatusBadRequest {
				t.Fatalf("%s: status %d, want 400: %s", name, r.Status, r.Body)
			}
			r.ErrorMessage(t)
		}
		// A page deleted in the change request is no longer a target there.
		cr2 := w.create(t, w.admin, sp.Id, "Deleting intro")
		w.apply(t, w.admin, sp.Id, cr2.Id, crDelete(w.intro))
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", ccPath(sp.Id, cr2.Id), map[string]any{"body": ccMD("x"), "page": w.intro})
		crWantMessage(t, r, "page")
		// Invalid bodies.
		for name, body := range map[string]any{
			"no body":      map[string]any{"page": w.draft},
			"empty body":   map[string]any{"body": ccMD("")},
			"unknown key":  map[string]any{"body": ccMD("x"), "resolved": true},
			"not json":     []byte("{"),
			"half a table": map[string]any{"body": ccMD("x"), "tableCell": map[string]any{"record": "r"}},
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
		body := map[string]any{"body": ccMD("Not allowed.")}
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
		w.Expect(t, http.StatusForbidden, w.guest, "POST", ccPath(sp.Id, cr.Id), body)
		w.Expect(t, http.StatusForbidden, w.guest, "GET", ccPath(sp.Id, cr.Id), nil)
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
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	a := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("A on *draft*."), "page": w.draft})
	b := ccText(t, w, w.editor, cr.Id, "B")
	c := ccPost(t, w, w.admin, cr.Id, map[string]any{"body": ccMD("C on intro."), "page": w.intro})
	d := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("D on draft."), "page": w.draft})
	ccPut(t, w, w.admin, cr.Id, b.Id, map[string]any{"resolved": true})
	ccPut(t, w, w.editor, cr.Id, d.Id, map[string]any{"resolved": true})
	// A comment on the space and one on another change request are not listed here.
	ccWantSpaceCounter(t, w, 0)
	w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": ccMD("On the space.")})
	other := w.create(t, w.admin, sp.Id, "Other")
	ccText(t, w, w.admin, other.Id, "On the other change request.")

	t.Run("NewestFirstByDefault", func(t *testing.T) {
		ccWantIDs(t, "default", ccList(t, w, w.admin, cr.Id, ""), 4, d.Id, c.Id, b.Id, a.Id)
		ccWantIDs(t, "desc", ccList(t, w, w.admin, cr.Id, "order=desc"), 4, d.Id, c.Id, b.Id, a.Id)
		ccWantIDs(t, "asc", ccList(t, w, w.admin, cr.Id, "order=asc"), 4, a.Id, b.Id, c.Id, d.Id)
		ccWantIDs(t, "by number", ccList(t, w, w.reader, ccNum(cr), ""), 4, d.Id, c.Id, b.Id, a.Id)
	})

	t.Run("Status", func(t *testing.T) {
		ccWantIDs(t, "all", ccList(t, w, w.admin, cr.Id, "status=all"), 4, d.Id, c.Id, b.Id, a.Id)
		ccWantIDs(t, "open", ccList(t, w, w.admin, cr.Id, "status=open"), 2, c.Id, a.Id)
		ccWantIDs(t, "resolved", ccList(t, w, w.admin, cr.Id, "status=resolved&order=asc"), 2, b.Id, d.Id)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", ccPath(sp.Id, cr.Id)+"?status=closed", nil)
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", ccPath(sp.Id, cr.Id)+"?order=sideways", nil)
	})

	t.Run("TargetPage", func(t *testing.T) {
		ccWantIDs(t, "draft", ccList(t, w, w.admin, cr.Id, "targetPage="+w.draft), 2, d.Id, a.Id)
		ccWantIDs(t, "intro", ccList(t, w, w.admin, cr.Id, "targetPage="+w.intro), 1, c.Id)
		ccWantIDs(t, "draft open", ccList(t, w, w.admin, cr.Id, "targetPage="+w.draft+"&status=open"), 1, a.Id)
		ccWantIDs(t, "unknown", ccList(t, w, w.admin, cr.Id, "targetPage=nope"), 0)
	})

	t.Run("Authors", func(t *testing.T) {
		ccWantIDs(t, "commenter", ccList(t, w, w.admin, cr.Id, "authors="+w.commenter.ID), 2, d.Id, a.Id)
		q := url.Values{"authors": {w.editor.ID, w.admin.ID}}.Encode()
		ccWantIDs(t, "editor and admin", ccList(t, w, w.admin, cr.Id, q), 2, c.Id, b.Id)
		ccWantIDs(t, "reader", ccList(t, w, w.admin, cr.Id, "authors="+w.reader.ID), 0)
		ccWantIDs(t, "commenter, resolved, draft", ccList(t, w, w.admin, cr.Id,
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
				got = append(got, ccIDs(l)...)
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
			t.Fatalf("resolved page 1: %v count %d next %v", ccIDs(l), l.Count, l.Next)
		}
		l = ccList(t, w, w.admin, cr.Id, "limit=1&status=resolved&page="+url.QueryEscape(l.Next.Page))
		if l.Count != 2 || len(l.Items) != 1 || l.Items[0].Id != b.Id || l.Next != nil {
			t.Fatalf("resolved page 2: %v count %d next %v", ccIDs(l), l.Count, l.Next)
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

func TestCommentCRUpdate(t *testing.T) {
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("Original."), "page": w.draft})
	path := ccPath(sp.Id, cr.Id, "/"+c.Id)

	t.Run("ResolveAndReopen", func(t *testing.T) {
		w.Clock.Advance(1e9)
		got := ccPut(t, w, w.editor, cr.Id, c.Id, map[string]any{"resolved": true})
		if got.Status != gen.CommentStatusResolved || got.ResolvedAt == nil || got.ResolvedBy == nil || got.ResolvedBy.Id != w.editor.ID {
			t.Fatalf("resolved %+v", got)
		}
		if !got.ResolvedAt.After(c.PostedAt) || got.EditedAt != nil || ccMarkdown(t, got.Body) != "Original." {
			t.Fatalf("resolvedAt %v postedAt %v editedAt %v", got.ResolvedAt, c.PostedAt, got.EditedAt)
		}
		if re := ccGet(t, w, w.reader, cr.Id, c.Id); re.Status != gen.CommentStatusResolved || re.ResolvedBy == nil || re.ResolvedBy.Id != w.editor.ID ||
			!re.ResolvedAt.Equal(*got.ResolvedAt) {
			t.Fatalf("re-read %+v", re)
		}
		// Resolving again keeps who resolved it first, and when.
		again := ccPut(t, w, w.admin, cr.Id, c.Id, map[string]any{"resolved": true})
		if again.ResolvedBy == nil || again.ResolvedBy.Id != w.editor.ID || !again.ResolvedAt.Equal(*got.ResolvedAt) {
			t.Fatalf("resolved twice %+v %+v", again.ResolvedAt, again.ResolvedBy)
		}
		open := ccPut(t, w, w.commenter, cr.Id, c.Id, map[string]any{"resolved": false})
		if open.Status != gen.CommentStatusOpen || open.ResolvedAt != nil || open.ResolvedBy != nil {
			t.Fatalf("reopened %+v", open)
		}
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); re.Status != gen.CommentStatusOpen || re.ResolvedAt != nil || re.ResolvedBy != nil {
			t.Fatalf("re-read reopened %+v", re)
		}
		// The reader can't resolve.
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", path, map[string]any{"resolved": true}).ErrorMessage(t)
		w.Expect(t, http.StatusNotFound, w.outsider, "PUT", path, map[string]any{"resolved": true})
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); re.Status != gen.CommentStatusOpen {
			t.Fatalf("refused resolve changed status: %s", re.Status)
		}
	})

	t.Run("BodyByTheAuthorOnly", func(t *testing.T) {
		for _, u := range []*testUser{w.editor, w.admin} {
			r := w.Expect(t, http.StatusForbidden, u, "PUT", path, map[string]any{"body": ccMD("Hijacked.")})
			crWantMessage(t, r, "author")
		}
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); ccMarkdown(t, re.Body) != "Original." || re.EditedAt != nil {
			t.Fatalf("refused edit changed %+v", re)
		}
		w.Clock.Advance(1e9)
		got := ccPut(t, w, w.commenter, cr.Id, c.Id, map[string]any{"body": ccMD("Edited.")})
		if ccMarkdown(t, got.Body) != "Edited." || got.EditedAt == nil || !got.EditedAt.After(got.PostedAt) || !got.PostedAt.Equal(c.PostedAt) {
			t.Fatalf("edited %+v", got)
		}
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); ccMarkdown(t, re.Body) != "Edited." || re.EditedAt == nil || !re.EditedAt.Equal(*got.EditedAt) {
			t.Fatalf("re-read edited %+v", re)
		}
		// Permissions per caller.
		if p := ccGet(t, w, w.editor, cr.Id, c.Id).Permissions; !p.View || p.Edit || !p.Reply || p.Delete {
			t.Fatalf("editor's permissions %+v", p)
		}
		if p := ccGet(t, w, w.admin, cr.Id, c.Id).Permissions; !p.View || p.Edit || !p.Reply || !p.Delete {
			t.Fatalf("admin's permissions %+v", p)
		}
		if p := ccGet(t, w, w.commenter, cr.Id, c.Id).Permissions; !p.View || !p.Edit || !p.Reply || !p.Delete {
			t.Fatalf("author's permissions %+v", p)
		}
		// An empty body is invalid; an empty update changes nothing.
		w.Expect(t, http.StatusBadRequest, w.commenter, "PUT", path, map[string]any{"body": ccMD("")})
		if got := ccPut(t, w, w.commenter, cr.Id, c.Id, map[string]any{}); ccMarkdown(t, got.Body) != "Edited." {
			t.Fatalf("empty update %+v", got.Body)
		}
	})

	t.Run("Reactions", func(t *testing.T) {
		got := ccPut(t, w, w.editor, cr.Id, c.Id, map[string]any{"addedReactions": []string{"👍", "🎉"}})
		if len(got.Reactions) != 2 {
			t.Fatalf("reactions %+v", got.Reactions)
		}
		got = ccPut(t, w, w.admin, cr.Id, c.Id, map[string]any{"addedReactions": []string{"👍"}})
		got = ccPut(t, w, w.admin, cr.Id, c.Id, map[string]any{"addedReactions": []string{"👍"}}) // once per user
		byEmoji := map[string]gen.EmojiReaction{}
		for _, r := range got.Reactions {
			byEmoji[r.Emoji] = r
		}
		thumbs := byEmoji["👍"]
		if len(got.Reactions) != 2 || thumbs.Count != 2 || len(thumbs.Users) != 2 || byEmoji["🎉"].Count != 1 {
			t.Fatalf("reactions %+v", got.Reactions)
		}
		users := []string{thumbs.Users[0].User.Id, thumbs.Users[1].User.Id}
		if !reflect.DeepEqual(ccSorted(users...), ccSorted(w.editor.ID, w.admin.ID)) || thumbs.Users[0].ReactedAt.IsZero() {
			t.Fatalf("👍 users %+v", thumbs.Users)
		}
		// Removing only removes the caller's.
		got = ccPut(t, w, w.editor, cr.Id, c.Id, map[string]any{"removedReactions": []string{"👍", "🎉", "❤️"}})
		if len(got.Reactions) != 1 || got.Reactions[0].Emoji != "👍" || got.Reactions[0].Count != 1 || got.Reactions[0].Users[0].User.Id != w.admin.ID {
			t.Fatalf("after removal %+v", got.Reactions)
		}
		if re := ccGet(t, w, w.reader, cr.Id, c.Id); !reflect.DeepEqual(re.Reactions, got.Reactions) {
			t.Fatalf("re-read reactions %+v, want %+v", re.Reactions, got.Reactions)
		}
		// Not emoji: 400, nothing applied.
		for _, bad := range []string{"thumbsup", ":+1:", "a👍", "1"} {
			r := w.Expect(t, http.StatusBadRequest, w.editor, "PUT", path, map[string]any{"addedReactions": []string{"🚀", bad}})
			crWantMessage(t, r, "emoji")
		}
		w.Expect(t, http.StatusBadRequest, w.editor, "PUT", path, map[string]any{"removedReactions": []string{"nope"}})
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", path, map[string]any{"addedReactions": []string{"👍"}})
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); len(re.Reactions) != 1 || re.Reactions[0].Count != 1 {
			t.Fatalf("refused reactions applied: %+v", re.Reactions)
		}
		// A refused body edit applies none of the rest of the update.
		w.Expect(t, http.StatusForbidden, w.editor, "PUT", path, map[string]any{"body": ccMD("x"), "resolved": true, "addedReactions": []string{"🚀"}})
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); re.Status != gen.CommentStatusOpen || len(re.Reactions) != 1 {
			t.Fatalf("refused update applied: %s %+v", re.Status, re.Reactions)
		}
	})

	t.Run("Unknown", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "PUT", ccPath(sp.Id, cr.Id, "/no-such-comment"), map[string]any{"resolved": true})
		w.Expect(t, http.StatusNotFound, w.admin, "PUT", ccPath(sp.Id, "no-such-cr", "/"+c.Id), map[string]any{"resolved": true})
	})
}

func TestCommentCRDelete(t *testing.T) {
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr

	t.Run("ByTheAuthor", func(t *testing.T) {
		c := ccText(t, w, w.commenter, cr.Id, "Mine.")
		ccWantCounter(t, w, cr.Id, 1)
		w.Expect(t, http.StatusForbidden, w.editor, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil).ErrorMessage(t)
		w.Expect(t, http.StatusForbidden, w.reader, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		ccGet(t, w, w.admin, cr.Id, c.Id)
		w.Expect(t, http.StatusNoContent, w.commenter, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		ccWantIDs(t, "after delete", ccList(t, w, w.admin, cr.Id, ""), 0)
		ccWantCounter(t, w, cr.Id, 0)
		// Again, and unknown: 204.
		w.Expect(t, http.StatusNoContent, w.commenter, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", ccPath(sp.Id, cr.Id, "/no-such-comment"), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "DELETE", ccPath(sp.Id, "no-such-cr", "/"+c.Id), nil)
	})

	t.Run("ByAnAdminWithReplies", func(t *testing.T) {
		c := ccText(t, w, w.editor, cr.Id, "Thread.")
		keep := ccText(t, w, w.editor, cr.Id, "Kept.")
		r1 := ccReply(t, w, w.commenter, cr.Id, c.Id, "Reply one.")
		ccReply(t, w, w.admin, cr.Id, c.Id, "Reply two.")
		ccReply(t, w, w.commenter, cr.Id, keep.Id, "On the kept one.")
		w.Expect(t, http.StatusOK, w.commenter, "PUT", ccPath(sp.Id, cr.Id, "/"+c.Id+"/replies/"+r1.Id), map[string]any{"addedReactions": []string{"👍"}})
		ccWantCounter(t, w, cr.Id, 2)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", ccPath(sp.Id, cr.Id, "/"+c.Id+"/replies"), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", ccPath(sp.Id, cr.Id, "/"+c.Id+"/replies/"+r1.Id), nil)
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath(sp.Id, cr.Id, "/"+c.Id+"/replies"), map[string]any{"body": ccMD("late")})
		ccWantIDs(t, "after admin delete", ccList(t, w, w.admin, cr.Id, ""), 1, keep.Id)
		if k := ccGet(t, w, w.admin, cr.Id, keep.Id); k.Replies != 1 || len(ccReplies(t, w, w.admin, cr.Id, keep.Id, "").Items) != 1 {
			t.Fatalf("the other thread lost its reply: %d", k.Replies)
		}
		ccWantCounter(t, w, cr.Id, 1)
	})

	t.Run("ResolvedCommentDoesNotMoveTheCounter", func(t *testing.T) {
		c := ccText(t, w, w.commenter, cr.Id, "Resolved then deleted.")
		ccWantCounter(t, w, cr.Id, 2)
		ccPut(t, w, w.commenter, cr.Id, c.Id, map[string]any{"resolved": true})
		ccWantCounter(t, w, cr.Id, 1)
		w.Expect(t, http.StatusNoContent, w.commenter, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil)
		ccWantCounter(t, w, cr.Id, 1)
	})
}

func TestCommentCRReplies(t *testing.T) {
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	c := ccPost(t, w, w.editor, cr.Id, map[string]any{"body": ccMD("Thread."), "page": w.draft})
	base := ccPath(sp.Id, cr.Id, "/"+c.Id+"/replies")

	var r1, r2, r3 gen.CommentReply
	t.Run("Post", func(t *testing.T) {
		r1 = ccReply(t, w, w.commenter, cr.Id, c.Id, "First *reply*.")
		if r1.Object != "comment-reply" || r1.Id == "" || r1.PostedBy.Id != w.commenter.ID || r1.EditedAt != nil ||
			ccMarkdown(t, r1.Body) != "First *reply*." || len(r1.Reactions) != 0 {
			t.Fatalf("reply %+v", r1)
		}
		if !strings.HasSuffix(r1.Urls.Location, base+"/"+r1.Id) {
			t.Fatalf("urls.location %q", r1.Urls.Location)
		}
		if p := r1.Permissions; !p.View || !p.Edit || !p.Reply || !p.Delete {
			t.Fatalf("author's permissions %+v", p)
		}
		w.Clock.Advance(1e9)
		r2 = ccReply(t, w, w.admin, cr.Id, c.Id, "Second.")
		w.Clock.Advance(1e9)
		r3 = ccReply(t, w, w.commenter, cr.Id, c.Id, "Third.")
		got := ccGet(t, w, w.reader, cr.Id, c.Id)
		if got.Replies != 3 || len(got.Repliers) != 2 {
			t.Fatalf("replies %d repliers %+v", got.Replies, got.Repliers)
		}
		// Latest first: the commenter's latest reply is r3.
		if rp := got.Repliers[0]; rp.User.Id != w.commenter.ID || rp.Count != 2 || !rp.UpdatedAt.Equal(r3.PostedAt) {
			t.Fatalf("repliers[0] %+v", rp)
		}
		if rp := got.Repliers[1]; rp.User.Id != w.admin.ID || rp.Count != 1 || !rp.UpdatedAt.Equal(r2.PostedAt) {
			t.Fatalf("repliers[1] %+v", rp)
		}
		if l := ccList(t, w, w.admin, cr.Id, ""); l.Items[0].Replies != 3 || len(l.Items[0].Repliers) != 2 {
			t.Fatalf("listed %d replies %+v", l.Items[0].Replies, l.Items[0].Repliers)
		}
		// Replying doesn't move the change request's counter.
		ccWantCounter(t, w, cr.Id, 1)
		// Access.
		w.Expect(t, http.StatusForbidden, w.reader, "POST", base, map[string]any{"body": ccMD("no")}).ErrorMessage(t)
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", base, map[string]any{"body": ccMD("no")})
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath(sp.Id, cr.Id, "/no-such-comment/replies"), map[string]any{"body": ccMD("no")})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", base, map[string]any{"body": ccMD("")})
		if got := ccGet(t, w, w.admin, cr.Id, c.Id); got.Replies != 3 {
			t.Fatalf("refused replies counted: %d", got.Replies)
		}
	})

	t.Run("ListAndGet", func(t *testing.T) {
		l := ccReplies(t, w, w.reader, cr.Id, c.Id, "")
		if got := ccReplyIDs(l); !reflect.DeepEqual(got, []string{r1.Id, r2.Id, r3.Id}) || l.Count != 3 || l.Next != nil {
			t.Fatalf("replies %v count %d", got, l.Count)
		}
		for _, r := range l.Items {
			if p := r.Permissions; !p.View || p.Edit || p.Reply || p.Delete {
				t.Fatalf("reader's permissions %+v", p)
			}
		}
		p1 := ccReplies(t, w, w.admin, cr.Id, c.Id, "limit=2")
		if p1.Count != 3 || len(p1.Items) != 2 || p1.Next == nil {
			t.Fatalf("page 1 %v count %d", ccReplyIDs(p1), p1.Count)
		}
		p2 := ccReplies(t, w, w.admin, cr.Id, c.Id, "limit=2&page="+url.QueryEscape(p1.Next.Page))
		if got := append(ccReplyIDs(p1), ccReplyIDs(p2)...); !reflect.DeepEqual(got, []string{r1.Id, r2.Id, r3.Id}) || p2.Next != nil {
			t.Fatalf("paged %v next %v", got, p2.Next)
		}
		doc := ccReplies(t, w, w.admin, cr.Id, c.Id, "format=document").Items[0]
		if doc.Body.Markdown != nil || doc.Body.Document == nil || len(doc.Body.Document.Nodes) != 1 {
			t.Fatalf("document body %+v", doc.Body)
		}
		var got gen.CommentReply
		w.Expect(t, http.StatusOK, w.reader, "GET", base+"/"+r1.Id, nil).Decode(t, &got)
		if got.Id != r1.Id || ccMarkdown(t, got.Body) != "First *reply*." || got.PostedBy.Id != w.commenter.ID {
			t.Fatalf("got %+v", got)
		}
		got = gen.CommentReply{}
		w.Expect(t, http.StatusOK, w.reader, "GET", base+"/"+r1.Id+"?format=document", nil).Decode(t, &got)
		if got.Body.Markdown != nil || !reflect.DeepEqual(got.Body.Document, doc.Body.Document) {
			t.Fatalf("got document %+v", got.Body)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", base+"/no-such-reply", nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", base+"/"+r1.Id, nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", base, nil)
		// A reply is only found under its own comment.
		other := ccText(t, w, w.admin, cr.Id, "Other thread.")
		w.Expect(t, http.StatusNotFound, w.admin, "GET", ccPath(sp.Id, cr.Id, "/"+other.Id+"/replies/"+r1.Id), nil)
		if l := ccReplies(t, w, w.admin, cr.Id, other.Id, ""); l.Count != 0 || len(l.Items) != 0 {
			t.Fatalf("other thread's replies %v", ccReplyIDs(l))
		}
	})

	t.Run("UpdateBodyAndReactions", func(t *testing.T) {
		path := base + "/" + r1.Id
		w.Expect(t, http.StatusForbidden, w.admin, "PUT", path, map[string]any{"body": ccMD("Hijacked.")}).ErrorMessage(t)
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", path, map[string]any{"addedReactions": []string{"👍"}})
		w.Clock.Advance(1e9)
		var got gen.CommentReply
		w.Expect(t, http.StatusOK, w.commenter, "PUT", path, map[string]any{"body": ccMD("First, edited.")}).Decode(t, &got)
		if ccMarkdown(t, got.Body) != "First, edited." || got.EditedAt == nil || !got.EditedAt.After(r1.PostedAt) {
			t.Fatalf("edited %+v", got)
		}
		w.Expect(t, http.StatusOK, w.editor, "PUT", path, map[string]any{"addedReactions": []string{"👀"}}).Decode(t, &got)
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"addedReactions": []string{"👀", "✅"}}).Decode(t, &got)
		if len(got.Reactions) != 2 || got.Reactions[0].Emoji != "👀" || got.Reactions[0].Count != 2 {
			t.Fatalf("reactions %+v", got.Reactions)
		}
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{"addedReactions": []string{"yes"}})
		crWantMessage(t, r, "emoji")
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"removedReactions": []string{"✅"}}).Decode(t, &got)
		var re gen.CommentReply
		w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Decode(t, &re)
		if ccMarkdown(t, re.Body) != "First, edited." || len(re.Reactions) != 1 || re.Reactions[0].Count != 2 || !reflect.DeepEqual(re.Reactions, got.Reactions) {
			t.Fatalf("re-read %+v", re)
		}
		// Reactions on a reply are not the comment's.
		if cm := ccGet(t, w, w.admin, cr.Id, c.Id); len(cm.Reactions) != 0 {
			t.Fatalf("comment reactions %+v", cm.Reactions)
		}
		// The replier's updatedAt follows the edit (later than the commenter's r3), and the
		// commenter comes first again.
		cm := ccGet(t, w, w.admin, cr.Id, c.Id)
		if len(cm.Repliers) != 2 || cm.Repliers[0].User.Id != w.commenter.ID || !cm.Repliers[0].UpdatedAt.Equal(*re.EditedAt) || cm.Repliers[0].Count != 2 {
			t.Fatalf("repliers after edit %+v (edited %v)", cm.Repliers, re.EditedAt)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "PUT", base+"/no-such-reply", map[string]any{"addedReactions": []string{"👍"}})
	})

	t.Run("ResolvedOnAReplyResolvesTheThread", func(t *testing.T) {
		path := base + "/" + r2.Id
		ccWantCounter(t, w, cr.Id, 2) // c and "Other thread."
		var got gen.CommentReply
		// Anyone with the comment role may resolve through any reply, not only its author.
		w.Expect(t, http.StatusOK, w.commenter, "PUT", path, map[string]any{"resolved": true}).Decode(t, &got)
		if got.Id != r2.Id || got.EditedAt != nil || ccMarkdown(t, got.Body) != "Second." {
			t.Fatalf("reply after resolve %+v", got)
		}
		cm := ccGet(t, w, w.admin, cr.Id, c.Id)
		if cm.Status != gen.CommentStatusResolved || cm.ResolvedAt == nil || cm.ResolvedBy == nil || cm.ResolvedBy.Id != w.commenter.ID {
			t.Fatalf("thread after reply resolve %+v", cm)
		}
		ccWantCounter(t, w, cr.Id, 1)
		ccWantIDs(t, "resolved", ccList(t, w, w.admin, cr.Id, "status=resolved"), 1, c.Id)
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", path, map[string]any{"resolved": false})
		w.Expect(t, http.StatusOK, w.editor, "PUT", path, map[string]any{"resolved": false})
		if cm := ccGet(t, w, w.admin, cr.Id, c.Id); cm.Status != gen.CommentStatusOpen || cm.ResolvedAt != nil || cm.ResolvedBy != nil {
			t.Fatalf("thread after reply reopen %+v", cm)
		}
		ccWantCounter(t, w, cr.Id, 2)
		// The space family has no resolved on a reply.
		spc := map[string]any{}
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": ccMD("space")}).Decode(t, &spc)
		var sr gen.CommentReply
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments/"+spc["id"].(string)+"/replies", map[string]any{"body": ccMD("r")}).Decode(t, &sr)
		w.Expect(t, http.StatusBadRequest, w.admin, "PUT", "/spaces/"+sp.Id+"/comments/"+spc["id"].(string)+"/replies/"+sr.Id, map[string]any{"resolved": true})
	})

	t.Run("Delete", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.editor, "DELETE", base+"/"+r1.Id, nil).ErrorMessage(t)
		w.Expect(t, http.StatusForbidden, w.reader, "DELETE", base+"/"+r1.Id, nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", base+"/"+r1.Id, nil)
		if cm := ccGet(t, w, w.admin, cr.Id, c.Id); cm.Replies != 3 {
			t.Fatalf("refused deletes: replies %d", cm.Replies)
		}
		// The author deletes r1: the commenter still has r3.
		w.Expect(t, http.StatusNoContent, w.commenter, "DELETE", base+"/"+r1.Id, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", base+"/"+r1.Id, nil)
		cm := ccGet(t, w, w.admin, cr.Id, c.Id)
		if cm.Replies != 2 || len(cm.Repliers) != 2 {
			t.Fatalf("after deleting r1: replies %d repliers %+v", cm.Replies, cm.Repliers)
		}
		for _, rp := range cm.Repliers {
			if rp.Count != 1 {
				t.Fatalf("repliers %+v", cm.Repliers)
			}
		}
		// An admin deletes another's reply (r3): the commenter is no longer a replier.
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", base+"/"+r3.Id, nil)
		cm = ccGet(t, w, w.admin, cr.Id, c.Id)
		if cm.Replies != 1 || len(cm.Repliers) != 1 || cm.Repliers[0].User.Id != w.admin.ID || cm.Repliers[0].Count != 1 {
			t.Fatalf("after deleting r3: replies %d repliers %+v", cm.Replies, cm.Repliers)
		}
		if l := ccReplies(t, w, w.admin, cr.Id, c.Id, ""); !reflect.DeepEqual(ccReplyIDs(l), []string{r2.Id}) || l.Count != 1 {
			t.Fatalf("replies %v count %d", ccReplyIDs(l), l.Count)
		}
		// Again and unknown: 204; under an unknown comment: 204 too.
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", base+"/"+r3.Id, nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", base+"/no-such-reply", nil)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", ccPath(sp.Id, cr.Id, "/no-such-comment/replies/"+r2.Id), nil)
		if cm := ccGet(t, w, w.admin, cr.Id, c.Id); cm.Replies != 1 {
			t.Fatalf("replies %d", cm.Replies)
		}
		// A reply deleted through another comment's path stays.
		other := ccText(t, w, w.admin, cr.Id, "Yet another.")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", ccPath(sp.Id, cr.Id, "/"+other.Id+"/replies/"+r2.Id), nil)
		w.Expect(t, http.StatusOK, w.admin, "GET", base+"/"+r2.Id, nil)
		// The last reply goes.
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", base+"/"+r2.Id, nil)
		if cm := ccGet(t, w, w.admin, cr.Id, c.Id); cm.Replies != 0 || len(cm.Repliers) != 0 {
			t.Fatalf("replies %d repliers %+v", cm.Replies, cm.Repliers)
		}
	})
}

func TestCommentCRCounters(t *testing.T) {
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	cr2 := w.create(t, w.admin, sp.Id, "Second change request")
	ccWantCounter(t, w, cr.Id, 0)
	ccWantCounter(t, w, cr2.Id, 0)
	ccWantSpaceCounter(t, w, 0)

	a := ccText(t, w, w.commenter, cr.Id, "A")
	ccWantCounter(t, w, cr.Id, 1)
	b := ccPost(t, w, w.editor, cr.Id, map[string]any{"body": ccMD("B"), "page": w.draft})
	ccWantCounter(t, w, cr.Id, 2)
	ccWantCounter(t, w, cr2.Id, 0)
	ccWantSpaceCounter(t, w, 0)

	// Resolve through the comment: one open left.
	ccPut(t, w, w.admin, cr.Id, a.Id, map[string]any{"resolved": true})
	ccWantCounter(t, w, cr.Id, 1)
	// Resolving again, a reaction and a body edit don't move it.
	ccPut(t, w, w.admin, cr.Id, a.Id, map[string]any{"resolved": true})
	ccPut(t, w, w.commenter, cr.Id, a.Id, map[string]any{"body": ccMD("A edited"), "addedReactions": []string{"👍"}})
	ccWantCounter(t, w, cr.Id, 1)
	// Reopen through a reply with resolved false.
	r := ccReply(t, w, w.editor, cr.Id, a.Id, "Not done yet.")
	ccWantCounter(t, w, cr.Id, 1)
	w.Expect(t, http.StatusOK, w.editor, "PUT", ccPath(sp.Id, cr.Id, "/"+a.Id+"/replies/"+r.Id), map[string]any{"resolved": false})
	ccWantCounter(t, w, cr.Id, 2)
	// Resolve through a reply, then reopen through the comment.
	w.Expect(t, http.StatusOK, w.editor, "PUT", ccPath(sp.Id, cr.Id, "/"+a.Id+"/replies/"+r.Id), map[string]any{"resolved": true})
	ccWantCounter(t, w, cr.Id, 1)
	ccPut(t, w, w.editor, cr.Id, a.Id, map[string]any{"resolved": false})
	ccWantCounter(t, w, cr.Id, 2)
	// Deleting a reply leaves it.
	w.Expect(t, http.StatusNoContent, w.editor, "DELETE", ccPath(sp.Id, cr.Id, "/"+a.Id+"/replies/"+r.Id), nil)
	ccWantCounter(t, w, cr.Id, 2)
	// The second change request counts on its own.
	x := ccText(t, w, w.admin, cr2.Id, "X")
	ccText(t, w, w.admin, ccNum(cr2), "Y")
	ccWantCounter(t, w, cr2.Id, 2)
	ccWantCounter(t, w, cr.Id, 2)
	ccPut(t, w, w.admin, cr2.Id, x.Id, map[string]any{"resolved": true})
	ccWantCounter(t, w, cr2.Id, 1)
	ccWantCounter(t, w, cr.Id, 2)
	// Comments on the space count on the space only.
	var sc gen.Comment
	w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": ccMD("On the space")}).Decode(t, &sc)
	ccWantSpaceCounter(t, w, 1)
	ccWantCounter(t, w, cr.Id, 2)
	ccWantCounter(t, w, cr2.Id, 1)
	// Delete.
	w.Expect(t, http.StatusNoContent, w.editor, "DELETE", ccPath(sp.Id, cr.Id, "/"+b.Id), nil)
	ccWantCounter(t, w, cr.Id, 1)
	w.Expect(t, http.StatusNoContent, w.commenter, "DELETE", ccPath(sp.Id, cr.Id, "/"+a.Id), nil)
	ccWantCounter(t, w, cr.Id, 0)
	ccWantCounter(t, w, cr2.Id, 1)
	ccWantSpaceCounter(t, w, 1)
	// The counter read through the list of change requests agrees.
	l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests")
	for _, c := range l.Items {
		want := map[string]int{cr.Id: 0, cr2.Id: 1}[c.Id]
		if c.Comments != want {
			t.Fatalf("listed change request %s: comments %d, want %d", c.Id, c.Comments, want)
		}
	}
}

func TestCommentCRIsolation(t *testing.T) {
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	cr2 := w.create(t, w.admin, sp.Id, "Second")
	c1 := ccText(t, w, w.editor, cr.Id, "On change request 1.")
	r1 := ccReply(t, w, w.admin, cr.Id, c1.Id, "Reply on 1.")
	c2 := ccText(t, w, w.editor, cr2.Id, "On change request 2.")
	var sc gen.Comment
	w.Expect(t, http.StatusOK, w.editor, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": ccMD("On the space.")}).Decode(t, &sc)
	if sc.Target.ChangeRequest != nil {
		t.Fatalf("space comment targets change request %s", *sc.Target.ChangeRequest)
	}
	space := "/spaces/" + sp.Id + "/comments/"

	t.Run("ChangeRequest1ThroughOthers", func(t *testing.T) {
		for _, path := range []string{ccPath(sp.Id, cr2.Id, "/"+c1.Id), space + c1.Id} {
			w.Expect(t, http.StatusNotFound, w.admin, "GET", path, nil)
			w.Expect(t, http.StatusNotFound, w.admin, "PUT", path, map[string]any{"resolved": true})
			w.Expect(t, http.StatusNotFound, w.admin, "GET", path+"/replies", nil)
			w.Expect(t, http.StatusNotFound, w.admin, "POST", path+"/replies", map[string]any{"body": ccMD("x")})
			w.Expect(t, http.StatusNotFound, w.admin, "GET", path+"/replies/"+r1.Id, nil)
			w.Expect(t, http.StatusNotFound, w.admin, "PUT", path+"/replies/"+r1.Id, map[string]any{"addedReactions": []string{"👍"}})
			w.Expect(t, http.StatusNoContent, w.admin, "DELETE", path+"/replies/"+r1.Id, nil)
			w.Expect(t, http.StatusNoContent, w.admin, "DELETE", path, nil)
		}
		got := ccGet(t, w, w.admin, cr.Id, c1.Id)
		if got.Status != gen.CommentStatusOpen || got.Replies != 1 || len(got.Reactions) != 0 {
			t.Fatalf("change request 1's comment was touched through other paths: %+v", got)
		}
		w.Expect(t, http.StatusOK, w.admin, "GET", ccPath(sp.Id, cr.Id, "/"+c1.Id+"/replies/"+r1.Id), nil)
		ccWantCounter(t, w, cr.Id, 1)
	})

	t.Run("SpaceCommentThroughChangeRequest", func(t *testing.T) {
		for _, crID := range []string{cr.Id, cr2.Id, ccNum(cr), ccNum(cr2)} {
			path := ccPath(sp.Id, crID, "/"+sc.Id)
			w.Expect(t, http.StatusNotFound, w.admin, "GET", path, nil)
			w.Expect(t, http.StatusNotFound, w.admin, "PUT", path, map[string]any{"resolved": true})
			w.Expect(t, http.StatusNotFound, w.admin, "GET", path+"/replies", nil)
			w.Expect(t, http.StatusNotFound, w.admin, "POST", path+"/replies", map[string]any{"body": ccMD("x")})
			w.Expect(t, http.StatusNoContent, w.admin, "DELETE", path, nil)
		}
		w.Expect(t, http.StatusOK, w.admin, "GET", space+sc.Id, nil)
		ccWantSpaceCounter(t, w, 1)
	})

	t.Run("Lists", func(t *testing.T) {
		ccWantIDs(t, "change request 1", ccList(t, w, w.admin, cr.Id, ""), 1, c1.Id)
		ccWantIDs(t, "change request 2", ccList(t, w, w.admin, cr2.Id, ""), 1, c2.Id)
		var l gen.CommentList
		w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/comments", nil).Decode(t, &l)
		ccWantIDs(t, "space", l, 1, sc.Id)
	})

	t.Run("AnotherSpacesChangeRequestWithTheSameNumber", func(t *testing.T) {
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
		ocr := w.create(t, w.admin, other.Id, "Elsewhere")
		for ocr.Number < cr.Number {
			ocr = w.create(t, w.admin, other.Id, "Elsewhere")
		}
		if ocr.Number != cr.Number {
			t.Fatalf("number %d, want %d", ocr.Number, cr.Number)
		}
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+other.Id+"/change-requests/"+ccNum(cr)+"/comments/"+c1.Id, nil)
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+other.Id+"/change-requests/"+cr.Id+"/comments/"+c1.Id, nil)
		if l := ccList(t, w, w.admin, cr.Id, ""); l.Count != 1 {
			t.Fatalf("count %d", l.Count)
		}
	})
}

func TestCommentCRCommenters(t *testing.T) {
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	cr2 := w.create(t, w.admin, sp.Id, "Second")
	path := crPath(sp.Id, cr.Id, "/commenters")

	if l := ccCommenters(t, w, cr.Id, ""); l.Count != 0 || len(l.Items) != 0 || l.Next != nil {
		t.Fatalf("no commenters yet: %+v", l)
	}
	// The admin comments on the space and on the other change request only: not a commenter here.
	w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": ccMD("On the space.")})
	ccText(t, w, w.admin, cr2.Id, "On the other change request.")
	c := ccText(t, w, w.editor, cr.Id, "Editor's.")
	ccText(t, w, w.editor, cr.Id, "Editor's again.")
	r := ccReply(t, w, w.commenter, cr.Id, c.Id, "Commenter's reply.")

	want := ccSorted(w.editor.ID, w.commenter.ID)
	l := ccCommenters(t, w, cr.Id, "")
	if got := ccUserIDs(l); !reflect.DeepEqual(got, want) || l.Count != 2 || l.Next != nil {
		t.Fatalf("commenters %v count %d, want %v", got, l.Count, want)
	}
	for _, m := range l.Items {
		if m.Object != "member" || m.Id != m.User.Id {
			t.Fatalf("member %+v", m)
		}
		if m.User.Id == w.commenter.ID && (!m.Role.IsSpecified() || m.Role.MustGet() != gen.MemberRoleOrGuestComment) {
			t.Fatalf("commenter's role %+v", m.Role)
		}
	}
	if got := ccUserIDs(ccCommenters(t, w, cr2.Id, "")); !reflect.DeepEqual(got, []string{w.admin.ID}) {
		t.Fatalf("second change request's commenters %v", got)
	}
	// By number; the reader may list; the outsider may not.
	if got := ccUserIDs(ccCommenters(t, w, ccNum(cr), "")); !reflect.DeepEqual(got, want) {
		t.Fatalf("by number %v", got)
	}
	w.Expect(t, http.StatusOK, w.reader, "GET", path, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", path, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", crPath(sp.Id, "no-such-cr", "/commenters"), nil)

	// The admin replies here: three, paged by one.
	ccReply(t, w, w.admin, cr.Id, c.Id, "Admin's reply.")
	want = ccSorted(w.editor.ID, w.commenter.ID, w.admin.ID)
	var got []string
	query := "limit=1"
	for i := 0; ; i++ {
		p := ccCommenters(t, w, cr.Id, query)
		if p.Count != 3 || len(p.Items) != 1 {
			t.Fatalf("page %d: count %d items %d", i, p.Count, len(p.Items))
		}
		got = append(got, p.Items[0].User.Id)
		if p.Next == nil {
			break
		}
		if i > 3 {
			t.Fatal("paging does not end")
		}
		query = "limit=1&page=" + url.QueryEscape(p.Next.Page)
	}
	if sort.Strings(got); !reflect.DeepEqual(got, want) {
		t.Fatalf("paged commenters %v, want %v", got, want)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", path+"?page=garbage", nil)

	// Commenters go with what they posted.
	w.Expect(t, http.StatusNoContent, w.commenter, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id+"/replies/"+r.Id), nil)
	if got := ccUserIDs(ccCommenters(t, w, cr.Id, "")); !reflect.DeepEqual(got, ccSorted(w.editor.ID, w.admin.ID)) {
		t.Fatalf("after the commenter's reply went: %v", got)
	}
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil) // with the admin's reply
	if got := ccUserIDs(ccCommenters(t, w, cr.Id, "")); !reflect.DeepEqual(got, []string{w.editor.ID}) {
		t.Fatalf("after the thread went: %v", got)
	}
}

func TestCommentCRMerged(t *testing.T) {
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	before := ccText(t, w, w.commenter, cr.Id, "Before the merge.")
	res := w.merge(t, w.admin, sp.Id, cr.Id)
	if res.Result != gen.MergeResultMerge {
		t.Fatalf("merge %+v", res)
	}
	merged := w.get(t, sp.Id, cr.Id)
	if merged.Status != gen.ChangeRequestStatusMerged || merged.Comments != 1 {
		t.Fatalf("merged %s comments %d", merged.Status, merged.Comments)
	}
	// What the implementation does: a merged change request still takes comments, against its
	// own (last) revision, with its counter kept.
	c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": ccMD("After the merge."), "page": w.draft})
	if c.Target.ChangeRequest == nil || *c.Target.ChangeRequest != cr.Id || c.Target.Revision != merged.Revision {
		t.Fatalf("target %+v; change request revision %s", c.Target, merged.Revision)
	}
	ccWantCounter(t, w, cr.Id, 2)
	ccReply(t, w, w.editor, cr.Id, before.Id, "Reply after the merge.")
	ccPut(t, w, w.editor, cr.Id, before.Id, map[string]any{"resolved": true})
	ccWantCounter(t, w, cr.Id, 1)
	ccWantIDs(t, "merged", ccList(t, w, w.admin, cr.Id, ""), 2, c.Id, before.Id)
	// The merge moved no comments to the space.
	ccWantSpaceCounter(t, w, 0)
	var l gen.CommentList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id+"/comments", nil).Decode(t, &l)
	ccWantIDs(t, "space after merge", l, 0)
	// The reader still can't post there.
	w.Expect(t, http.StatusForbidden, w.reader, "POST", ccPath(sp.Id, cr.Id), map[string]any{"body": ccMD("x")})

	// The seeding change request (number 1) was merged too, and takes comments by number.
	seeded := w.get(t, sp.Id, "1")
	if seeded.Status != gen.ChangeRequestStatusMerged {
		t.Fatalf("change request 1 is %s", seeded.Status)
	}
	ccPost(t, w, w.editor, "1", map[string]any{"body": ccMD("On the seed."), "page": w.intro})
	ccWantCounter(t, w, seeded.Id, 1)

	// So does an archived one.
	arch := w.create(t, w.admin, sp.Id, "To archive")
	if a := w.patch(t, sp.Id, arch.Id, map[string]any{"status": "archived"}); a.Status != gen.ChangeRequestStatusArchived {
		t.Fatalf("archived %s", a.Status)
	}
	ccText(t, w, w.commenter, arch.Id, "On an archived change request.")
	ccWantCounter(t, w, arch.Id, 1)
}
