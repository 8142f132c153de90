package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// appLogin signs in through the form and answers the session cookie header.
func (w *webWorld) appLogin(t *testing.T, u *testUser) string {
	t.Helper()
	formCookie, csrf := w.loginForm(t)
	res := w.postForm(t, "/app/login", formCookie, url.Values{"email": {u.Email}, "token": {u.Token}, "next": {"/app"}, "csrf": {csrf}})
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/app" {
		t.Fatalf("sign-in: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	for _, c := range res.Cookies() {
		if c.Name == "quire_session" && c.HttpOnly && c.SameSite == http.SameSiteLaxMode {
			return "quire_session=" + c.Value
		}
	}
	t.Fatal("no HttpOnly SameSite session cookie")
	return ""
}

func TestWebAppViews(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	if r := w.expect(t, http.StatusSeeOther, "/app"); !strings.HasPrefix(r.Header.Get("Location"), "/app/login") {
		t.Fatalf("no session: redirected to %q", r.Header.Get("Location"))
	}
	wantIn(t, "login form", w.expect(t, http.StatusOK, "/app/login").Body, `<label for="token">API token</label>`)

	// A wrong token, or a token of another user, signs in no one.
	formCookie, csrf := w.loginForm(t)
	res := w.postForm(t, "/app/login", formCookie, url.Values{"email": {w.admin.Email}, "token": {w.reader.Token}, "csrf": {csrf}})
	if res.StatusCode != http.StatusUnauthorized || cookieOf(webResponse{Header: res.Header}, "quire_session") != "" {
		t.Fatalf("someone else's token: %d", res.StatusCode)
	}

	admin := w.appLogin(t, w.admin)
	home := w.expect(t, http.StatusOK, "/app", "Cookie", admin)
	wantIn(t, "home", home.Body, `<a href="/app/o/`+w.org.Id+`">Acme</a>`, "Sign out")
	wantNotIn(t, "home", home.Body, w.admin.Token)
	org := w.expect(t, http.StatusOK, "/app/o/"+w.org.Id, "Cookie", admin)
	wantIn(t, "org", org.Body, `<a href="/app/s/`+w.guide.Id+`">Guide</a>`, `<a href="/app/s/`+w.staff.Id+`">Staff</a>`)
	intro := w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id, "Cookie", admin)
	wantIn(t, "space home", intro.Body, `<a href="/app/s/`+w.guide.Id+`/install/linux#packages">Linux</a>`, `<img src="/files/`,
		`<span class="broken-link" title="Broken link: /pages/missing-page">`)
	space := w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id+"/install/linux", "Cookie", admin)
	wantIn(t, "space page", space.Body, "<h1>Linux</h1>", "Use apt to install the frobnicator", `aria-current="page" class="current">Linux</a>`,
		"Hidden notes", "Employee handbook")

	// A change request: a page edited, one added, one removed; its diff against its base.
	cr := w.create(t, w.admin, w.guide.Id, "Rework install <b>now</b>")
	w.apply(t, w.admin, w.guide.Id, cr.Id,
		editPage(w.pages["install"], "Installing takes two minutes: download, unpack, run.\nThe frobnicator ships separately."),
		insertMarkdown("Upgrading", "Upgrade in place.", "up"),
		deletePage(w.pages["hidden"]))
	list := w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id, "Cookie", admin)
	wantIn(t, "change requests", list.Body, `href="/app/s/`+w.guide.Id+`/change-requests/2"`)
	diff := w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id+"/change-requests/2", "Cookie", admin)
	wantIn(t, "diff", diff.Body, "<h1>Rework install &lt;b&gt;now&lt;/b&gt;</h1>",
		`<span class="kind kind-changed">changed</span> Install`,
		`<span class="ddel">- Installing takes a minute: download, unpack, run. The frobnicator ships separately.</span>`,
		`<span class="dadd">&#43; Installing takes two minutes: download, unpack, run.</span>`,
		`<span class="dadd">&#43; The frobnicator ships separately.</span>`,
		`<span class="kind kind-added">added</span> Upgrading`, `<span class="dadd">&#43; Upgrade in place.</span>`,
		`<span class="kind kind-removed">removed</span> Hidden notes`)
	wantNotIn(t, "diff", diff.Body, "Linux</h3>")
	wantIn(t, "no review", diff.Body, "No review yet.")

	// Its reviewers and reviews: who was asked, by whom, and each review (outdated ones marked).
	reviewer := w.memberWith(t, "review")
	w.askReview(t, w.admin, w.guide.Id, cr.Id, reviewer)
	w.review(t, reviewer, w.guide.Id, cr.Id, "changes-requested", nil)
	w.apply(t, w.admin, w.guide.Id, cr.Id, insertMarkdown("Later", "Later.", "later"))
	w.review(t, reviewer, w.guide.Id, cr.Id, "approved", nil)
	reviewed := w.expect(t, http.StatusOK, "/app/s/"+w.guide.Id+"/change-requests/2", "Cookie", admin)
	wantIn(t, "reviews", reviewed.Body, "Asked to review: <strong>Review</strong> (by Ada)",
		`<li class="review review-changes-requested outdated"><strong>Review</strong> requested changes`,
		`<li class="review review-approved"><strong>Review</strong> approved`)

	// Outside one's organizations: 404, as the API answers.
	otto := w.appLogin(t, w.outsider)
	w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id, "Cookie", otto)
	w.expect(t, http.StatusNotFound, "/app/s/"+w.guide.Id, "Cookie", otto)
	w.expect(t, http.StatusNotFound, "/app/s/"+w.guide.Id+"/change-requests/2", "Cookie", otto)

	// A tampered session is no session; signing out ends it.
	w.expect(t, http.StatusSeeOther, "/app", "Cookie", admin+"x")
	res = w.postForm(t, "/app/logout", admin, url.Values{"csrf": {w.logoutToken(t, admin)}})
	cleared := false
	for _, c := range res.Cookies() {
		cleared = cleared || (c.Name == "quire_session" && c.MaxAge < 0)
	}
	if res.StatusCode != http.StatusSeeOther || !cleared {
		t.Fatalf("sign-out: %d, cookie cleared %v", res.StatusCode, cleared)
	}
	w.expect(t, http.StatusSeeOther, "/app", "Cookie", admin)
}
