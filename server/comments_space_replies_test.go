package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

func TestCommentSpaceReplies(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	c := w.csPost(t, w.admin, commentBody("thread"))
	var rs []gen.CommentReply
	for i, u := range []*testUser{w.editor, w.commenter, w.editor} {
		w.Clock.Advance(time.Second)
		rs = append(rs, w.csReply(t, u, c.Id, "reply *"+string(rune('1'+i))+"*"))
	}
	r0 := rs[0]
	if r0.Object != "comment-reply" || r0.PostedBy.Id != w.editor.ID || r0.Body.Markdown == nil || *r0.Body.Markdown != "reply *1*" ||
		r0.EditedAt != nil || len(r0.Reactions) != 0 || !strings.HasSuffix(r0.Urls.Location, w.csPath("/", c.Id, "/replies/", r0.Id)) {
		t.Fatalf("reply %+v", r0)
	}
	// repliers: per user, the count and the latest update.
	wantRepliers := func(what string, replies int, want map[string]int, latest map[string]time.Time) {
		t.Helper()
		got := w.csGet(t, w.reader, c.Id)
		counts := map[string]int{}
		for _, r := range got.Repliers {
			counts[r.User.Id] = r.Count
			if at, ok := latest[r.User.Id]; ok && !r.UpdatedAt.Equal(at) {
				t.Fatalf("%s: replier %s updatedAt %v, want %v", what, r.User.Id, r.UpdatedAt, at)
			}
		}
		if got.Replies != replies || !reflect.DeepEqual(counts, want) {
			t.Fatalf("%s: replies %d, repliers %v; want %d, %v", what, got.Replies, counts, replies, want)
		}
	}
	wantRepliers("posted", 3, map[string]int{w.editor.ID: 2, w.commenter.ID: 1},
		map[string]time.Time{w.editor.ID: rs[2].PostedAt, w.commenter.ID: rs[1].PostedAt})

	replies := func(q string) (l gen.CommentReplyList) {
		t.Helper()
		w.Expect(t, http.StatusOK, w.reader, "GET", w.csPath("/", c.Id, "/replies", q), nil).Decode(t, &l)
		return l
	}
	t.Run("List", func(t *testing.T) {
		l := replies("")
		if got := idsOf(l.Items); l.Count != 3 || !reflect.DeepEqual(got, []string{rs[0].Id, rs[1].Id, rs[2].Id}) || l.Next != nil {
			t.Fatalf("replies %v (count %d)", got, l.Count)
		}
		l = replies("?limit=2")
		if l.Next == nil || l.Count != 3 || len(l.Items) != 2 {
			t.Fatalf("first page %+v", l)
		}
		first := idsOf(l.Items)
		l = replies("?limit=2&page=" + url.QueryEscape(l.Next.Page))
		if got := append(first, idsOf(l.Items)...); l.Next != nil || !reflect.DeepEqual(got, []string{rs[0].Id, rs[1].Id, rs[2].Id}) {
			t.Fatalf("paged replies %v", got)
		}
		l = replies("?format=document")
		if b := l.Items[0].Body; b.Markdown != nil || b.Document == nil || b.Document.Object != "document" || contentText(b.Document.Nodes[0]) != "reply 1" {
			t.Fatalf("document body %+v", b)
		}
		r := getJSON[gen.CommentReply](t, w.testServer, w.reader, w.csPath("/", c.Id, "/replies/", rs[1].Id, "?format=document"))
		if r.Body.Document == nil || r.Body.Markdown != nil || r.Id != rs[1].Id || r.PostedBy.Id != w.commenter.ID {
			t.Fatalf("reply as document %+v", r)
		}
		w.Expect(t, http.StatusNotFound, w.reader, "GET", w.csPath("/nope/replies"), nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", w.csPath("/", c.Id, "/replies/nope"), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", w.csPath("/", c.Id, "/replies"), nil)
		other := w.csPost(t, w.admin, commentBody("other thread"))
		w.Expect(t, http.StatusNotFound, w.reader, "GET", w.csPath("/", other.Id, "/replies/", rs[0].Id), nil)
	})
	t.Run("PostAccess", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "POST", w.csPath("/", c.Id, "/replies"), commentBody("no"))
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", w.csPath("/", c.Id, "/replies"), commentBody("no"))
		w.Expect(t, http.StatusUnauthorized, nil, "POST", w.csPath("/", c.Id, "/replies"), commentBody("no"))
		w.Expect(t, http.StatusNotFound, w.editor, "POST", w.csPath("/nope/replies"), commentBody("no"))
		w.Expect(t, http.StatusBadRequest, w.editor, "POST", w.csPath("/", c.Id, "/replies"), commentBody(""))
		wantRepliers("after refusals", 3, map[string]int{w.editor.ID: 2, w.commenter.ID: 1}, nil)
	})
	t.Run("Update", func(t *testing.T) {
		p := w.csPath("/", c.Id, "/replies/", rs[1].Id)
		put := func(u *testUser, body map[string]any) (r gen.CommentReply) {
			t.Helper()
			w.Expect(t, http.StatusOK, u, "PUT", p, body).Decode(t, &r)
			return r
		}
		w.Clock.Advance(time.Minute)
		r := put(w.commenter, commentBody("edited"))
		if r.Body.Markdown == nil || *r.Body.Markdown != "edited" || r.EditedAt == nil || !r.EditedAt.After(r.PostedAt) {
			t.Fatalf("edited reply %+v", r)
		}
		wantRepliers("after edit", 3, map[string]int{w.editor.ID: 2, w.commenter.ID: 1}, map[string]time.Time{w.commenter.ID: *r.EditedAt})
		w.Expect(t, http.StatusForbidden, w.editor, "PUT", p, commentBody("not mine"))
		w.Expect(t, http.StatusForbidden, w.admin, "PUT", p, commentBody("not mine"))
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", p, map[string]any{"addedReactions": []string{"👍"}})
		w.Expect(t, http.StatusBadRequest, w.commenter, "PUT", p, map[string]any{"resolved": true}) // change-request family only
		w.Expect(t, http.StatusNotFound, w.commenter, "PUT", w.csPath("/", c.Id, "/replies/nope"), commentBody("x"))
		put(w.editor, map[string]any{"addedReactions": []string{"👍", "👍"}})
		r = put(w.admin, map[string]any{"addedReactions": []string{"👍", "🎉"}})
		want := map[string][]string{"👍": sorted(w.editor.ID, w.admin.ID), "🎉": {w.admin.ID}}
		if got := csReactions(t, r.Reactions); !reflect.DeepEqual(got, want) {
			t.Fatalf("reply reactions %v, want %v", got, want)
		}
		r = put(w.admin, map[string]any{"removedReactions": []string{"👍"}})
		if got := csReactions(t, r.Reactions); !reflect.DeepEqual(got, map[string][]string{"👍": {w.editor.ID}, "🎉": {w.admin.ID}}) {
			t.Fatalf("reply reactions after removal %v", got)
		}
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PUT", p, map[string]any{"addedReactions": []string{"abc"}}), "addedReactions")
		// Reactions on a reply are not the comment's.
		if got := w.csGet(t, w.admin, c.Id); len(got.Reactions) != 0 {
			t.Fatalf("comment got the reply's reactions %v", got.Reactions)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		p := func(id string) string { return w.csPath("/", c.Id, "/replies/", id) }
		w.Expect(t, http.StatusForbidden, w.commenter, "DELETE", p(rs[0].Id), nil)
		w.Expect(t, http.StatusForbidden, w.reader, "DELETE", p(rs[0].Id), nil)
		w.Expect(t, http.StatusNoContent, w.editor, "DELETE", p(rs[0].Id), nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", p(rs[0].Id), nil)
		wantRepliers("author deleted", 2, map[string]int{w.editor.ID: 1, w.commenter.ID: 1},
			map[string]time.Time{w.editor.ID: rs[2].PostedAt})
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", p(rs[1].Id), nil) // a space admin
		wantRepliers("admin deleted", 1, map[string]int{w.editor.ID: 1}, nil)
		w.Expect(t, http.StatusNoContent, w.editor, "DELETE", p(rs[1].Id), nil) // gone already
		w.Expect(t, http.StatusNoContent, w.editor, "DELETE", p("nope"), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", p(rs[2].Id), nil)
		l := replies("")
		if got := idsOf(l.Items); l.Count != 1 || !reflect.DeepEqual(got, []string{rs[2].Id}) {
			t.Fatalf("replies left %v (count %d)", got, l.Count)
		}
	})
}

func TestCommentSpaceDelete(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	mine := w.csPost(t, w.editor, commentBody("mine"))
	theirs := w.csPost(t, w.commenter, commentBody("theirs"))
	reply := w.csReply(t, w.admin, theirs.Id, "a reply")
	w.csPut(t, w.admin, theirs.Id, map[string]any{"addedReactions": []string{"👍"}})

	w.Expect(t, http.StatusForbidden, w.editor, "DELETE", w.csPath("/", theirs.Id), nil)
	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", w.csPath("/", theirs.Id), nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", w.csPath("/", theirs.Id), nil)
	w.Expect(t, http.StatusUnauthorized, nil, "DELETE", w.csPath("/", theirs.Id), nil)
	w.Expect(t, http.StatusNoContent, w.editor, "DELETE", w.csPath("/", mine.Id), nil)
	w.Expect(t, http.StatusNotFound, w.editor, "GET", w.csPath("/", mine.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.csPath("/", theirs.Id), nil)
	w.Expect(t, http.StatusNotFound, w.editor, "GET", w.csPath("/", theirs.Id), nil)
	w.Expect(t, http.StatusNotFound, w.editor, "GET", w.csPath("/", theirs.Id, "/replies/", reply.Id), nil)
	w.Expect(t, http.StatusNotFound, w.editor, "GET", w.csPath("/", theirs.Id, "/replies"), nil)
	w.Expect(t, http.StatusNoContent, w.editor, "DELETE", w.csPath("/", theirs.Id), nil)
	w.Expect(t, http.StatusNoContent, w.editor, "DELETE", w.csPath("/nope"), nil)
	wantList(t, "after deletes", w.csList(t, w.admin, ""), 0)
}

func TestCommentSpaceCommenters(t *testing.T) {
	t.Parallel()
	w := csNewWorld(t)
	commenters := func(q string) gen.MemberList {
		t.Helper()
		return getJSON[gen.MemberList](t, w.testServer, w.reader, "/spaces/"+w.sp+"/commenters"+q)
	}
	commenterIDs := func(l gen.MemberList) []string {
		out := []string{}
		for _, m := range l.Items {
			if m.Object != "member" || m.Id != m.User.Id {
				t.Fatalf("member %+v", m)
			}
			out = append(out, m.User.Id)
		}
		return out
	}
	if l := commenters(""); l.Count != 0 || len(l.Items) != 0 {
		t.Fatalf("no comments yet: %+v", l)
	}
	c := w.csPost(t, w.editor, commentBody("one"))
	w.csPost(t, w.editor, commentBody("two"))
	w.csReply(t, w.commenter, c.Id, "a reply")
	w.csReply(t, w.editor, c.Id, "another")
	cr := w.create(t, w.admin, w.sp, "Draft")
	w.Expect(t, http.StatusOK, w.admin, "POST", crPath(w.sp, cr.Id, "/comments"), commentBody("only on the change request"))

	want := sorted(w.editor.ID, w.commenter.ID)
	l := commenters("")
	if got := sorted(commenterIDs(l)...); l.Count != 2 || !reflect.DeepEqual(got, want) || l.Next != nil {
		t.Fatalf("commenters %v (count %d), want %v", got, l.Count, want)
	}
	if m := l.Items[0]; m.User.Id == w.editor.ID && (!m.Role.IsSpecified() || m.Role.MustGet() != "edit") {
		t.Fatalf("editor as member %+v", m)
	}
	l = commenters("?limit=1")
	if l.Count != 2 || len(l.Items) != 1 || l.Next == nil {
		t.Fatalf("first page %+v", l)
	}
	first := commenterIDs(l)
	l = commenters("?limit=1&page=" + url.QueryEscape(l.Next.Page))
	if got := sorted(append(first, commenterIDs(l)...)...); l.Next != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("paged commenters %v, want %v", got, want)
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/spaces/"+w.sp+"/commenters", nil)
	w.Expect(t, http.StatusUnauthorized, nil, "GET", "/spaces/"+w.sp+"/commenters", nil)
	// A comment deleted with its replies takes its only-here authors along.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.csPath("/", c.Id), nil)
	if got := commenterIDs(commenters("")); !reflect.DeepEqual(got, []string{w.editor.ID}) {
		t.Fatalf("commenters after delete %v", got)
	}
}
