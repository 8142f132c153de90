package server_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// rendered is a world with a published site as GitBook's renderer reads it: hostname
// docs.acme.test, a default section "Guide" (one space) and a section "API" with two variants
// (API and API v2); a space of the organization the site does not publish; a second site.
type rendered struct {
	*world
	site, otherSite             gen.Site
	guide, api, apiV2, unlisted gen.Space
	pages                       map[string]string
	base                        string
}

func newRendered(t *testing.T) *rendered {
	t.Helper()
	w := newWorld(t)
	r := &rendered{world: w}
	org := w.org.Id
	r.guide = w.MustCreateSpace(t, w.admin, org, "Guide", "")
	r.api = w.MustCreateSpace(t, w.admin, org, "API", "")
	r.apiV2 = w.MustCreateSpace(t, w.admin, org, "API v2", "")
	r.unlisted = w.MustCreateSpace(t, w.admin, org, "Unlisted", "")
	r.pages = w.seed(t, r.guide.Id, "Install", "Run the installer to install quire.", "Configure", "Set the port.")
	w.seed(t, r.apiV2.Id, "Pets", "List the pets of the store.")
	w.seed(t, r.unlisted.Id, "Secret", "Nobody reads the installer notes here.")
	r.site = sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/sites", map[string]any{"title": "Docs"})
	r.base = "/orgs/" + org + "/sites/" + r.site.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", r.base+"/sections", map[string]any{"spaceId": r.guide.Id, "title": "Guide"})
	apiSec := sendJSON[gen.SiteSection](t, w.testServer, http.StatusCreated, w.admin, "POST", r.base+"/sections", map[string]any{"spaceId": r.api.Id, "title": "API"})
	w.Expect(t, http.StatusCreated, w.admin, "POST", r.base+"/site-spaces", map[string]any{"spaceId": r.apiV2.Id, "sectionId": apiSec.Id})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", r.base, map[string]any{"hostname": "docs.acme.test"})
	w.Expect(t, http.StatusOK, w.admin, "POST", r.base+"/publish", nil)
	r.otherSite = sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/sites", map[string]any{"title": "Other", "spaces": []string{r.unlisted.Id}})
	w.Expect(t, http.StatusOK, w.admin, "POST", "/orgs/"+org+"/sites/"+r.otherSite.Id+"/publish", nil)
	return r
}

