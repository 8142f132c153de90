package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestCommentCRUpdate(t *testing.T) {
	t.Parallel()
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("Original."), "page": w.draft})
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
			r := w.Expect(t, http.StatusForbidden, u, "PUT", path, map[string]any{"body": markdownDoc("Hijacked.")})
			wantMessage(t, r, "author")
		}
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); ccMarkdown(t, re.Body) != "Original." || re.EditedAt != nil {
			t.Fatalf("refused edit changed %+v", re)
		}
		w.Clock.Advance(1e9)
		got := ccPut(t, w, w.commenter, cr.Id, c.Id, map[string]any{"body": markdownDoc("Edited.")})
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
		w.Expect(t, http.StatusBadRequest, w.commenter, "PUT", path, map[string]any{"body": markdownDoc("")})
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
		if !reflect.DeepEqual(sorted(users...), sorted(w.editor.ID, w.admin.ID)) || thumbs.Users[0].ReactedAt.IsZero() {
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
			wantMessage(t, r, "emoji")
		}
		w.Expect(t, http.StatusBadRequest, w.editor, "PUT", path, map[string]any{"removedReactions": []string{"nope"}})
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", path, map[string]any{"addedReactions": []string{"👍"}})
		if re := ccGet(t, w, w.admin, cr.Id, c.Id); len(re.Reactions) != 1 || re.Reactions[0].Count != 1 {
			t.Fatalf("refused reactions applied: %+v", re.Reactions)
		}
		// A refused body edit applies none of the rest of the update.
		w.Expect(t, http.StatusForbidden, w.editor, "PUT", path, map[string]any{"body": markdownDoc("x"), "resolved": true, "addedReactions": []string{"🚀"}})
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
	t.Parallel()
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
		wantList(t, "after delete", ccList(t, w, w.admin, cr.Id, ""), 0)
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
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath(sp.Id, cr.Id, "/"+c.Id+"/replies"), map[string]any{"body": markdownDoc("late")})
		wantList(t, "after admin delete", ccList(t, w, w.admin, cr.Id, ""), 1, keep.Id)
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
	t.Parallel()
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	c := ccPost(t, w, w.editor, cr.Id, map[string]any{"body": markdownDoc("Thread."), "page": w.draft})
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
		w.Expect(t, http.StatusForbidden, w.reader, "POST", base, map[string]any{"body": markdownDoc("no")}).ErrorMessage(t)
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", base, map[string]any{"body": markdownDoc("no")})
		w.Expect(t, http.StatusNotFound, w.admin, "POST", ccPath(sp.Id, cr.Id, "/no-such-comment/replies"), map[string]any{"body": markdownDoc("no")})
		w.Expect(t, http.StatusBadRequest, w.admin, "POST", base, map[string]any{"body": markdownDoc("")})
		if got := ccGet(t, w, w.admin, cr.Id, c.Id); got.Replies != 3 {
			t.Fatalf("refused replies counted: %d", got.Replies)
		}
	})

	t.Run("ListAndGet", func(t *testing.T) {
		l := ccReplies(t, w, w.reader, cr.Id, c.Id, "")
		if got := idsOf(l.Items); !reflect.DeepEqual(got, []string{r1.Id, r2.Id, r3.Id}) || l.Count != 3 || l.Next != nil {
			t.Fatalf("replies %v count %d", got, l.Count)
		}
		for _, r := range l.Items {
			if p := r.Permissions; !p.View || p.Edit || p.Reply || p.Delete {
				t.Fatalf("reader's permissions %+v", p)
			}
		}
		p1 := ccReplies(t, w, w.admin, cr.Id, c.Id, "limit=2")
		if p1.Count != 3 || len(p1.Items) != 2 || p1.Next == nil {
			t.Fatalf("page 1 %v count %d", idsOf(p1.Items), p1.Count)
		}
		p2 := ccReplies(t, w, w.admin, cr.Id, c.Id, "limit=2&page="+url.QueryEscape(p1.Next.Page))
		if got := append(idsOf(p1.Items), idsOf(p2.Items)...); !reflect.DeepEqual(got, []string{r1.Id, r2.Id, r3.Id}) || p2.Next != nil {
			t.Fatalf("paged %v next %v", got, p2.Next)
		}
		doc := ccReplies(t, w, w.admin, cr.Id, c.Id, "format=document").Items[0]
		if doc.Body.Markdown != nil || doc.Body.Document == nil || len(doc.Body.Document.Nodes) != 1 {
			t.Fatalf("document body %+v", doc.Body)
		}
		got := getJSON[gen.CommentReply](t, w.testServer, w.reader, base+"/"+r1.Id)
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
			t.Fatalf("other thread's replies %v", idsOf(l.Items))
		}
	})

	t.Run("UpdateBodyAndReactions", func(t *testing.T) {
		path := base + "/" + r1.Id
		w.Expect(t, http.StatusForbidden, w.admin, "PUT", path, map[string]any{"body": markdownDoc("Hijacked.")}).ErrorMessage(t)
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", path, map[string]any{"addedReactions": []string{"👍"}})
		w.Clock.Advance(1e9)
		got := sendJSON[gen.CommentReply](t, w.testServer, http.StatusOK, w.commenter, "PUT", path, map[string]any{"body": markdownDoc("First, edited.")})
		if ccMarkdown(t, got.Body) != "First, edited." || got.EditedAt == nil || !got.EditedAt.After(r1.PostedAt) {
			t.Fatalf("edited %+v", got)
		}
		w.Expect(t, http.StatusOK, w.editor, "PUT", path, map[string]any{"addedReactions": []string{"👀"}}).Decode(t, &got)
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"addedReactions": []string{"👀", "✅"}}).Decode(t, &got)
		if len(got.Reactions) != 2 || got.Reactions[0].Emoji != "👀" || got.Reactions[0].Count != 2 {
			t.Fatalf("reactions %+v", got.Reactions)
		}
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{"addedReactions": []string{"yes"}})
		wantMessage(t, r, "emoji")
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"removedReactions": []string{"✅"}}).Decode(t, &got)
		re := getJSON[gen.CommentReply](t, w.testServer, w.admin, path)
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
		wantList(t, "resolved", ccList(t, w, w.admin, cr.Id, "status=resolved"), 1, c.Id)
		w.Expect(t, http.StatusForbidden, w.reader, "PUT", path, map[string]any{"resolved": false})
		w.Expect(t, http.StatusOK, w.editor, "PUT", path, map[string]any{"resolved": false})
		if cm := ccGet(t, w, w.admin, cr.Id, c.Id); cm.Status != gen.CommentStatusOpen || cm.ResolvedAt != nil || cm.ResolvedBy != nil {
			t.Fatalf("thread after reply reopen %+v", cm)
		}
		ccWantCounter(t, w, cr.Id, 2)
		// The space family has no resolved on a reply.
		spc := map[string]any{}
		w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": markdownDoc("space")}).Decode(t, &spc)
		sr := sendJSON[gen.CommentReply](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments/"+spc["id"].(string)+"/replies", map[string]any{"body": markdownDoc("r")})
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
		if l := ccReplies(t, w, w.admin, cr.Id, c.Id, ""); !reflect.DeepEqual(idsOf(l.Items), []string{r2.Id}) || l.Count != 1 {
			t.Fatalf("replies %v count %d", idsOf(l.Items), l.Count)
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
