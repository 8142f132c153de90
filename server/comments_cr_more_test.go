package server_test

import (
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestCommentCRCounters(t *testing.T) {
	t.Parallel()
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	cr2 := w.create(t, w.admin, sp.Id, "Second change request")
	ccWantCounter(t, w, cr.Id, 0)
	ccWantCounter(t, w, cr2.Id, 0)
	ccWantSpaceCounter(t, w, 0)

	a := ccText(t, w, w.commenter, cr.Id, "A")
	ccWantCounter(t, w, cr.Id, 1)
	b := ccPost(t, w, w.editor, cr.Id, map[string]any{"body": markdownDoc("B"), "page": w.draft})
	ccWantCounter(t, w, cr.Id, 2)
	ccWantCounter(t, w, cr2.Id, 0)
	ccWantSpaceCounter(t, w, 0)

	// Resolve through the comment: one open left.
	ccPut(t, w, w.admin, cr.Id, a.Id, map[string]any{"resolved": true})
	ccWantCounter(t, w, cr.Id, 1)
	// Resolving again, a reaction and a body edit don't move it.
	ccPut(t, w, w.admin, cr.Id, a.Id, map[string]any{"resolved": true})
	ccPut(t, w, w.commenter, cr.Id, a.Id, map[string]any{"body": markdownDoc("A edited"), "addedReactions": []string{"👍"}})
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
	sendJSON[gen.Comment](t, w.testServer, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": markdownDoc("On the space")})
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
	t.Parallel()
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	cr2 := w.create(t, w.admin, sp.Id, "Second")
	c1 := ccText(t, w, w.editor, cr.Id, "On change request 1.")
	r1 := ccReply(t, w, w.admin, cr.Id, c1.Id, "Reply on 1.")
	c2 := ccText(t, w, w.editor, cr2.Id, "On change request 2.")
	sc := sendJSON[gen.Comment](t, w.testServer, http.StatusOK, w.editor, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": markdownDoc("On the space.")})
	if sc.Target.ChangeRequest != nil {
		t.Fatalf("space comment targets change request %s", *sc.Target.ChangeRequest)
	}
	space := "/spaces/" + sp.Id + "/comments/"

	t.Run("ChangeRequest1ThroughOthers", func(t *testing.T) {
		for _, path := range []string{ccPath(sp.Id, cr2.Id, "/"+c1.Id), space + c1.Id} {
			w.Expect(t, http.StatusNotFound, w.admin, "GET", path, nil)
			w.Expect(t, http.StatusNotFound, w.admin, "PUT", path, map[string]any{"resolved": true})
			w.Expect(t, http.StatusNotFound, w.admin, "GET", path+"/replies", nil)
			w.Expect(t, http.StatusNotFound, w.admin, "POST", path+"/replies", map[string]any{"body": markdownDoc("x")})
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
			w.Expect(t, http.StatusNotFound, w.admin, "POST", path+"/replies", map[string]any{"body": markdownDoc("x")})
			w.Expect(t, http.StatusNoContent, w.admin, "DELETE", path, nil)
		}
		w.Expect(t, http.StatusOK, w.admin, "GET", space+sc.Id, nil)
		ccWantSpaceCounter(t, w, 1)
	})

	t.Run("Lists", func(t *testing.T) {
		wantList(t, "change request 1", ccList(t, w, w.admin, cr.Id, ""), 1, c1.Id)
		wantList(t, "change request 2", ccList(t, w, w.admin, cr2.Id, ""), 1, c2.Id)
		l := getJSON[gen.CommentList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/comments")
		wantList(t, "space", l, 1, sc.Id)
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
	t.Parallel()
	w := ccNewWorld(t)
	sp, cr := w.sp, w.cr
	cr2 := w.create(t, w.admin, sp.Id, "Second")
	path := crPath(sp.Id, cr.Id, "/commenters")

	if l := ccCommenters(t, w, cr.Id, ""); l.Count != 0 || len(l.Items) != 0 || l.Next != nil {
		t.Fatalf("no commenters yet: %+v", l)
	}
	// The admin comments on the space and on the other change request only: not a commenter here.
	w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/comments", map[string]any{"body": markdownDoc("On the space.")})
	ccText(t, w, w.admin, cr2.Id, "On the other change request.")
	c := ccText(t, w, w.editor, cr.Id, "Editor's.")
	ccText(t, w, w.editor, cr.Id, "Editor's again.")
	r := ccReply(t, w, w.commenter, cr.Id, c.Id, "Commenter's reply.")

	want := sorted(w.editor.ID, w.commenter.ID)
	l := ccCommenters(t, w, cr.Id, "")
	if got := sorted(idsOf(l.Items)...); !reflect.DeepEqual(got, want) || l.Count != 2 || l.Next != nil {
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
	if got := sorted(idsOf(ccCommenters(t, w, cr2.Id, "").Items)...); !reflect.DeepEqual(got, []string{w.admin.ID}) {
		t.Fatalf("second change request's commenters %v", got)
	}
	// By number; the reader may list; the outsider may not.
	if got := sorted(idsOf(ccCommenters(t, w, ccNum(cr), "").Items)...); !reflect.DeepEqual(got, want) {
		t.Fatalf("by number %v", got)
	}
	w.Expect(t, http.StatusOK, w.reader, "GET", path, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", path, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", crPath(sp.Id, "no-such-cr", "/commenters"), nil)

	// The admin replies here: three, paged by one.
	ccReply(t, w, w.admin, cr.Id, c.Id, "Admin's reply.")
	want = sorted(w.editor.ID, w.commenter.ID, w.admin.ID)
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
	if got := sorted(idsOf(ccCommenters(t, w, cr.Id, "").Items)...); !reflect.DeepEqual(got, sorted(w.editor.ID, w.admin.ID)) {
		t.Fatalf("after the commenter's reply went: %v", got)
	}
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", ccPath(sp.Id, cr.Id, "/"+c.Id), nil) // with the admin's reply
	if got := sorted(idsOf(ccCommenters(t, w, cr.Id, "").Items)...); !reflect.DeepEqual(got, []string{w.editor.ID}) {
		t.Fatalf("after the thread went: %v", got)
	}
}

func TestCommentCRMerged(t *testing.T) {
	t.Parallel()
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
	c := ccPost(t, w, w.commenter, cr.Id, map[string]any{"body": markdownDoc("After the merge."), "page": w.draft})
	if c.Target.ChangeRequest == nil || *c.Target.ChangeRequest != cr.Id || c.Target.Revision != merged.Revision {
		t.Fatalf("target %+v; change request revision %s", c.Target, merged.Revision)
	}
	ccWantCounter(t, w, cr.Id, 2)
	ccReply(t, w, w.editor, cr.Id, before.Id, "Reply after the merge.")
	ccPut(t, w, w.editor, cr.Id, before.Id, map[string]any{"resolved": true})
	ccWantCounter(t, w, cr.Id, 1)
	wantList(t, "merged", ccList(t, w, w.admin, cr.Id, ""), 2, c.Id, before.Id)
	// The merge moved no comments to the space.
	ccWantSpaceCounter(t, w, 0)
	l := getJSON[gen.CommentList](t, w.testServer, w.admin, "/spaces/"+sp.Id+"/comments")
	wantList(t, "space after merge", l, 0)
	// The reader still can't post there.
	w.Expect(t, http.StatusForbidden, w.reader, "POST", ccPath(sp.Id, cr.Id), map[string]any{"body": markdownDoc("x")})

	// The seeding change request (number 1) was merged too, and takes comments by number.
	seeded := w.get(t, sp.Id, "1")
	if seeded.Status != gen.ChangeRequestStatusMerged {
		t.Fatalf("change request 1 is %s", seeded.Status)
	}
	ccPost(t, w, w.editor, "1", map[string]any{"body": markdownDoc("On the seed."), "page": w.intro})
	ccWantCounter(t, w, seeded.Id, 1)

	// So does an archived one.
	arch := w.create(t, w.admin, sp.Id, "To archive")
	if a := w.patch(t, sp.Id, arch.Id, map[string]any{"status": "archived"}); a.Status != gen.ChangeRequestStatusArchived {
		t.Fatalf("archived %s", a.Status)
	}
	ccText(t, w, w.commenter, arch.Id, "On an archived change request.")
	ccWantCounter(t, w, arch.Id, 1)
}