func (r *rendered) resolve(t *testing.T, u *testUser, body map[string]any) gen.PublishedSiteContentLookup {
	t.Helper()
	return sendJSON[gen.PublishedSiteContentLookup](t, r.testServer, http.StatusOK, u, "POST", "/urls/published", body)
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestResolvePublishedContentByUrl(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	visitor := map[string]any{"type": "human", "unsignedClaims": map[string]any{}}

	root := r.resolve(t, r.reader, map[string]any{"url": "https://docs.acme.test/", "visitor": visitor, "redirectOnError": false})
	if str(root.Site) != r.site.Id || str(root.Space) != r.guide.Id || str(root.Pathname) != "" || str(root.BasePath) != "/" ||
		str(root.SiteBasePath) != "/" || *root.Complete || str(root.Organization) != r.org.Id || root.SiteSection == nil ||
		str(root.CanonicalUrl) != "https://docs.acme.test/" || root.ApiToken == nil || root.Redirect != nil {
		t.Fatalf("the site's root: %+v", root)
	}
	// A section, its second variant and a page path: every level named, so complete.
	deep := r.resolve(t, r.reader, map[string]any{"url": "https://DOCS.acme.test/api/api-v2/pets/list"})
	if str(deep.Space) != r.apiV2.Id || str(deep.Pathname) != "pets/list" || str(deep.BasePath) != "/api/api-v2/" ||
		!*deep.Complete || str(deep.CanonicalUrl) != "https://docs.acme.test/api/api-v2/pets/list" {
		t.Fatalf("a variant's page: %+v", deep)
	}
	// The default section's only space is complete without naming it.
	page := r.resolve(t, r.reader, map[string]any{"url": "https://docs.acme.test/guide/install"})
	if str(page.Space) != r.guide.Id || str(page.Pathname) != "install" || !*page.Complete || str(page.BasePath) != "/guide/" {
		t.Fatalf("a page of the default section: %+v", page)
	}
	// The same site at {base}/s/{id}: it lives at its hostname, so the answer is a redirect.
	via := r.resolve(t, r.reader, map[string]any{"url": testBaseURL + "/s/" + r.site.Id + "/guide/install"})
	if via.Target == nil || *via.Target != gen.Content || str(via.Redirect) != "https://docs.acme.test/guide/install" || via.Site != nil {
		t.Fatalf("the base URL of a site with a hostname: %+v", via)
	}
	// The other site has no hostname: it is read at {base}/s/{id}.
	other := r.resolve(t, r.reader, map[string]any{"url": testBaseURL + "/s/" + r.otherSite.Id + "/secret"})
	if str(other.Space) != r.unlisted.Id || str(other.SiteBasePath) != "/s/"+r.otherSite.Id+"/" || str(other.Pathname) != "secret" ||
		str(other.CanonicalUrl) != testBaseURL+"/s/"+r.otherSite.Id+"/secret" {
		t.Fatalf("a site at the base URL: %+v", other)
	}
	// The deprecated GET reads the same.
	got := getJSON[gen.PublishedSiteContentLookup](t, r.testServer, r.outsider, "/urls/published?url="+url.QueryEscape("https://docs.acme.test/api"))
	if str(got.Space) != r.api.Id || *got.Complete {
		t.Fatalf("getPublishedContentByUrl: %+v", got)
	}

	for _, c := range []struct {
		name string
		url  string
		want int
	}{
		{"unknown host", "https://nowhere.acme.test/", 404},
		{"unknown site", testBaseURL + "/s/nosuchsite/", 404},
		{"not a site path", testBaseURL + "/app/s/" + r.guide.Id, 404},
		{"not http", "ftp://docs.acme.test/", 400},
	} {
		wantMessage(t, r.Expect(t, c.want, r.reader, "POST", "/urls/published", map[string]any{"url": c.url}))
	}
	r.Expect(t, http.StatusUnauthorized, nil, "POST", "/urls/published", map[string]any{"url": "https://docs.acme.test/"})

	// An unpublished site is not there.
	r.Expect(t, http.StatusOK, r.admin, "POST", r.base+"/unpublish", nil)
	r.Expect(t, http.StatusNotFound, r.reader, "POST", "/urls/published", map[string]any{"url": "https://docs.acme.test/"})
}

func TestResolveShareLinkAndVisitorAuthSites(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	r.Expect(t, http.StatusOK, r.admin, "PATCH", r.base, map[string]any{"visibility": "share-link"})
	site := getJSON[gen.Site](t, r.testServer, r.admin, r.base)
	key := strings.TrimPrefix(str(site.Urls.Published)[strings.Index(str(site.Urls.Published), "?share="):], "?share=")
	if key == "" {
		t.Fatalf("no share key in %s", str(site.Urls.Published))
	}
	// The key as the first path segment (as the renderer sends it) or ?share=.
	in := r.resolve(t, r.reader, map[string]any{"url": "https://docs.acme.test/" + key + "/guide/install"})
	if str(in.ShareKey) != key || str(in.SiteBasePath) != "/"+key+"/" || str(in.BasePath) != "/"+key+"/guide/" || str(in.Pathname) != "install" ||
		str(in.CanonicalUrl) != "https://docs.acme.test/"+key+"/guide/install" {
		t.Fatalf("share-link by path: %+v", in)
	}
	if q := r.resolve(t, r.reader, map[string]any{"url": "https://docs.acme.test/guide?share=" + key}); str(q.ShareKey) != key {
		t.Fatalf("share-link by query: %+v", q)
	}
	// Its site token reads the published site without the key: resolving it needed the key.
	r.Expect(t, http.StatusOK, &testUser{Token: str(in.ApiToken)}, "GET", r.base+"/published", nil)
	r.Expect(t, http.StatusNotFound, r.reader, "GET", r.base+"/published", nil)
	r.Expect(t, http.StatusNotFound, r.reader, "POST", "/urls/published", map[string]any{"url": "https://docs.acme.test/guide/install"})
	r.Expect(t, http.StatusNotFound, r.reader, "POST", "/urls/published", map[string]any{"url": "https://docs.acme.test/wrongkey/guide"})

	// visitor-auth: a visitor token is needed, and its claims go into the site token.
	r.Expect(t, http.StatusOK, r.admin, "PATCH", r.base, map[string]any{"visibility": "visitor-auth"})
	wantMessage(t, r.Expect(t, http.StatusForbidden, r.reader, "POST", "/urls/published", map[string]any{"url": "https://docs.acme.test/"}), "visitor token")
	wantMessage(t, r.Expect(t, http.StatusForbidden, r.reader, "POST", "/urls/published",
		map[string]any{"url": "https://docs.acme.test/", "visitor": map[string]any{"jwtToken": "not-a-token"}}), "visitor token")
	tok := visitorToken(t, r.testServer, jwt.MapClaims{"plan": "pro"})
	ok := r.resolve(t, r.reader, map[string]any{"url": "https://docs.acme.test/",
		"visitor": map[string]any{"jwtToken": tok, "type": "agent", "unsignedClaims": map[string]any{"lang": "fr"}}})
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(str(ok.ApiToken), claims); err != nil {
		t.Fatal(err)
	}
	inner, _ := claims["claims"].(map[string]any)
	unsigned, _ := inner["unsigned"].(map[string]any)
	if claims["kind"] != "site" || claims["site"] != r.site.Id || claims["visitorType"] != "agent" || inner["plan"] != "pro" || unsigned["lang"] != "fr" {
		t.Fatalf("the site token's claims: %v", claims)
	}
	// redirectOnError: without a sign-in address it is still the 403; with one, the visitor is
	// sent there (target application), the address asked for as its location.
	r.Expect(t, http.StatusForbidden, r.reader, "POST", "/urls/published", map[string]any{"url": "https://docs.acme.test/guide", "redirectOnError": true})
	r.Expect(t, http.StatusOK, r.admin, "PATCH", r.base+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "https://login.acme.test/start?app=docs"})
	for _, body := range []map[string]any{
		{"url": "https://docs.acme.test/guide", "redirectOnError": true},
		{"url": "https://docs.acme.test/guide", "redirectOnError": true, "visitor": map[string]any{"jwtToken": "not-a-token"}},
	} {
		got := r.Expect(t, http.StatusOK, r.reader, "POST", "/urls/published", body)
		wantPublic(t, "0.202.0", "resolvePublishedContentByUrl", got)
		var lookup gen.PublishedSiteContentLookup
		got.Decode(t, &lookup)
		if lookup.Target == nil || *lookup.Target != gen.Application || str(lookup.Redirect) != "https://login.acme.test/start?app=docs&location=https%3A%2F%2Fdocs.acme.test%2Fguide" || lookup.ApiToken != nil {
			t.Fatalf("redirectOnError: %+v", lookup)
		}
	}
	r.Expect(t, http.StatusForbidden, r.reader, "POST", "/urls/published", map[string]any{"url": "https://docs.acme.test/guide", "redirectOnError": false})
	r.Expect(t, http.StatusOK, r.reader, "GET", "/urls/published?url="+url.QueryEscape("https://docs.acme.test/guide")+"&redirectOnError=true", nil)
	// Its site token reads the published site as that visitor; a member without one cannot.
	r.Expect(t, http.StatusOK, &testUser{Token: str(ok.ApiToken)}, "GET", r.base+"/published", nil)
	r.Expect(t, http.StatusForbidden, r.reader, "GET", r.base+"/published", nil)
	exp, _ := claims.GetExpirationTime()
	iat, _ := claims.GetIssuedAt()
	if exp == nil || iat == nil || exp.Sub(iat.Time) != time.Hour {
		t.Fatalf("the site token expires at %v, want an hour after %v", exp, iat)
	}
}

