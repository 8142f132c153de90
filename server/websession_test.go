package server_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// noRedirects is a client that answers redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// loginForm opens the sign-in page as a new browser and answers its pre-session cookie header
// and the form's token.
func (w *webWorld) loginForm(t *testing.T) (cookie, csrf string) {
	t.Helper()
	r := w.expect(t, http.StatusOK, "/app/login")
	v := cookieOf(r, "quire_form")
	m := csrfField.FindStringSubmatch(r.Body)
	if v == "" || m == nil {
		t.Fatalf("the sign-in page sets no form cookie (%q) or has no form token", v)
	}
	return "quire_form=" + v, m[1]
}

// logoutToken is the sign-out form's token on an app page of a session.
func (w *webWorld) logoutToken(t *testing.T, session string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(w.expect(t, http.StatusOK, "/app", "Cookie", session).Body)
	if m == nil {
		t.Fatal("no sign-out form token on the app's home")
	}
	return m[1]
}

// postForm posts a form with a Cookie header (may be "") and answers the response, its body read.
func (w *webWorld) postForm(t *testing.T, path, cookie string, form url.Values, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", w.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	res.Body = io.NopCloser(bytes.NewReader(raw))
	return res
}

func bodyOf(res *http.Response) string {
	b, _ := io.ReadAll(res.Body)
	res.Body = io.NopCloser(bytes.NewReader(b))
	return string(b)
}

// A cross-site page can post to the sign-in and sign-out forms, but cannot know their tokens:
// without the right one the post is refused with 403 and nothing changes.
func TestWebAppFormsNeedTheirToken(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	good := url.Values{"email": {w.admin.Email}, "token": {w.admin.Token}, "next": {"/app"}}
	with := func(v url.Values, k, val string) url.Values {
		out := url.Values{}
		for kk, vv := range v {
			out[kk] = vv
		}
		out.Set(k, val)
		return out
	}
	formCookie, csrf := w.loginForm(t)
	otherCookie, otherCSRF := w.loginForm(t)
	if formCookie == otherCookie || csrf == otherCSRF {
		t.Fatal("two browsers got the same form cookie or token")
	}
	for _, tc := range []struct {
		name, cookie string
		form         url.Values
	}{
		{"NoCookieNoToken", "", good},
		{"CookieButNoToken", formCookie, good},
		{"TokenButNoCookie", "", with(good, "csrf", csrf)},
		{"AnotherBrowsersToken", formCookie, with(good, "csrf", otherCSRF)},
		{"ForgedToken", formCookie, with(good, "csrf", strings.Repeat("A", len(csrf)))},
	} {
		t.Run("SignIn"+tc.name, func(t *testing.T) {
			res := w.postForm(t, "/app/login", tc.cookie, tc.form, "Origin", "https://evil.example")
			if res.StatusCode != http.StatusForbidden {
				t.Fatalf("status %d, want 403", res.StatusCode)
			}
			for _, c := range res.Cookies() {
				if c.Name == "quire_session" {
					t.Fatal("a refused sign-in set a session cookie")
				}
			}
			wantIn(t, "refused sign-in", bodyOf(res), "was not sent from this site", `name="csrf"`)
		})
	}
	// The page's own form signs in.
	res := w.postForm(t, "/app/login", formCookie, with(good, "csrf", csrf))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in with the form's token: %d", res.StatusCode)
	}

	admin := w.appLogin(t, w.admin)
	reader := w.appLogin(t, w.reader)
	token := w.logoutToken(t, admin)
	if token == w.logoutToken(t, reader) {
		t.Fatal("two sessions share a sign-out token")
	}
	for _, tc := range []struct {
		name string
		form url.Values
	}{
		{"NoToken", url.Values{}},
		{"AnotherSessionsToken", url.Values{"csrf": {w.logoutToken(t, reader)}}},
		{"TheSignInToken", url.Values{"csrf": {csrf}}},
	} {
		t.Run("SignOut"+tc.name, func(t *testing.T) {
			res := w.postForm(t, "/app/logout", admin, tc.form)
			if res.StatusCode != http.StatusForbidden {
				t.Fatalf("status %d, want 403", res.StatusCode)
			}
			wantIn(t, "refused sign-out", bodyOf(res), "you are still signed in")
			w.expect(t, http.StatusOK, "/app", "Cookie", admin)
		})
	}
	res = w.postForm(t, "/app/logout", admin, url.Values{"csrf": {token}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out with its token: %d", res.StatusCode)
	}
	// The session row is gone: the old cookie, replayed, signs in no one; the other session lives.
	w.expect(t, http.StatusSeeOther, "/app", "Cookie", admin)
	w.expect(t, http.StatusOK, "/app", "Cookie", reader)
}

