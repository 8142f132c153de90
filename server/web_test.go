package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
)

func TestWebPublishedSiteRendersPages(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id

	home := w.expect(t, http.StatusOK, base+"/")
	wantIn(t, "home", home.Body,
		`<html lang="en">`, `<title>Introduction | Acme Docs</title>`,
		`<main id="content">`, `<nav class="sidebar" aria-label="Pages">`,
		// the sidebar: listed pages in tree order, the current one marked
		`<a href="`+base+`/" aria-current="page" class="current">Introduction</a>`,
		`<a href="`+base+`/install">Install</a>`, `<a href="`+base+`/install/linux">Linux</a>`,
		// links resolved to published URLs, broken ones marked
		`<a href="`+base+`/install">installing it</a>`, `<a href="`+base+`/install/linux#packages">Linux</a>`,
		`<span class="broken-link" title="Broken link: /pages/missing-page">link goes nowhere</span>`,
		`<img src="`+base+`/~files/`,
		`alt="The Acme logo"`,
		// headings with anchors, the outline, code highlighted as classes, tables
		`<h2 id="quick-start">Quick start<a href="#quick-start" class="anchor"`,
		`<li class="l2"><a href="#options">Options</a></li>`, `<li class="l3"><a href="#details">Details</a></li>`,
		`<span class="kn">package</span>`, `<th align="left">Option</th>`,
		// variants of the section and next page
		`<a href="`+base+`/" aria-current="true" class="current">Guide</a>`, `>Guide v2</a>`,
		`<a class="next" rel="next" href="`+base+`/install"><span>Next</span>Install</a>`)
	// Not shown to an anonymous visitor: hidden pages in navigation, sections and pages whose
	// conditions do not hold; the API page of a section the visitor cannot see is a broken link.
	wantNotIn(t, "home", home.Body, "Hidden notes", "Employee handbook", ">API</a>", ">Staff</a>", "noindex", "<script")
	wantIn(t, "home", home.Body, `<span class="broken-link" title="Broken link: /spaces/`)

	// Headers: CSP without scripts, ETag and Cache-Control, gzip on request.
	if csp := home.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
		t.Errorf("CSP %q", csp)
	}
	etag := home.Header.Get("ETag")
	if etag == "" || home.Header.Get("Cache-Control") != "public, max-age=60" {
		t.Fatalf("etag %q cache-control %q", etag, home.Header.Get("Cache-Control"))
	}
	w.expect(t, http.StatusNotModified, base+"/", "If-None-Match", etag)
	if gz := w.expect(t, http.StatusOK, base+"/", "Accept-Encoding", "gzip"); gz.Header.Get("Content-Encoding") != "gzip" || len(gz.Body) >= len(home.Body) {
		t.Errorf("gzip: encoding %q, %d bytes vs %d", gz.Header.Get("Content-Encoding"), len(gz.Body), len(home.Body))
	}

	// The stylesheet the page links to, cached for good; the image, from the space's files.
	style := home.Body[strings.Index(home.Body, base+"/~assets/"):]
	style = style[:strings.Index(style, `"`)]
	css := w.expect(t, http.StatusOK, style)
	if !strings.Contains(css.Header.Get("Cache-Control"), "immutable") || !strings.Contains(css.Body, "prefers-color-scheme: dark") {
		t.Errorf("stylesheet: %v", css.Header)
	}
	img := home.Body[strings.Index(home.Body, base+"/~files/"):]
	img = img[:strings.Index(img, `"`)]
	if png := w.expect(t, http.StatusOK, img); png.Body != string(onePixelPNG) || png.Header.Get("Content-Type") != "image/png" {
		t.Errorf("image: %q %v", png.Body, png.Header)
	}

	// A subpage; a hidden page reachable by its address; the second variant.
	linux := w.expect(t, http.StatusOK, base+"/install/linux")
	wantIn(t, "linux", linux.Body, `<a href="`+base+`/install/linux" aria-current="page" class="current">Linux</a>`,
		`<a href="`+base+`/install">installing</a>`, `<a class="prev" rel="prev" href="`+base+`/install">`)
	hidden := w.expect(t, http.StatusOK, base+"/hidden-notes")
	wantIn(t, "hidden page", hidden.Body, "Only reachable by its address.")
	v2 := w.expect(t, http.StatusOK, base+"/guide-v2/")
	wantIn(t, "variant", v2.Body, "The second edition of the guide", `aria-current="true" class="current">Guide v2</a>`)
}

func TestWebEscapesWhatPagesHold(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	r := w.expect(t, http.StatusOK, "/s/"+w.site.Id+"/script-alert-title-script-tricky")
	wantIn(t, "tricky", r.Body, `&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; Tricky`)
	wantNotIn(t, "tricky", r.Body, "<script", "onerror", "javascript:")
}

