package server_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

// joinToken is the join form's token on an invitation page (the sign-out form's comes first).
func joinToken(t *testing.T, body string) string {
	t.Helper()
	m := csrfField.FindAllStringSubmatch(body, -1)
	if len(m) < 2 {
		t.Fatalf("no join form on the invitation page:\n%.2000s", body)
	}
	return m[len(m)-1][1]
}

// An invite link opened by someone not signed in: they sign in, come back to the invitation,
// join with its button and land in the organization; the join is in the audit log as theirs,
// made in the app. A forged post, a used-up invitation and another address's one join no one.
func TestWebAppAcceptsInvitations(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	var link gen.InviteLink
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/link-invites", map[string]any{"role": "comment"}).Decode(t, &link)
	page := "/app/o/" + w.org.Id + "/invites/" + link.Id

	r := w.expect(t, http.StatusSeeOther, page)
	if loc := r.Header.Get("Location"); loc != "/app/login?next="+url.QueryEscape(page) {
		t.Fatalf("not signed in: sent to %q", loc)
	}
	formCookie, csrf := w.loginForm(t)
	res := w.postForm(t, "/app/login", formCookie, url.Values{"email": {w.outsider.Email}, "token": {w.outsider.Token}, "next": {page}, "csrf": {csrf}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != page {
		t.Fatalf("sign-in: %d to %q, want back to the invitation", res.StatusCode, res.Header.Get("Location"))
	}
	var session string
	for _, c := range res.Cookies() {
		if c.Name == "quire_session" {
			session = "quire_session=" + c.Value
		}
	}
	inv := w.expect(t, http.StatusOK, page, "Cookie", session)
	wantIn(t, "invitation", inv.Body, "You are invited to join Acme as a member with the comment role.", `<button type="submit">Join as`)

	// Without the form's token: nothing happens.
	if res := w.postForm(t, page, session, url.Values{"csrf": {"forged"}}); res.StatusCode != http.StatusForbidden {
		t.Fatalf("forged join: %d", res.StatusCode)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/members/"+w.outsider.ID, nil)

	res = w.postForm(t, page, session, url.Values{"csrf": {joinToken(t, inv.Body)}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/app/o/"+w.org.Id {
		t.Fatalf("join: %d to %q: %.500s", res.StatusCode, res.Header.Get("Location"), bodyOf(res))
	}
	if m := getJSON[gen.Member](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/members/"+w.outsider.ID); apiRoleOf(m.Role) != "comment" {
		t.Fatalf("joined with role %v", apiRoleOf(m.Role))
	}
	joinAction, _ := server.AuditActionOf("joinOrganizationWithInvite")
	var log gen.AuditEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events?action="+joinAction, nil).Decode(t, &log)
	if log.Count != 1 || log.Items[0].Actor.Id != w.outsider.ID || log.Items[0].Source != "ui" || log.Items[0].Target.Id != link.Id {
		t.Fatalf("the join's audit event: %+v", log)
	}

	// An emailed invitation is for its address only: another signed-in user is told why.
	res2 := sendJSON[gen.InviteUsersResult](t, w.testServer, http.StatusOK, w.admin, "POST", invitePath(w.org.Id),
		map[string]any{"emails": []any{"someone.else@example.test"}})
	emailed := "/app/o/" + w.org.Id + "/invites/" + (*res2.Invitations)[0].Id
	reader := w.appLogin(t, w.reader)
	inv = w.expect(t, http.StatusOK, emailed, "Cookie", reader)
	wantIn(t, "emailed invitation", inv.Body, "someone.else@example.test")
	res = w.postForm(t, emailed, reader, url.Values{"csrf": {joinToken(t, inv.Body)}})
	if res.StatusCode != http.StatusConflict || !strings.Contains(bodyOf(res), "another email address") {
		t.Fatalf("joining another address's invitation: %d", res.StatusCode)
	}
	w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id+"/invites/noSuchInvite", "Cookie", reader)
}

// The audit log in the app: admins only, newest first, escaped, paged.
func TestWebAppAuditLog(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	for i := 0; i < 55; i++ {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, map[string]any{"title": "Acme <b>" + string(rune('a'+i%26)) + "</b>"})
	}
	admin := w.appLogin(t, w.admin)
	org := w.expect(t, http.StatusOK, "/app/o/"+w.org.Id, "Cookie", admin)
	wantIn(t, "org page", org.Body, `<a href="/app/o/`+w.org.Id+`/audit">Audit log</a>`)
	first := w.expect(t, http.StatusOK, "/app/o/"+w.org.Id+"/audit", "Cookie", admin)
	wantIn(t, "audit page", first.Body, "<code>organization.settings.updated</code>", "Ada", `rel="next"`, "Acme &lt;b&gt;")
	wantNotIn(t, "audit page", first.Body, "<b>c</b>")
	if n := strings.Count(first.Body, "<tr><td>"); n != 50 {
		t.Fatalf("first page: %d rows, want 50", n)
	}
	next := regexpNext.FindStringSubmatch(first.Body)
	if next == nil {
		t.Fatal("no link to older events")
	}
	older := w.expect(t, http.StatusOK, strings.ReplaceAll(next[1], "&amp;", "&"), "Cookie", admin)
	if n := strings.Count(older.Body, "<tr><td>"); n == 0 || strings.Contains(older.Body, `rel="next"`) {
		t.Fatalf("older page: %d rows", n)
	}
	w.expect(t, http.StatusBadRequest, "/app/o/"+w.org.Id+"/audit?page=nonsense", "Cookie", admin)

	editor := w.appLogin(t, w.editor)
	w.expect(t, http.StatusForbidden, "/app/o/"+w.org.Id+"/audit", "Cookie", editor)
	wantNotIn(t, "editor's org page", w.expect(t, http.StatusOK, "/app/o/"+w.org.Id, "Cookie", editor).Body, "Audit log")
	outsider := w.appLogin(t, w.outsider)
	w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id+"/audit", "Cookie", outsider)
}

var regexpNext = regexp.MustCompile(`<a rel="next" href="([^"]+)">`)
