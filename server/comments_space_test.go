package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

// csWorld is the world with a space holding two pages, Intro and Guide.
type csWorld struct {
	*world
	sp    string
	pages map[string]string
}

func csNewWorld(t *testing.T) *csWorld {
	t.Helper()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")
	pages := w.seed(t, sp.Id, "Intro", "# Welcome\n\nHello world.\n", "Guide", "Step one.\n\n- a\n- b\n")
	return &csWorld{world: w, sp: sp.Id, pages: pages}
}

// csPath is a path under the space's comments.
func (w *csWorld) csPath(suffix ...string) string {
	return "/spaces/" + w.sp + "/comments" + strings.Join(suffix, "")
}

// csComment sends a comment request as u, which must answer 200 with a comment.
func (w *csWorld) csComment(t *testing.T, u *testUser, method, path string, body any) (c gen.Comment) {
	t.Helper()
	w.Expect(t, http.StatusOK, u, method, path, body).Decode(t, &c)
	return c
}

func (w *csWorld) csPost(t *testing.T, u *testUser, body map[string]any) gen.Comment {
	t.Helper()
	return w.csComment(t, u, "POST", w.csPath(), body)
}

func (w *csWorld) csGet(t *testing.T, u *testUser, id string) gen.Comment {
	t.Helper()
	return w.csComment(t, u, "GET", w.csPath("/", id), nil)
}

func (w *csWorld) csPut(t *testing.T, u *testUser, id string, body map[string]any) gen.Comment {
	t.Helper()
	return w.csComment(t, u, "PUT", w.csPath("/", id), body)
}

func (w *csWorld) csList(t *testing.T, u *testUser, query string) gen.CommentList {
	t.Helper()
	return getJSON[gen.CommentList](t, w.testServer, u, w.csPath("?", query))
}

func (w *csWorld) csReply(t *testing.T, u *testUser, commentID, markdown string) gen.CommentReply {
	t.Helper()
	return sendJSON[gen.CommentReply](t, w.testServer, http.StatusOK, u, "POST", w.csPath("/", commentID, "/replies"), commentBody(markdown))
}

func csWantCounter(t *testing.T, w *csWorld, want int) {
	t.Helper()
	if got := w.space(t, w.sp).Comments; got != want {
		t.Fatalf("space comments counter %d, want %d", got, want)
	}
}

// csReactions sums up reactions as emoji -> sorted user ids, checking count against users.
func csReactions(t *testing.T, rs []gen.EmojiReaction) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range rs {
		if r.Count != len(r.Users) {
			t.Fatalf("reaction %s: count %d with %d users", r.Emoji, r.Count, len(r.Users))
		}
		for _, u := range r.Users {
			if u.ReactedAt.IsZero() {
				t.Fatalf("reaction %s of %s without reactedAt", r.Emoji, u.User.Id)
			}
			out[r.Emoji] = append(out[r.Emoji], u.User.Id)
		}
		sort.Strings(out[r.Emoji])
	}
	return out
}