// TestSiteTokenOpensOnlyItsSite: the apiToken reads its site's published content and nothing
// else: not another site or its spaces, not a space the site does not publish, no write, no
// organization read outside the list, and nothing once it has expired.
func TestSiteTokenOpensOnlyItsSite(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	res := r.resolve(t, r.reader, map[string]any{"url": "https://docs.acme.test/guide/install"})
	tok := &testUser{ID: "site", Token: str(res.ApiToken)}
	org := r.org.Id

	// What it opens.
	for _, path := range []string{
		r.base + "/published",
		"/spaces/" + r.guide.Id,
		"/spaces/" + r.guide.Id + "/content",
		"/spaces/" + r.apiV2.Id + "/content/path/pets",
		"/spaces/" + r.guide.Id + "/search?query=installer",
		r.base + "/redirect?source=%2Fnowhere", // 404: no such redirect, but the call is allowed
		"/users/" + r.admin.ID,
	} {
		st := r.Do(t, tok, "GET", path, nil)
		if st.Status != http.StatusOK && !(strings.Contains(path, "/redirect") && st.Status == http.StatusNotFound) {
			t.Fatalf("GET %s with the site token: %d %s", path, st.Status, st.Body)
		}
	}
	found := sendJSON[gen.SearchSpaceList](t, r.testServer, http.StatusOK, tok, "POST", r.base+"/search", map[string]any{"query": "installer", "mode": "all"})
	if found.Count != 1 || found.Items[0].Id != r.guide.Id {
		t.Fatalf("the site's search with its token finds only its spaces: %+v", found)
	}
	cur := getJSON[gen.Revision](t, r.testServer, r.admin, "/spaces/"+r.guide.Id+"/content")
	if h := r.Expect(t, http.StatusOK, tok, "GET", "/spaces/"+r.guide.Id+"/content", nil).Header.Get("X-Gitbook-Cache-Tag"); h != "space:"+r.guide.Id {
		t.Fatalf("cache tag %q", h)
	}

	// What it does not: another site, a space the site does not publish, another organization's
	// space → 404; anything not on its list (writes, organization reads) → 403.
	otherOrgSpace := r.MustCreateSpace(t, r.outsider, r.other.Id, "Theirs", "")
	for _, path := range []string{
		"/orgs/" + org + "/sites/" + r.otherSite.Id + "/published",
		"/spaces/" + r.unlisted.Id,
		"/spaces/" + r.unlisted.Id + "/content",
		"/spaces/" + otherOrgSpace.Id + "/content",
		"/orgs/" + r.other.Id + "/sites/" + r.site.Id + "/published",
		"/users/" + r.outsider.ID,
	} {
		r.Expect(t, http.StatusNotFound, tok, "GET", path, nil)
	}
	r.Expect(t, http.StatusNotFound, tok, "POST", "/orgs/"+org+"/sites/"+r.otherSite.Id+"/search", map[string]any{"query": "installer"})
	for _, c := range []struct{ method, path string }{
		{"GET", "/orgs/" + org + "/spaces"},
		{"GET", "/orgs/" + org},
		{"GET", r.base},
		{"GET", "/user"},
		{"GET", "/spaces/" + r.guide.Id + "/change-requests"},
		{"POST", "/spaces/" + r.guide.Id + "/change-requests"},
		{"PATCH", "/spaces/" + r.guide.Id},
		{"POST", r.base + "/unpublish"},
		{"POST", "/urls/published"},
		// A document id also finds the bodies of unmerged change requests: not published content.
		{"GET", "/spaces/" + r.guide.Id + "/documents/1"},
	} {
		var body any
		if c.method != "GET" {
			body = map[string]any{"url": "https://docs.acme.test/", "subject": "x", "title": "x"}
		}
		wantMessage(t, r.Expect(t, http.StatusForbidden, tok, c.method, c.path, body), "site token")
	}
	// A path that is no operation is still a 404.
	req, _ := http.NewRequest("GET", r.URL+"/v1/spaces/"+r.guide.Id+"/no-such-path", nil)
	req.Header.Set("Authorization", "Bearer "+tok.Token)
	if res, _ := readResponse(t)(http.DefaultClient.Do(req)); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a path that is no operation, with a site token: %d", res.StatusCode)
	}
	// A revision other than the space's current one (a change request's) is not published.
	cr := r.create(t, r.admin, r.guide.Id, "Draft")
	if cr.Revision != cur.Id {
		r.Expect(t, http.StatusForbidden, tok, "GET", "/spaces/"+r.guide.Id+"/change-requests/"+cr.Id+"/content", nil)
	}

	// A token signed otherwise, or with the visitor secret, is not one.
	forged, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"kind": "site", "iss": "quire", "site": r.site.Id,
		"organization": org, "spaces": []string{r.unlisted.Id}, "exp": r.Clock.Now().Add(time.Hour).Unix()}).SignedString(r.Secret)
	if err != nil {
		t.Fatal(err)
	}
	r.Expect(t, http.StatusUnauthorized, &testUser{Token: forged}, "GET", "/spaces/"+r.unlisted.Id, nil)

	// Unpublishing the site closes it at once; publishing again opens it.
	r.Expect(t, http.StatusOK, r.admin, "POST", r.base+"/unpublish", nil)
	wantMessage(t, r.Expect(t, http.StatusUnauthorized, tok, "GET", "/spaces/"+r.guide.Id, nil), "not published")
	r.Expect(t, http.StatusOK, r.admin, "POST", r.base+"/publish", nil)
	r.Expect(t, http.StatusOK, tok, "GET", "/spaces/"+r.guide.Id, nil)

	// An hour later it has expired.
	r.Clock.Advance(time.Hour + time.Second)
	wantMessage(t, r.Expect(t, http.StatusUnauthorized, tok, "GET", "/spaces/"+r.guide.Id, nil), "expired")
}

