package server_test

import (
	"net/http"
	"testing"

	"github.com/quire-docs/quire/gen"
)

func TestWebAppCommentsRevisionsCollectionsSites(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	admin := w.appLogin(t, w.admin)
	otto := w.appLogin(t, w.outsider)
	guide := "/spaces/" + w.guide.Id

	t.Run("CommentThreadsOnPagesAndChangeRequests", func(t *testing.T) {
		var cm gen.Comment
		w.Expect(t, http.StatusOK, w.admin, "POST", guide+"/comments", map[string]any{
			"body": map[string]any{"markdown": "Is this **right**? <script>alert(1)</script>"}, "page": w.pages["install"]}).Decode(t, &cm)
		w.Expect(t, http.StatusOK, w.commenter, "POST", guide+"/comments/"+cm.Id+"/replies", map[string]any{"body": map[string]any{"markdown": "Yes, *checked*."}})
		w.Expect(t, http.StatusOK, w.admin, "POST", guide+"/comments", map[string]any{"body": map[string]any{"markdown": "About Linux."}, "page": w.pages["linux"]})
		r := w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id+"/install", "Cookie", admin)
		wantIn(t, "install", r.Body, `<h2 id="comments-title">Comments</h2>`, "Is this <strong>right</strong>?", "Yes, <em>checked</em>.",
			`<p class="meta"><strong>`)
		wantNotIn(t, "install", r.Body, "<script", "About Linux.")

		cr := w.create(t, w.admin, w.guide.Id, "Typos")
		w.Expect(t, http.StatusOK, w.admin, "POST", guide+"/change-requests/"+cr.Id+"/comments", map[string]any{"body": map[string]any{"markdown": "Please review <b>soon</b>."}})
		d := w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id+"/change-requests/"+itoa(cr.Number), "Cookie", admin)
		wantIn(t, "change request", d.Body, "Please review <b>soon</b>.")
		wantNotIn(t, "change request", d.Body, "Is this <strong>right</strong>?")
	})

	t.Run("ARevision", func(t *testing.T) {
		var sp gen.Space
		w.Expect(t, http.StatusOK, w.admin, "GET", guide, nil).Decode(t, &sp)
		old := sp.Revision
		w.seed(t, w.guide.Id, "Later", "Written after the revision.")
		base := "/app/s/" + w.guide.Id + "/revisions/" + old
		r := w.expect(t, http.StatusOK, base, "Cookie", admin)
		wantIn(t, "revision", r.Body, "Guide · revision "+old+" · ", `<a href="`+base+`/install">Install</a>`)
		wantNotIn(t, "revision", r.Body, ">Later</a>")
		wantIn(t, "revision page", w.expect(t, http.StatusOK, base+"/install", "Cookie", admin).Body,
			"<h1>Install</h1>", "Installing takes a minute")
		wantIn(t, "space now", w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id, "Cookie", admin).Body, ">Later</a>")
		w.expect(t, http.StatusNotFound, base+"/nowhere", "Cookie", admin)
		w.expect(t, http.StatusNotFound, "/app/s/"+w.guide.Id+"/revisions/nope", "Cookie", admin)
		w.expect(t, http.StatusNotFound, base, "Cookie", otto)
	})

	t.Run("ACollection", func(t *testing.T) {
		var col gen.Collection
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/collections", map[string]any{"title": "Handbooks <i>all</i>"}).Decode(t, &col)
		inside := w.MustCreateSpace(t, w.admin, w.org.Id, "Onboarding", col.Id)
		org := w.expect(t, http.StatusOK, "/app/o/"+w.org.Id, "Cookie", admin)
		wantIn(t, "org", org.Body, `<a href="/app/o/`+w.org.Id+`/c/`+col.Id+`">Handbooks &lt;i&gt;all&lt;/i&gt;</a>`)
		r := w.expect(t, http.StatusOK, "/app/o/"+w.org.Id+"/c/"+col.Id, "Cookie", admin)
		wantIn(t, "collection", r.Body, "<h1>Handbooks &lt;i&gt;all&lt;/i&gt;</h1>", `<a href="/app/s/`+inside.Id+`">Onboarding</a>`)
		wantNotIn(t, "collection", r.Body, ">Guide</a>")
		w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id+"/c/"+col.Id, "Cookie", otto)
		w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id+"/c/nope", "Cookie", admin)
	})

	t.Run("ASite", func(t *testing.T) {
		r := w.expect(t, http.StatusOK, "/app/o/"+w.org.Id+"/sites/"+w.site.Id, "Cookie", admin)
		wantIn(t, "site", r.Body, "<h1>Acme Docs</h1>", "public · published", `>Read the published site</a>`,
			`<a href="/app/s/`+w.guide.Id+`">Guide</a> <span class="where">in Guide</span>`, `<a href="/app/s/`+w.staff.Id+`">Staff</a>`)
		w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id+"/sites/"+w.site.Id, "Cookie", otto)
		w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id+"/sites/nope", "Cookie", admin)
	})
}