func TestCommentSpacePost(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	rev := w.mainRevision(t, w.sp).Id
	intro := w.pages["Intro"]
	pg := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+w.sp+"/content/page/"+intro)
	if pg.Document == nil || len(pg.Document.Nodes) == 0 || pg.Document.Nodes[0].Key == "" {
		t.Fatalf("page document %+v", pg.Document)
	}
	node := pg.Document.Nodes[0].Key

	t.Run("Access", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "POST", w.csPath(), commentBody("hi"))
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", w.csPath(), commentBody("hi"))
		w.Expect(t, http.StatusUnauthorized, nil, "POST", w.csPath(), commentBody("hi"))
		w.Expect(t, http.StatusNotFound, w.editor, "POST", "/spaces/nope/comments", commentBody("hi"))
		wantList(t, "after refusals", w.csList(t, w.admin, ""), 0)
	})
	t.Run("Targets", func(t *testing.T) {
		c := w.csPost(t, w.editor, commentBody("On the content"))
		if c.Object != "comment" || c.Target.Space != w.sp || c.Target.Revision != rev || c.Target.Page != nil ||
			c.Target.Node != nil || c.Target.TableCell != nil || c.Target.ChangeRequest != nil {
			t.Fatalf("content comment target %+v", c.Target)
		}
		if c.PostedBy.Id != w.editor.ID || c.Body.Markdown == nil || *c.Body.Markdown != "On the content" ||
			c.Status != "open" || c.Replies != 0 || len(c.Repliers) != 0 || len(c.Reactions) != 0 ||
			c.EditedAt != nil || c.ResolvedAt != nil || c.ResolvedBy != nil || !strings.HasSuffix(c.Urls.Location, w.csPath("/", c.Id)) {
			t.Fatalf("posted comment %+v", c)
		}
		c = w.csPost(t, w.editor, map[string]any{"page": intro, "body": map[string]any{"markdown": "On a page"}})
		if c.Target.Page == nil || c.Target.Page.Id != intro || c.Target.Node != nil || c.Target.Revision != rev {
			t.Fatalf("page comment target %+v", c.Target)
		}
		c = w.csPost(t, w.editor, map[string]any{"page": intro, "node": node, "body": map[string]any{"markdown": "On a node"}})
		if c.Target.Page == nil || c.Target.Page.Id != intro || c.Target.Node == nil || c.Target.Node.Id != node {
			t.Fatalf("node comment target %+v", c.Target)
		}
		cell := map[string]any{"record": "r1", "definition": "d1"}
		c = w.csPost(t, w.editor, map[string]any{"tableCell": cell, "body": map[string]any{"markdown": "On a cell"}})
		if c.Target.TableCell == nil || c.Target.TableCell.Record != "r1" || c.Target.TableCell.Definition != "d1" {
			t.Fatalf("cell comment target %+v", c.Target)
		}
		if got := w.csGet(t, w.reader, c.Id); !reflect.DeepEqual(got.Target, c.Target) {
			t.Fatalf("read back target %+v, posted %+v", got.Target, c.Target)
		}
	})
	t.Run("BadTargets", func(t *testing.T) {
		md := map[string]any{"markdown": "x"}
		r := w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath(), map[string]any{"page": "nope", "body": md})
		wantMessage(t, r, "page")
		r = w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath(), map[string]any{"page": intro, "node": "nope", "body": md})
		wantMessage(t, r, "node")
		r = w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath(), map[string]any{"node": node, "body": md})
		wantMessage(t, r, "node")
		// Any block of the page will do, nested ones too.
		guide := getJSON[gen.RevisionPage](t, w.testServer, w.admin, "/spaces/"+w.sp+"/content/page/"+w.pages["Guide"])
		list := guide.Document.Nodes[len(guide.Document.Nodes)-1]
		if len(list.Nodes) == 0 || list.Nodes[0].Key == "" {
			t.Fatalf("guide list %+v", list)
		}
		item := list.Nodes[0].Key
		c := w.csPost(t, w.editor, map[string]any{"page": w.pages["Guide"], "node": item, "body": md})
		if c.Target.Node == nil || c.Target.Node.Id != item {
			t.Fatalf("nested node target %+v", c.Target)
		}
	})
	t.Run("BodyLength", func(t *testing.T) {
		w.csPost(t, w.editor, commentBody(strings.Repeat("a", 65536)))
		r := w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath(), commentBody(strings.Repeat("a", 65537)))
		wantMessage(t, r, "markdown")
		w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath(), commentBody(""))
		w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath(), map[string]any{})
	})
	t.Run("CurrentRevision", func(t *testing.T) {
		// A page deleted from the space's content can no longer be commented on; comments
		// posted before keep the revision they were posted against.
		before := w.csPost(t, w.editor, map[string]any{"page": w.pages["Guide"], "body": map[string]any{"markdown": "x"}})
		cr := w.create(t, w.admin, w.sp, "Drop Guide")
		w.apply(t, w.admin, w.sp, cr.Id, deletePage(w.pages["Guide"]))
		w.merge(t, w.admin, w.sp, cr.Id)
		now := w.mainRevision(t, w.sp).Id
		r := w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath(), map[string]any{"page": w.pages["Guide"], "body": map[string]any{"markdown": "x"}})
		wantMessage(t, r, "page")
		if c := w.csPost(t, w.editor, commentBody("after")); c.Target.Revision != now || now == rev {
			t.Fatalf("posted against %s, current revision %s (was %s)", c.Target.Revision, now, rev)
		}
		if c := w.csGet(t, w.editor, before.Id); c.Target.Revision != rev || c.Target.Page.Id != w.pages["Guide"] {
			t.Fatalf("earlier comment target %+v", c.Target)
		}
	})
}