// A session is a row in the store: the cookie carries only its random id, and revoking the
// token it signed in with, its expiry, or signing out end it at once.
func TestWebAppSessionsEnd(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	ctx := context.Background()
	admin := w.appLogin(t, w.admin)
	id := strings.TrimPrefix(admin, "quire_session=")
	if len(id) != 43 || strings.Contains(id, w.admin.ID) || strings.Contains(id, ".") {
		t.Fatalf("the session cookie %q is not an opaque random id", id)
	}
	sess, err := w.Store.FindSession(ctx, id)
	if err != nil || sess.User.ID != w.admin.ID {
		t.Fatalf("the session's row: %+v (%v)", sess, err)
	}
	if want := w.Clock.Now().Add(12 * time.Hour); sess.ExpiresAt.After(want) || sess.ExpiresAt.Before(want.Add(-time.Minute)) {
		t.Fatalf("the session expires at %s, not 12 h from now", sess.ExpiresAt)
	}

	t.Run("RevokingTheTokenEndsIt", func(t *testing.T) {
		// A second token of the same user, with a session of its own that must outlive the first.
		second, info, err := w.Store.CreateToken(ctx, w.admin.Email, "laptop")
		if err != nil {
			t.Fatal(err)
		}
		laptop := w.appLogin(t, &testUser{ID: w.admin.ID, Email: w.admin.Email, Token: second})
		w.expect(t, http.StatusOK, "/app/o/"+w.org.Id, "Cookie", laptop)
		// What `quire tokens revoke` does.
		if err := w.Store.RevokeToken(ctx, info.ID); err != nil {
			t.Fatal(err)
		}
		r := w.expect(t, http.StatusSeeOther, "/app/o/"+w.org.Id, "Cookie", laptop)
		if !strings.HasPrefix(r.Header.Get("Location"), "/app/login") {
			t.Fatalf("a revoked token's session went to %q", r.Header.Get("Location"))
		}
		if v := cookieOf(r, "quire_session"); v != "" {
			t.Fatalf("the ended session's cookie was not cleared (%q)", v)
		}
		w.expect(t, http.StatusOK, "/app/o/"+w.org.Id, "Cookie", admin)
	})
	t.Run("RolesAreReadPerRequest", func(t *testing.T) {
		rita := w.appLogin(t, w.reader)
		w.expect(t, http.StatusOK, "/app/o/"+w.org.Id, "Cookie", rita)
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/orgs/"+w.org.Id+"/members/"+w.reader.ID, nil)
		w.expect(t, http.StatusNotFound, "/app/o/"+w.org.Id, "Cookie", rita)
		w.expect(t, http.StatusNotFound, "/app/s/"+w.guide.Id, "Cookie", rita)
	})
	t.Run("InstallationTokensDoNotSignIn", func(t *testing.T) {
		// Only a user's token opens a session: an installation's token (which has no email) and an
		// unknown one open nothing.
		inst, _ := (&integrationWorld{world: w.world}).installationToken(t, "appsync", nil, nil, nil)
		for _, tc := range [][2]string{{"", inst.Token}, {w.admin.Email, inst.Token}, {w.admin.Email, "gb_api_nope"}} {
			formCookie, csrf := w.loginForm(t)
			res := w.postForm(t, "/app/login", formCookie, url.Values{"email": {tc[0]}, "token": {tc[1]}, "csrf": {csrf}})
			if res.StatusCode != http.StatusUnauthorized || len(res.Cookies()) > 0 && res.Cookies()[0].Name == "quire_session" {
				t.Fatalf("email %q with token %.12s…: %d", tc[0], tc[1], res.StatusCode)
			}
		}
	})
	t.Run("ExpiryEndsIt", func(t *testing.T) {
		w.Clock.Advance(12*time.Hour + time.Second)
		w.expect(t, http.StatusSeeOther, "/app", "Cookie", admin)
		if _, err := w.Store.FindSession(ctx, id); err == nil {
			t.Fatal("an expired session is still found")
		}
	})
}

// The next= of the sign-in form only ever leads into the app.
func TestWebAppLoginStaysInTheApp(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	for next, want := range map[string]string{
		"/app/o/" + w.org.Id:       "/app/o/" + w.org.Id,
		"https://evil.example/app": "/app",
		"//evil.example/app":       "/app",
		"/\\evil.example":          "/app",
		"/appevil":                 "/app",
		"/s/site":                  "/app",
	} {
		formCookie, csrf := w.loginForm(t)
		res := w.postForm(t, "/app/login", formCookie, url.Values{"email": {w.admin.Email}, "token": {w.admin.Token}, "next": {next}, "csrf": {csrf}})
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
			t.Errorf("next=%q: %d to %q, want %q", next, res.StatusCode, res.Header.Get("Location"), want)
		}
	}
}