func TestWebNotFound(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id
	r := w.expect(t, http.StatusNotFound, base+"/no/such/page")
	// In the site's look: its tabs and sidebar are there.
	wantIn(t, "404", r.Body, "Page not found", `<nav class="sidebar"`, "Acme Docs", `<meta name="robots" content="noindex">`)
	w.expect(t, http.StatusNotFound, "/s/nosuchsite/")
	// A page whose condition does not hold is not there; unpublished sites are not there.
	w.expect(t, http.StatusNotFound, base+"/employee-handbook")
	w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+w.org.Id+"/sites/"+w.site.Id+"/unpublish", nil)
	w.expect(t, http.StatusNotFound, base+"/")
}

func TestWebAdaptsToVisitorClaims(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id
	visit := func(claims jwt.MapClaims) webResponse {
		t.Helper()
		r := w.expect(t, http.StatusSeeOther, base+"/?jwt_token="+url.QueryEscape(w.token(t, claims)))
		if loc := r.Header.Get("Location"); loc != base+"/" {
			t.Fatalf("redirect to %q", loc)
		}
		ck := cookieOf(r, "quire_visitor_"+w.site.Id)
		if ck == "" {
			t.Fatal("no visitor cookie")
		}
		return w.expect(t, http.StatusOK, base+"/", "Cookie", "quire_visitor_"+w.site.Id+"="+ck)
	}
	pro := visit(jwt.MapClaims{"plan": "pro"})
	wantIn(t, "pro", pro.Body, `<nav class="tabs" aria-label="Sections">`, ">API</a>", `<a href="`+base+`/api/endpoints">API reference</a>`)
	wantNotIn(t, "pro", pro.Body, ">Staff</a>", "Employee handbook")
	if pro.Header.Get("Cache-Control") != "private, no-cache" {
		t.Errorf("a visitor's page is cached as %q", pro.Header.Get("Cache-Control"))
	}
	staff := visit(jwt.MapClaims{"employee": true})
	wantIn(t, "staff", staff.Body, ">Staff</a>", "Employee handbook")
	wantNotIn(t, "staff", staff.Body, ">API</a>")

	// Search sees only what the visitor sees.
	anon := w.expect(t, http.StatusOK, base+"/~search?q=widgets")
	wantIn(t, "anonymous search", anon.Body, "0 results")
	// An invalid token on a public site is ignored (and its cookie cleared).
	bad := w.expect(t, http.StatusOK, base+"/", "Cookie", "quire_visitor_"+w.site.Id+"=nonsense")
	wantNotIn(t, "bad token", bad.Body, ">API</a>")
}

func TestWebAudiences(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	pub := "/s/" + w.site.Id
	robots := w.expect(t, http.StatusOK, pub+"/robots.txt")
	wantIn(t, "robots", robots.Body, "Allow: /", "Sitemap: "+testBaseURL+pub+"/sitemap.xml")
	sm := w.expect(t, http.StatusOK, pub+"/sitemap.xml")
	wantIn(t, "sitemap", sm.Body, "<loc>"+testBaseURL+pub+"/</loc>", "<loc>"+testBaseURL+pub+"/install/linux</loc>",
		"<loc>"+testBaseURL+pub+"/guide-v2/</loc>")
	wantNotIn(t, "sitemap", sm.Body, "hidden-notes", "employee-handbook", "/api/", "/staff/")

	t.Run("ShareLink", func(t *testing.T) {
		base := "/s/" + w.secret.Id
		w.expect(t, http.StatusNotFound, base+"/")
		w.expect(t, http.StatusNotFound, base+"/?share=wrong")
		r := w.expect(t, http.StatusSeeOther, base+"/install?share="+w.shareKey)
		if r.Header.Get("Location") != base+"/install" {
			t.Fatalf("redirect to %q", r.Header.Get("Location"))
		}
		ck := cookieOf(r, "quire_share_"+w.secret.Id)
		page := w.expect(t, http.StatusOK, base+"/install", "Cookie", "quire_share_"+w.secret.Id+"="+ck)
		wantIn(t, "shared page", page.Body, "Installing takes a minute", `<meta name="robots" content="noindex">`)
		if page.Header.Get("X-Robots-Tag") != "noindex" {
			t.Errorf("X-Robots-Tag %q", page.Header.Get("X-Robots-Tag"))
		}
		w.expect(t, http.StatusNotFound, base+"/sitemap.xml", "Cookie", "quire_share_"+w.secret.Id+"="+ck)
		wantIn(t, "robots", w.expect(t, http.StatusOK, base+"/robots.txt", "Cookie", "quire_share_"+w.secret.Id+"="+ck).Body, "Disallow: /")
	})

	t.Run("VisitorAuth", func(t *testing.T) {
		base := "/s/" + w.members.Id
		w.expect(t, http.StatusUnauthorized, base+"/")
		w.expect(t, http.StatusUnauthorized, base+"/?jwt_token=not-a-token")
		expired := w.token(t, jwt.MapClaims{"exp": w.Clock.Now().Add(-1e9).Unix()})
		w.expect(t, http.StatusUnauthorized, base+"/?jwt_token="+expired)
		r := w.expect(t, http.StatusSeeOther, base+"/?jwt_token="+w.token(t, jwt.MapClaims{"plan": "free"}))
		ck := cookieOf(r, "quire_visitor_"+w.members.Id)
		wantIn(t, "member page", w.expect(t, http.StatusOK, base+"/", "Cookie", "quire_visitor_"+w.members.Id+"="+ck).Body, "Welcome to")
	})

	t.Run("Unlisted", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id+"/sites/"+w.site.Id, map[string]any{"visibility": "unlisted"})
		r := w.expect(t, http.StatusOK, pub+"/")
		wantIn(t, "unlisted", r.Body, `<meta name="robots" content="noindex">`)
		w.expect(t, http.StatusNotFound, pub+"/sitemap.xml")
	})
}