func TestCommentSpaceList(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	intro, guide := w.pages["Intro"], w.pages["Guide"]
	var ids []string // oldest first
	for i, p := range []struct {
		u    *testUser
		page string
	}{{w.editor, intro}, {w.admin, guide}, {w.editor, ""}, {w.admin, intro}} {
		w.Clock.Advance(time.Second)
		body := commentBody("**Comment** " + string(rune('A'+i)))
		if p.page != "" {
			body["page"] = p.page
		}
		ids = append(ids, w.csPost(t, p.u, body).Id)
	}
	w.csPut(t, w.admin, ids[1], map[string]any{"resolved": true})

	wantList(t, "default", w.csList(t, w.reader, ""), 4, ids[3], ids[2], ids[1], ids[0])
	wantList(t, "desc", w.csList(t, w.reader, "order=desc"), 4, ids[3], ids[2], ids[1], ids[0])
	wantList(t, "asc", w.csList(t, w.reader, "order=asc"), 4, ids...)
	wantList(t, "open", w.csList(t, w.reader, "status=open"), 3, ids[3], ids[2], ids[0])
	wantList(t, "resolved", w.csList(t, w.reader, "status=resolved"), 1, ids[1])
	wantList(t, "all", w.csList(t, w.reader, "status=all&order=asc"), 4, ids...)
	wantList(t, "page", w.csList(t, w.reader, "targetPage="+intro), 2, ids[3], ids[0])
	wantList(t, "page open asc", w.csList(t, w.reader, "targetPage="+guide+"&status=open"), 0)
	wantList(t, "author", w.csList(t, w.reader, "authors="+w.editor.ID), 2, ids[2], ids[0])
	wantList(t, "authors", w.csList(t, w.reader, "authors="+w.editor.ID+"&authors="+w.admin.ID+"&order=asc"), 4, ids...)
	wantList(t, "nobody", w.csList(t, w.reader, "authors="+w.reader.ID), 0)
	w.Expect(t, http.StatusBadRequest, w.reader, "GET", w.csPath("?status=closed"), nil)
	w.Expect(t, http.StatusBadRequest, w.reader, "GET", w.csPath("?order=up"), nil)

	t.Run("Paging", func(t *testing.T) {
		for _, order := range []string{"asc", "desc"} {
			var got []string
			q := "limit=3&order=" + order
			for pages := 0; ; pages++ {
				l := w.csList(t, w.reader, q)
				if l.Count != 4 || pages > 2 {
					t.Fatalf("%s page %d: count %d", order, pages, l.Count)
				}
				got = append(got, idsOf(l.Items)...)
				if l.Next == nil {
					break
				}
				q = "limit=3&order=" + order + "&page=" + url.QueryEscape(l.Next.Page)
			}
			want := append([]string(nil), ids...)
			if order == "desc" {
				want = []string{ids[3], ids[2], ids[1], ids[0]}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s paged %v, want %v", order, got, want)
			}
		}
		w.Expect(t, http.StatusBadRequest, w.reader, "GET", w.csPath("?page=garbage"), nil)
	})
	t.Run("Format", func(t *testing.T) {
		check := func(what string, c gen.Comment) {
			t.Helper()
			d := c.Body.Document
			if c.Body.Markdown != nil || d == nil || d.Object != "document" || len(d.Nodes) == 0 || contentText(d.Nodes[0]) != "Comment A" {
				t.Fatalf("%s: body %+v", what, c.Body)
			}
		}
		l := w.csList(t, w.reader, "format=document&order=asc")
		check("list", l.Items[0])
		check("get", w.csComment(t, w.reader, "GET", w.csPath("/", ids[0], "?format=document"), nil))
		c := w.csComment(t, w.reader, "GET", w.csPath("/", ids[0], "?format=markdown"), nil)
		if c.Body.Markdown == nil || *c.Body.Markdown != "**Comment** A" || c.Body.Document != nil {
			t.Fatalf("markdown body %+v", c.Body)
		}
	})
	t.Run("Access", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", w.csPath(), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", w.csPath(), nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", w.csPath("/nope"), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", w.csPath("/", ids[0]), nil)
		// A comment of another space is not found through this one.
		other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
		w.Expect(t, http.StatusNotFound, w.admin, "GET", "/spaces/"+other.Id+"/comments/"+ids[0], nil)
	})
}