func TestSitePublishedURLsUseTheHostname(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	site := getJSON[gen.Site](t, r.testServer, r.admin, r.base)
	if str(site.Urls.Published) != "https://docs.acme.test" {
		t.Fatalf("site urls.published %s", str(site.Urls.Published))
	}
	sections := getJSON[gen.SiteSectionList](t, r.testServer, r.admin, r.base+"/sections")
	var urls []string
	for _, s := range sections.Items {
		urls = append(urls, str(s.Urls.Published))
		for _, ss := range s.SiteSpaces {
			urls = append(urls, str(ss.Urls.Published))
		}
	}
	want := "https://docs.acme.test https://docs.acme.test https://docs.acme.test/api https://docs.acme.test/api https://docs.acme.test/api/api-v2"
	if strings.Join(urls, " ") != want {
		t.Fatalf("sections and site spaces: %v", urls)
	}
	other := getJSON[gen.Site](t, r.testServer, r.admin, "/orgs/"+r.org.Id+"/sites/"+r.otherSite.Id)
	if str(other.Urls.Published) != testBaseURL+"/s/"+r.otherSite.Id {
		t.Fatalf("a site without a hostname: %s", str(other.Urls.Published))
	}
}

func TestGetUserById(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	me := getJSON[gen.User](t, w.testServer, w.reader, "/users/"+w.reader.ID)
	if me.DisplayName != "Rita" || str(me.Email) != w.reader.Email {
		t.Fatalf("oneself: %+v", me)
	}
	colleague := getJSON[gen.User](t, w.testServer, w.guest, "/users/"+w.admin.ID)
	if colleague.DisplayName != "Ada" || colleague.Email != nil || colleague.Urls.Location == "" {
		t.Fatalf("a colleague's profile: %+v", colleague)
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/users/"+w.admin.ID, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/users/nosuchuser", nil)
}