func TestWebSiteAtItsHostname(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id+"/sites/"+w.site.Id, map[string]any{"hostname": "docs.acme.test"})
	r := w.expect(t, http.StatusOK, "/install/linux", "Host", "docs.acme.test")
	wantIn(t, "mounted", r.Body, `<a href="/install/linux" aria-current="page" class="current">Linux</a>`, `href="/~assets/site.`)
	wantIn(t, "mounted robots", w.expect(t, http.StatusOK, "/robots.txt", "Host", "docs.acme.test").Body, "Sitemap: http://docs.acme.test/sitemap.xml")
	// The API is never mounted; another host is not the site.
	w.expect(t, http.StatusUnauthorized, "/v1/user", "Host", "docs.acme.test")
	if r := w.get(t, "/install/linux", "Host", "other.acme.test"); r.Status == http.StatusOK || strings.Contains(r.Body, "frobnicator") {
		t.Errorf("another host answered the site: %d", r.Status)
	}
}

func TestWebSearch(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id
	r := w.expect(t, http.StatusOK, base+"/~search?q=frobnicator")
	wantIn(t, "search", r.Body, `role="search"`, "2 results", `<a href="`+base+`/install/linux#packages">Linux › Packages</a>`, `<a href="`+base+`/install">Install</a>`)
	gizmo := w.expect(t, http.StatusOK, base+"/~search?q=gizmo")
	wantIn(t, "search in variant", gizmo.Body, `href="`+base+`/guide-v2/"`, "Guide › Guide v2")
	wantIn(t, "xss query", w.expect(t, http.StatusOK, base+"/~search?q=%3Cscript%3E").Body, "&lt;script&gt;")
}

func TestWebSectionGroupsAreMenus(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/s/" + w.site.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites/"+w.site.Id+"/section-groups",
		map[string]any{"title": "Internal", "sections": []string{w.staffSec.Id}})
	r := w.expect(t, http.StatusSeeOther, base+"/?jwt_token="+url.QueryEscape(w.token(t, jwt.MapClaims{"employee": true})))
	cookie := "quire_visitor_" + w.site.Id + "=" + cookieOf(r, "quire_visitor_"+w.site.Id)
	staff := w.expect(t, http.StatusOK, base+"/", "Cookie", cookie)
	wantIn(t, "employee", staff.Body, `<li class="group"><details><summary>Internal</summary><ul>`, `<li><a href="`+base+`/staff/">Staff</a></li>`)
	inGroup := w.expect(t, http.StatusOK, base+"/staff/", "Cookie", cookie)
	wantIn(t, "in the group", inGroup.Body, `<li class="group current"><details><summary>Internal</summary>`, "<h1 class=\"title\">Runbook</h1>")
	// A group with nothing the visitor sees is not shown.
	r = w.expect(t, http.StatusSeeOther, base+"/?jwt_token="+url.QueryEscape(w.token(t, jwt.MapClaims{"plan": "pro"})))
	pro := w.expect(t, http.StatusOK, base+"/", "Cookie", "quire_visitor_"+w.site.Id+"="+cookieOf(r, "quire_visitor_"+w.site.Id))
	wantNotIn(t, "pro", pro.Body, "Internal", "Staff")
}