func TestCommentSpaceUpdate(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	c := w.csPost(t, w.editor, commentBody("first"))

	t.Run("Resolve", func(t *testing.T) {
		got := w.csPut(t, w.admin, c.Id, map[string]any{"resolved": true})
		if got.Status != "resolved" || got.ResolvedAt == nil || got.ResolvedBy == nil || got.ResolvedBy.Id != w.admin.ID {
			t.Fatalf("resolved %+v", got)
		}
		if g := w.csGet(t, w.reader, c.Id); g.Status != "resolved" || g.ResolvedBy == nil || g.ResolvedBy.Id != w.admin.ID {
			t.Fatalf("read back resolved %+v", g)
		}
		got = w.csPut(t, w.editor, c.Id, map[string]any{"resolved": false})
		if got.Status != "open" || got.ResolvedAt != nil || got.ResolvedBy != nil {
			t.Fatalf("reopened %+v", got)
		}
		got = w.csPut(t, w.editor, c.Id, map[string]any{"resolved": true})
		if got.ResolvedBy == nil || got.ResolvedBy.Id != w.editor.ID {
			t.Fatalf("resolved again by %+v", got.ResolvedBy)
		}
		w.csPut(t, w.editor, c.Id, map[string]any{"resolved": false})
	})
	t.Run("Body", func(t *testing.T) {
		w.Clock.Advance(time.Minute)
		got := w.csPut(t, w.editor, c.Id, commentBody("second"))
		if got.Body.Markdown == nil || *got.Body.Markdown != "second" || got.EditedAt == nil || !got.EditedAt.After(got.PostedAt) {
			t.Fatalf("edited %+v", got)
		}
		w.Expect(t, http.StatusForbidden, w.admin, "PUT", w.csPath("/", c.Id), commentBody("admin's"))
		w.Expect(t, http.StatusBadRequest, w.editor, "PUT", w.csPath("/", c.Id), commentBody(strings.Repeat("b", 65537)))
		if g := w.csGet(t, w.admin, c.Id); *g.Body.Markdown != "second" {
			t.Fatalf("body after refusals %q", *g.Body.Markdown)
		}
		// Resolving does not count as an edit.
		d := w.csPost(t, w.admin, commentBody("other"))
		if g := w.csPut(t, w.editor, d.Id, map[string]any{"resolved": true}); g.EditedAt != nil {
			t.Fatalf("resolving set editedAt %v", g.EditedAt)
		}
	})
	t.Run("Access", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", w.csPath("/", c.Id), map[string]any{"resolved": true})
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", w.csPath("/", c.Id), map[string]any{"addedReactions": []string{"👍"}})
		w.Expect(t, http.StatusNotFound, w.outsider, "PUT", w.csPath("/", c.Id), map[string]any{"resolved": true})
		w.Expect(t, http.StatusNotFound, w.editor, "PUT", w.csPath("/nope"), map[string]any{"resolved": true})
		w.Expect(t, http.StatusBadRequest, w.editor, "PUT", w.csPath("/", c.Id), map[string]any{"title": "x"})
	})
	t.Run("Reactions", func(t *testing.T) {
		add := func(u *testUser, emoji ...string) gen.Comment {
			return w.csPut(t, u, c.Id, map[string]any{"addedReactions": emoji})
		}
		add(w.editor, "👍")
		add(w.editor, "👍", "🎉")
		got := add(w.admin, "👍")
		want := map[string][]string{"👍": sorted(w.editor.ID, w.admin.ID), "🎉": {w.editor.ID}}
		if r := csReactions(t, got.Reactions); !reflect.DeepEqual(r, want) {
			t.Fatalf("reactions %v, want %v", r, want)
		}
		got = w.csPut(t, w.editor, c.Id, map[string]any{"removedReactions": []string{"👍", "🚀"}})
		want = map[string][]string{"👍": {w.admin.ID}, "🎉": {w.editor.ID}}
		if r := csReactions(t, got.Reactions); !reflect.DeepEqual(r, want) {
			t.Fatalf("after removal %v, want %v", r, want)
		}
		got = w.csPut(t, w.editor, c.Id, map[string]any{"removedReactions": []string{"🎉"}})
		if r := csReactions(t, got.Reactions); !reflect.DeepEqual(r, map[string][]string{"👍": {w.admin.ID}}) {
			t.Fatalf("after last removal %v", r)
		}
		for _, bad := range []string{"abc", "", "👍abc", "1", "#", "👍👍", "🇫🇷🇩🇪", "a👍"} {
			r := w.Expect(t, http.StatusBadRequest, w.editor, "PUT", w.csPath("/", c.Id), map[string]any{"addedReactions": []string{"👍", bad}})
			wantMessage(t, r, "addedReactions")
		}
		r := w.Expect(t, http.StatusBadRequest, w.editor, "PUT", w.csPath("/", c.Id), map[string]any{"removedReactions": []string{"x"}})
		wantMessage(t, r, "removedReactions")
		good := []string{"👍🏽", "👩‍💻", "🇫🇷", "1️⃣", "#️⃣", "❤️", "👨‍👩‍👧", "🏳️‍🌈", "❤️‍🔥"}
		got = add(w.commenter, good...)
		r2 := csReactions(t, got.Reactions)
		for _, e := range good {
			if len(r2[e]) != 1 {
				t.Fatalf("emoji %q not recorded: %v", e, r2)
			}
		}
	})
}