func TestSearchSiteContentScopes(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	r.seed(t, r.api.Id, "Pets v1", "List the pets, the old way.")
	structure := getJSON[gen.SiteSectionList](t, r.testServer, r.admin, r.base+"/sections")
	var guideSS, apiSS, apiV2SS string
	for _, s := range structure.Items {
		for _, ss := range s.SiteSpaces {
			switch ss.Space.Id {
			case r.guide.Id:
				guideSS = ss.Id
			case r.api.Id:
				apiSS = ss.Id
			case r.apiV2.Id:
				apiV2SS = ss.Id
			}
		}
	}
	spaces := func(body map[string]any) []string {
		t.Helper()
		l := sendJSON[gen.SearchSpaceList](t, r.testServer, http.StatusOK, r.reader, "POST", r.base+"/search", body)
		return sorted(idsOf(l.Items)...)
	}
	for _, c := range []struct {
		name string
		body map[string]any
		want []string
	}{
		{"all (old shape)", map[string]any{"query": "pets", "mode": "all"}, []string{r.api.Id, r.apiV2.Id}},
		{"nothing said", map[string]any{"query": "pets"}, []string{r.api.Id, r.apiV2.Id}},
		{"current", map[string]any{"query": "pets", "mode": "current", "siteSpaceId": guideSS}, []string{r.api.Id}},
		{"specific", map[string]any{"query": "pets", "mode": "specific", "siteSpaceIds": []string{apiV2SS}}, []string{r.apiV2.Id}},
		{"scope all", map[string]any{"query": "pets", "scope": map[string]any{"mode": "all"}}, []string{r.api.Id, r.apiV2.Id}},
		{"scope default", map[string]any{"query": "pets", "scope": map[string]any{"mode": "default", "currentSiteSpace": apiV2SS}}, []string{r.api.Id, r.apiV2.Id}},
		{"scope only current", map[string]any{"query": "pets", "scope": map[string]any{"mode": "default", "currentSiteSpace": apiSS, "restrictTo": "currentSiteSpace"}}, []string{r.api.Id}},
		{"scope others", map[string]any{"query": "pets", "scope": map[string]any{"mode": "default", "currentSiteSpace": apiSS, "restrictTo": "otherSiteSpaces"}}, []string{r.apiV2.Id}},
		{"scope specific", map[string]any{"query": "pets", "scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{apiSS}}}, []string{r.api.Id}},
	} {
		if got := spaces(c.body); strings.Join(got, ",") != strings.Join(sorted(c.want...), ",") {
			t.Fatalf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// Pages of results.
	first := sendJSON[gen.SearchSpaceList](t, r.testServer, http.StatusOK, r.reader, "POST", r.base+"/search?limit=1", map[string]any{"query": "pets"})
	if first.Count != 2 || len(first.Items) != 1 || first.Next == nil {
		t.Fatalf("first page: %+v", first)
	}
	second := sendJSON[gen.SearchSpaceList](t, r.testServer, http.StatusOK, r.reader, "POST", r.base+"/search?limit=1&page="+first.Next.Page, map[string]any{"query": "pets"})
	if len(second.Items) != 1 || second.Items[0].Id == first.Items[0].Id || second.Next != nil {
		t.Fatalf("second page: %+v", second)
	}
	for _, bad := range []map[string]any{
		{"query": "pets", "mode": "current"},
		{"query": "pets", "mode": "specific"},
		{"query": "pets", "mode": "all", "siteSpaceIds": []string{apiSS}},
		{"query": "pets", "scope": map[string]any{"mode": "all"}, "mode": "all"},
		{"query": "pets", "scope": map[string]any{"mode": "default", "restrictTo": "currentSiteSpace"}},
		{"query": "pets", "scope": map[string]any{"mode": "everything"}},
		{"query": strings.Repeat("x", 513)},
	} {
		r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/search", bad)
	}
	r.Expect(t, http.StatusNotFound, r.outsider, "POST", r.base+"/search", map[string]any{"query": "pets"})
	r.Expect(t, http.StatusNoContent, r.reader, "POST", r.base+"/search/prewarm", nil)
	r.Expect(t, http.StatusNotFound, r.outsider, "POST", r.base+"/search/prewarm", nil)
}

func TestSiteRedirectBySourceAndEvents(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	ctx := context.Background()
	r.Expect(t, http.StatusNotFound, r.reader, "GET", r.base+"/redirect?source=%2Fold", nil)
	r.Expect(t, http.StatusBadRequest, r.reader, "GET", r.base+"/redirect?source=no-slash", nil)
	sections := getJSON[gen.SiteSectionList](t, r.testServer, r.admin, r.base+"/sections")
	guideSS := sections.Items[0].SiteSpaces[0].Id
	install := r.pages["Install"]
	for _, red := range []*store.SiteRedirect{
		{SiteID: r.site.Id, Source: "/old", RedirectDestination: store.RedirectDestination{DestinationKind: "site-page", SiteSpaceID: &guideSS, PageID: &install}, Permanent: true},
		{SiteID: r.site.Id, Source: "/legacy/*", RedirectDestination: store.RedirectDestination{DestinationKind: "site-section", SiteSectionID: &sections.Items[1].Id}, CaptureWildcard: true},
		{SiteID: r.site.Id, Source: "/out", RedirectDestination: store.RedirectDestination{DestinationKind: "external", URL: &[]string{"https://example.com/x"}[0]}},
	} {
		if err := r.Store.CreateSiteRedirect(ctx, red); err != nil {
			t.Fatal(err)
		}
	}
	for source, want := range map[string]string{
		"/old":        "https://docs.acme.test/install",
		"/legacy/a/b": "https://docs.acme.test/api/a/b",
		"/out":        "https://example.com/x",
	} {
		got := getJSON[gen.SiteRedirectResolved](t, r.testServer, r.reader, r.base+"/redirect?source="+url.QueryEscape(source))
		if got.Target != want {
			t.Fatalf("%s leads to %s, want %s", source, got.Target, want)
		}
	}
	r.Expect(t, http.StatusNotFound, r.outsider, "GET", r.base+"/redirect?source=%2Fold", nil)

	// Visitor events are stored whole, for the site's insights.
	now := r.Clock.Now()
	event := func(typ string, at time.Time, extra map[string]any) map[string]any {
		e := map[string]any{"type": typ, "timestamp": at.Format(time.RFC3339),
			"session": map[string]any{"sessionId": "s1", "visitorId": "v1", "userAgent": "test", "cookies": map[string]any{}, "language": nil, "referrer": nil},
			"location": map[string]any{"url": "https://docs.acme.test/install", "siteSection": nil, "siteSpace": guideSS, "siteShareKey": nil,
				"space": r.guide.Id, "revision": nil, "page": install}}
		for k, v := range extra {
			e[k] = v
		}
		return e
	}
	r.Expect(t, http.StatusNoContent, r.reader, "POST", r.base+"/insights/events", map[string]any{"events": []any{
		event("page_view", now, nil), event("search_type_query", now, map[string]any{"query": "install"}),
	}})
	list, err := r.Store.FindSiteEvents(ctx, r.site.Id, store.SiteEventFilter{}, store.Page{})
	if err != nil || list.Count != 2 {
		t.Fatalf("stored events: %+v, %v", list, err)
	}
	for _, e := range list.Items {
		if e.SessionID != "s1" || str(e.PageID) != install || str(e.SpaceID) != r.guide.Id || !strings.Contains(string(e.Payload), `"type":"`+e.Type+`"`) {
			t.Fatalf("stored event %+v %s", e, e.Payload)
		}
	}
	wantMessage(t, r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/insights/events",
		map[string]any{"events": []any{event("page_view", now.Add(-time.Hour), nil)}}), "events.0.timestamp")
	r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/insights/events", map[string]any{"events": []any{map[string]any{"type": "page_view"}}})
	// Events about a page the space lacks, or a space the site does not publish, are refused
	// whole; so is a batch past 100 events.
	noPage := event("page_view", now, nil)
	noPage["location"].(map[string]any)["page"] = "no-such-page"
	wantMessage(t, r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/insights/events",
		map[string]any{"events": []any{event("page_view", now, nil), noPage}}), "events.1.location.page")
	elsewhere := event("page_view", now, nil)
	elsewhere["location"].(map[string]any)["space"] = "not-published"
	wantMessage(t, r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/insights/events",
		map[string]any{"events": []any{elsewhere}}), "events.0.location.space")
	batch := func(n int) map[string]any {
		many := make([]any, n)
		for i := range many {
			many[i] = event("page_view", now, nil)
		}
		return map[string]any{"events": many}
	}
	r.Expect(t, http.StatusBadRequest, r.reader, "POST", r.base+"/insights/events", batch(101))
	r.Expect(t, http.StatusRequestEntityTooLarge, r.reader, "POST", r.base+"/insights/events", batch(10000))
	if list, _ := r.Store.FindSiteEvents(ctx, r.site.Id, store.SiteEventFilter{}, store.Page{}); list.Count != 2 {
		t.Fatalf("refused batches stored events: %d", list.Count)
	}
	r.Expect(t, http.StatusNotFound, r.outsider, "POST", r.base+"/insights/events", map[string]any{"events": []any{}})
}

func TestGetContentByUrl(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	col := r.MustCreateCollection(t, r.admin, r.org.Id, "Handbooks", "")
	for _, c := range []struct {
		name, url, space, page, collection string
	}{
		{"a space", testBaseURL + "/app/s/" + r.guide.Id, r.guide.Id, "", ""},
		{"a page of a space", testBaseURL + "/app/s/" + r.guide.Id + "/configure", r.guide.Id, r.pages["Configure"], ""},
		{"a collection", testBaseURL + "/app/o/" + r.org.Id + "/c/" + col.Id, "", "", col.Id},
		{"a published page", "https://docs.acme.test/guide/install", r.guide.Id, r.pages["Install"], ""},
		{"a published variant", "https://docs.acme.test/api/api-v2/pets", r.apiV2.Id, "", ""},
	} {
		got := getJSON[gen.ContentByUrl](t, r.testServer, r.reader, "/urls/content?url="+url.QueryEscape(c.url))
		space, page, collection := "", "", ""
		if got.Space != nil {
			space = got.Space.Id
		}
		if got.Page != nil {
			page = got.Page.Id
		}
		if got.Collection != nil {
			collection = got.Collection.Id
		}
		if space != c.space || (c.page != "" && page != c.page) || collection != c.collection {
			t.Fatalf("%s: %+v", c.name, got)
		}
	}
	cr := r.create(t, r.admin, r.guide.Id, "Draft")
	got := getJSON[gen.ContentByUrl](t, r.testServer, r.reader, "/urls/content?url="+url.QueryEscape(testBaseURL+"/app/s/"+r.guide.Id+"/change-requests/"+cr.Id))
	if got.ChangeRequest == nil || got.ChangeRequest.Id != cr.Id {
		t.Fatalf("a change request: %+v", got)
	}
	r.Expect(t, http.StatusNotFound, r.outsider, "GET", "/urls/content?url="+url.QueryEscape(testBaseURL+"/app/s/"+r.guide.Id), nil)
	r.Expect(t, http.StatusNotFound, r.reader, "GET", "/urls/content?url="+url.QueryEscape(testBaseURL+"/app/s/"+r.guide.Id+"/nosuchpage"), nil)
	r.Expect(t, http.StatusNotFound, r.reader, "GET", "/urls/content?url="+url.QueryEscape(testBaseURL+"/elsewhere"), nil)
}

// TestSiteTokenReadsTheSpecificationsItsPagesShow: a page of the site shows an operation of the
// organization's "shown" specification, so the renderer's token reads that one's latest content;
// not "unshown", which no page of the site shows (a page of a space the site does not publish
// does), nor one of another organization.
func TestSiteTokenReadsTheSpecificationsItsPagesShow(t *testing.T) {
	t.Parallel()
	r := newRendered(t)
	org := r.org.Id
	for _, slug := range []string{"shown", "unshown"} {
		r.Expect(t, http.StatusCreated, r.admin, "POST", "/orgs/"+org+"/openapi", map[string]any{"slug": slug, "source": map[string]any{"text": petstore30}})
	}
	if _, err := r.Runner.RunDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.seed(t, r.guide.Id, "Reference", "{% openapi-operation spec=\"shown\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n")
	r.seed(t, r.unlisted.Id, "Internal", "{% openapi-operation spec=\"unshown\" path=\"/pets\" method=\"get\" %}\n")
	res := r.resolve(t, r.reader, map[string]any{"url": "https://docs.acme.test/guide/install"})
	tok := &testUser{ID: "site", Token: str(res.ApiToken)}
	got := r.Expect(t, http.StatusOK, tok, "GET", "/orgs/"+org+"/openapi/shown/versions/latest/content", nil)
	wantPublic(t, "0.202.0", "getLatestOpenAPISpecVersionContent", got)
	r.Expect(t, http.StatusNotFound, tok, "GET", "/orgs/"+org+"/openapi/unshown/versions/latest/content", nil)
	r.Expect(t, http.StatusNotFound, tok, "GET", "/orgs/"+r.other.Id+"/openapi/shown/versions/latest/content", nil)
	wantMessage(t, r.Expect(t, http.StatusForbidden, tok, "GET", "/orgs/"+org+"/openapi/shown", nil), "site token")
	// The page's document holds the block the renderer shows with that content.
	page := getJSON[gen.RevisionPage](t, r.testServer, tok, "/spaces/"+r.guide.Id+"/content/path/reference")
	if b := blocksOf(t, page.Document); len(b) != 1 || !strings.HasPrefix(b[0], `openapi-operation {"method":"get","path":"/pets","ref":{"kind":"openapi","spec":"shown"}}`) {
		t.Fatalf("the page's document: %v", b)
	}
}
