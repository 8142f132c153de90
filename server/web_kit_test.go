package server_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
)

// webWorld is an organization with a published documentation site, built through the API:
//
//	site "Acme Docs" (public), sections:
//	  Guide   — variants "Guide" (default) and "Guide v2"
//	  API     — shown when visitor.claims.plan === "pro"
//	  Staff   — shown when visitor.claims.employee === true
//	site "Secret Docs" (share-link) publishing the Guide
//	site "Members" (visitor-auth) publishing the Guide
//
// The Guide holds Introduction (the landing page: links, an image, code, a table), Install
// with its subpage Linux, a hidden page, a page only employees see, and a page whose title and
// body try to run script.
type webWorld struct {
	*world
	site, secret, members     gen.Site
	guide, guide2, api, staff gen.Space
	guideSection, staffSec    gen.SiteSection
	shareKey                  string
	pages                     map[string]string // page ids by ref
	logo                      string            // the Guide's image file id
}

// onePixelPNG is a 1×1 PNG: the Guide's logo.
var onePixelPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

const webIntro = `Welcome to **Acme**. Start with [installing it](/pages/install) or jump to [Linux](/pages/linux#packages).
This [link goes nowhere](/pages/missing-page). The [API reference](/spaces/{api}/pages/{apiPage}) is for pro plans.

![The Acme logo](/files/{logo})

## Quick start

` + "```go\npackage main\n\nfunc main() { println(\"hello\") }\n```" + `

## Options

| Option | Default |
| :----- | ------: |
| color  | auto    |

### Details

Read more in [the details](#options).
`

func newWebWorld(t *testing.T) *webWorld {
	t.Helper()
	w := &webWorld{world: newWorld(t), pages: map[string]string{}}
	org := w.org.Id
	w.guide = w.MustCreateSpace(t, w.admin, org, "Guide", "")
	w.guide2 = w.MustCreateSpace(t, w.admin, org, "Guide v2", "")
	w.api = w.MustCreateSpace(t, w.admin, org, "API", "")
	w.staff = w.MustCreateSpace(t, w.admin, org, "Staff", "")

	apiPages := w.seed(t, w.api.Id, "Endpoints", "Every endpoint, for pro plans: the widgets endpoint lists widgets.")
	w.seed(t, w.staff.Id, "Runbook", "On-call runbook for staff only.")
	w.seed(t, w.guide2.Id, "Welcome to v2", "The second edition of the guide, with the gizmo chapter.")

	cr := w.create(t, w.admin, w.guide.Id, "Files")
	files := w.apply(t, w.admin, w.guide.Id, cr.Id, map[string]any{"operation": "insert_files", "files": []any{
		map[string]any{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(onePixelPNG)}}})
	w.logo = files.Refs["logo"]
	intro := strings.NewReplacer("{api}", w.api.Id, "{apiPage}", apiPages["Endpoints"], "{logo}", w.logo).Replace(webIntro)
	hidden := insertMarkdown("Hidden notes", "Only reachable by its address.", "hidden")
	hidden["hidden"] = true
	staffOnly := insertMarkdown("Employee handbook", "Salaries and such.", "handbook")
	staffOnly["condition"] = "visitor.claims.employee === true"
	linux := insertMarkdown("Linux", "## Packages\n\nUse apt to install the frobnicator.\n\nBack to [installing](../install.md) or [home](../README.md).", "linux", "into", "install")
	res := w.apply(t, w.admin, w.guide.Id, cr.Id,
		insertMarkdown("Introduction", intro, "intro"),
		insertMarkdown("Install", "Installing takes a minute: download, unpack, run. The frobnicator ships separately.", "install"),
		linux, hidden, staffOnly,
		insertMarkdown("<script>alert('title')</script> Tricky", "Body <script>alert('body')</script> and <img src=x onerror=alert(1)> [click](javascript:alert(2))", "tricky"))
	if m := w.merge(t, w.admin, w.guide.Id, cr.Id); m.Result != gen.MergeResultMerge {
		t.Fatalf("merge: %+v", m)
	}
	for k, v := range res.Refs {
		w.pages[k] = v
	}

	w.site = w.createWebSite(t, "Acme Docs", "public")
	base := "/orgs/" + org + "/sites/" + w.site.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/sections", map[string]any{"spaceId": w.guide.Id, "title": "Guide"}).Decode(t, &w.guideSection)
	var apiSec gen.SiteSection
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/sections", map[string]any{"spaceId": w.api.Id, "title": "API"}).Decode(t, &apiSec)
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/sections", map[string]any{"spaceId": w.staff.Id, "title": "Staff"}).Decode(t, &w.staffSec)
	var v2 gen.SiteSpace
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/site-spaces", map[string]any{"spaceId": w.guide2.Id, "sectionId": w.guideSection.Id}).Decode(t, &v2)
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/sections/"+apiSec.Id, map[string]any{"condition": `visitor.claims.plan === "pro"`})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/sections/"+w.staffSec.Id, map[string]any{"condition": "visitor.claims.employee === true"})
	w.Expect(t, http.StatusOK, w.admin, "POST", base+"/publish", nil)

	w.secret = w.createWebSite(t, "Secret Docs", "share-link", w.guide.Id)
	var got gen.Site
	w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+org+"/sites/"+w.secret.Id+"/publish", nil).Decode(t, &got)
	w.shareKey = strings.TrimPrefix(*got.Urls.Published, testBaseURL+"/s/"+w.secret.Id+"?share=")
	w.members = w.createWebSite(t, "Members", "visitor-auth", w.guide.Id)
	w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+org+"/sites/"+w.members.Id+"/publish", nil)
	return w
}

func (w *webWorld) createWebSite(t *testing.T, title, visibility string, spaces ...string) gen.Site {
	t.Helper()
	body := map[string]any{"title": title, "visibility": visibility}
	if len(spaces) > 0 {
		body["spaces"] = spaces
	}
	var s gen.Site
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", body).Decode(t, &s)
	return s
}

// token mints a visitor token with claims.
func (w *webWorld) token(t *testing.T, claims jwt.MapClaims) string {
	return visitorToken(t, w.testServer, claims)
}

// webResponse is a page the web answered.
type webResponse struct {
	Status int
	Header http.Header
	Body   string
}

// get fetches a path of the web as a browser would not: no redirects followed, no cookies
// kept unless given; header pairs are set on the request (Host sets the host).
func (w *webWorld) get(t *testing.T, path string, header ...string) webResponse {
	t.Helper()
	req, err := http.NewRequest("GET", w.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Add(header[i], header[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, raw := readResponse(t)(client.Do(req))
	return webResponse{Status: res.StatusCode, Header: res.Header, Body: string(raw)}
}

// expect is get that fails the test unless the status is want.
func (w *webWorld) expect(t *testing.T, want int, path string, header ...string) webResponse {
	t.Helper()
	r := w.get(t, path, header...)
	if r.Status != want {
		t.Fatalf("GET %s: status %d, want %d\n%.2000s", path, r.Status, want, r.Body)
	}
	return r
}

func wantIn(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, s := range wants {
		if !strings.Contains(body, s) {
			t.Errorf("%s: missing %q in\n%.3000s", what, s, body)
		}
	}
}

func wantNotIn(t *testing.T, what, body string, bad ...string) {
	t.Helper()
	for _, s := range bad {
		if strings.Contains(body, s) {
			t.Errorf("%s: %q should not be in\n%.3000s", what, s, body)
		}
	}
}

// cookieOf returns the value a response sets for a cookie ("" when none).
func cookieOf(r webResponse, name string) string {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

var _ = url.QueryEscape