func TestCommentSpaceCounters(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	csWantCounter(t, w, 0)
	a := w.csPost(t, w.editor, commentBody("a"))
	csWantCounter(t, w, 1)
	b := w.csPost(t, w.admin, map[string]any{"page": w.pages["Intro"], "body": map[string]any{"markdown": "b"}})
	csWantCounter(t, w, 2)
	w.csPut(t, w.admin, a.Id, map[string]any{"resolved": true})
	csWantCounter(t, w, 1)
	w.csPut(t, w.admin, a.Id, map[string]any{"resolved": true}) // already resolved
	csWantCounter(t, w, 1)
	w.csPut(t, w.admin, a.Id, map[string]any{"resolved": false})
	csWantCounter(t, w, 2)
	w.csReply(t, w.editor, b.Id, "a reply does not count")
	csWantCounter(t, w, 2)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.csPath("/", b.Id), nil)
	csWantCounter(t, w, 1)
	// Deleting a resolved comment leaves the open count alone.
	w.csPut(t, w.admin, a.Id, map[string]any{"resolved": true})
	c := w.csPost(t, w.editor, commentBody("c"))
	csWantCounter(t, w, 1)
	w.Expect(t, http.StatusNoContent, w.editor, "DELETE", w.csPath("/", a.Id), nil)
	csWantCounter(t, w, 1)

	// A change request's comments are its own.
	cr := w.create(t, w.editor, w.sp, "Draft")
	crc := w.csComment(t, w.editor, "POST", crPath(w.sp, cr.Id, "/comments"), commentBody("on the change request"))
	if crc.Target.ChangeRequest == nil || *crc.Target.ChangeRequest != cr.Id {
		t.Fatalf("change request comment target %+v", crc.Target)
	}
	csWantCounter(t, w, 1)
	wantList(t, "space list", w.csList(t, w.admin, ""), 1, c.Id)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", w.csPath("/", crc.Id), nil)
	w.Expect(t, http.StatusNotFound, w.admin, "PUT", w.csPath("/", crc.Id), map[string]any{"resolved": true})
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.csPath("/", crc.Id), nil)
	w.Expect(t, http.StatusOK, w.admin, "GET", crPath(w.sp, cr.Id, "/comments/"+crc.Id), nil)
	if got := w.get(t, w.sp, cr.Id).Comments; got != 1 {
		t.Fatalf("change request comments %d, want 1", got)
	}
}

func TestCommentSpacePermissions(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	c := w.csPost(t, w.editor, commentBody("by the editor"))
	r := w.csReply(t, w.editor, c.Id, "reply by the editor")
	other := w.MustCreateUser(t, "ed@editors.test", "Ed")
	w.MustAddMember(t, w.admin, w.org.Id, other, "edit")
	for _, tc := range []struct {
		who  string
		u    *testUser
		want gen.CommentPermissions
	}{
		{"author", w.editor, gen.CommentPermissions{View: true, Edit: true, Reply: true, Delete: true}},
		{"other editor", other, gen.CommentPermissions{View: true, Reply: true}},
		{"commenter", w.commenter, gen.CommentPermissions{View: true, Reply: true}},
		{"admin", w.admin, gen.CommentPermissions{View: true, Reply: true, Delete: true}},
		{"reader", w.reader, gen.CommentPermissions{View: true}},
	} {
		if got := w.csGet(t, tc.u, c.Id).Permissions; got != tc.want {
			t.Errorf("%s: comment permissions %+v, want %+v", tc.who, got, tc.want)
		}
		if l := w.csList(t, tc.u, ""); len(l.Items) != 1 || l.Items[0].Permissions != tc.want {
			t.Errorf("%s: listed comment permissions %+v, want %+v", tc.who, l.Items, tc.want)
		}
		got := getJSON[gen.CommentReply](t, w.testServer, tc.u, w.csPath("/", c.Id, "/replies/", r.Id))
		if got.Permissions != tc.want {
			t.Errorf("%s: reply permissions %+v, want %+v", tc.who, got.Permissions, tc.want)
		}
	}
	// What the permissions say is what the operations allow.
	w.Expect(t, http.StatusForbidden, other, "PUT", w.csPath("/", c.Id), commentBody("x"))
	w.Expect(t, http.StatusForbidden, other, "DELETE", w.csPath("/", c.Id, "/replies/", r.Id), nil)
	w.csReply(t, w.commenter, c.Id, "commenters may reply")
}
