package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// comments: a comment belongs to its scope (another space, or a change request of the same
// space, does not find it), counts its replies, pages them, and takes them when deleted.
func comments(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	sp, other := w.space("Docs"), w.space("Other")
	refs := w.commit(sp.ID, insert("a", "A", "text"))
	rev := w.current(sp.ID)
	scope := store.CommentScope{SpaceID: sp.ID}
	c, err := w.st.PostComment(ctx, scope, store.NewComment{RevisionID: rev.ID, PageID: str(refs["a"]), UserID: w.user, Body: `{"text":"hi"}`})
	if err != nil {
		t.Fatal(err)
	}
	cr, _ := w.edit(sp.ID, update(refs["a"], "edited"))
	for _, elsewhere := range []store.CommentScope{{SpaceID: other.ID}, {SpaceID: sp.ID, ChangeRequestID: &cr}} {
		_, err := w.st.FindComment(ctx, elsewhere, c.ID)
		wantCode(t, err, store.ENOTFOUND)
		_, err = w.st.PostReply(ctx, elsewhere, c.ID, w.user, "lost")
		wantCode(t, err, store.ENOTFOUND)
	}
	var replies []string
	for _, body := range []string{"one", "two", "three"} {
		r, err := w.st.PostReply(ctx, scope, c.ID, w.user, body)
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, r.ID)
	}
	if got, err := w.st.FindComment(ctx, scope, c.ID); err != nil || got.Replies != 3 || got.PostedBy.ID != w.user {
		t.Fatalf("comment after three replies: %+v, %v", got, err)
	}
	first, err := w.st.FindReplies(ctx, scope, c.ID, store.Page{Limit: 2})
	if err != nil || len(first.Items) != 2 || first.Count != 3 || first.Next == "" {
		t.Fatalf("first page of replies: %+v, %v", first, err)
	}
	rest, err := w.st.FindReplies(ctx, scope, c.ID, store.Page{Limit: 2, Cursor: first.Next})
	if err != nil || len(rest.Items) != 1 || rest.Next != "" || rest.Items[0].ID != replies[2] {
		t.Fatalf("second page of replies: %+v, %v", rest, err)
	}
	if err := w.st.DeleteComment(ctx, scope, c.ID); err != nil {
		t.Fatal(err)
	}
	_, err = w.st.FindComment(ctx, scope, c.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.FindReply(ctx, scope, c.ID, replies[0])
	wantCode(t, err, store.ENOTFOUND)
}
