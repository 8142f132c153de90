package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/quire-docs/quire/gen"
)

// visitorToken mints a visitor token with the test server's visitor secret.
func visitorToken(t *testing.T, ts *testServer, claims jwt.MapClaims) string {
	t.Helper()
	if _, ok := claims["exp"]; !ok {
		claims["exp"] = ts.Clock.Now().Add(time.Hour).Unix()
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(ts.Secret)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// publishedTitles is the structure of a published site as section titles with their site
// spaces' titles ("Section: Space, Space"), or just site space titles.
func publishedTitles(t *testing.T, p gen.PublishedContentSite) []string {
	t.Helper()
	var out []string
	var walk func(entries []gen.SiteStructureEntry, prefix string)
	walk = func(entries []gen.SiteStructureEntry, prefix string) {
		for _, e := range entries {
			if sec, err := e.AsSiteSection(); err == nil && sec.Object == gen.SiteSectionObjectSiteSection {
				s := prefix + sec.Title + ":"
				for _, ss := range sec.SiteSpaces {
					s += " " + ss.Title
				}
				out = append(out, s)
				continue
			}
			if g, err := e.AsSiteSectionGroup(); err == nil && g.Object == gen.SiteSectionGroupObjectSiteSectionGroup {
				walk(g.Children, prefix+g.Title+"/")
				continue
			}
			if ss, err := e.AsSiteSpace(); err == nil {
				out = append(out, prefix+ss.Title)
			}
		}
	}
	walk(p.Structure.Structure, "")
	return out
}

func samePublished(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPublishedSiteAdaptsToEachVisitor(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	guide := w.MustCreateSpace(t, w.admin, org, "Guide", "")
	beta := w.MustCreateSpace(t, w.admin, org, "Beta Guide", "")
	api := w.MustCreateSpace(t, w.admin, org, "API", "")
	internal := w.MustCreateSpace(t, w.admin, org, "Internal", "")

	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/sites", map[string]any{"title": "Docs"})
	base := "/orgs/" + org + "/sites/" + site.Id
	var docs, apiSec, staff gen.SiteSection
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/sections", map[string]any{"spaceId": guide.Id, "title": "Docs"}).Decode(t, &docs)
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/sections", map[string]any{"spaceId": api.Id, "title": "API"}).Decode(t, &apiSec)
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/sections", map[string]any{"spaceId": internal.Id, "title": "Staff"}).Decode(t, &staff)
	betaSS := sendJSON[gen.SiteSpace](t, w.testServer, http.StatusCreated, w.admin, "POST", base+"/site-spaces", map[string]any{"spaceId": beta.Id, "sectionId": docs.Id})
	// Adaptive content: the beta guide for beta testers, the API section for paying plans, the
	// staff section for employees.
	w.Expect(t, http.StatusOK, w.admin, "PUT", base+"/adaptive-schema", map[string]any{"jsonSchema": map[string]any{
		"type": "object", "additionalProperties": false,
		"properties": map[string]any{
			"employee": map[string]any{"type": "boolean", "description": "Staff"},
			"plan":     map[string]any{"type": "string", "description": "Plan", "enum": []any{"free", "pro", "enterprise"}},
			"unsigned": map[string]any{"type": "object", "additionalProperties": false,
				"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "Beta tester"}}},
		},
	}})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/site-spaces/"+betaSS.Id, map[string]any{"condition": "visitor.claims.unsigned.beta === true"})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/sections/"+apiSec.Id, map[string]any{"condition": `visitor.claims.plan === "pro" || visitor.claims.plan === "enterprise"`})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/sections/"+staff.Id, map[string]any{"condition": "visitor.claims.employee === true"})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base+"/sections/"+staff.Id, map[string]any{"condition": "visitor.claims.employee == true"})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base, map[string]any{"adaptiveContent": map[string]any{"enabled": true}})

	read := func(t *testing.T, token string) []string {
		t.Helper()
		path := base + "/published"
		if token != "" {
			path += "?visitorToken=" + url.QueryEscape(token)
		}
		p := getJSON[gen.PublishedContentSite](t, w.testServer, w.reader, path)
		if p.Object != gen.PublishedContentSiteObjectPublishedContentSite || p.Site.Id != site.Id || p.Structure.Type != gen.Sections {
			t.Fatalf("published = %+v", p)
		}
		return publishedTitles(t, p)
	}

	t.Run("NotPublishedIsNotFound", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.admin, "GET", base+"/published", nil)
	})
	sendJSON[gen.Site](t, w.testServer, http.StatusOK, w.admin, "POST", base+"/publish", nil)

	anonymous := read(t, "")
	free := read(t, visitorToken(t, w.testServer, jwt.MapClaims{"plan": "free", "unsigned": map[string]any{"beta": true}}))
	pro := read(t, visitorToken(t, w.testServer, jwt.MapClaims{"plan": "pro"}))
	staffView := read(t, visitorToken(t, w.testServer, jwt.MapClaims{"plan": "enterprise", "employee": true, "unsigned": map[string]any{"beta": true}}))

	for name, c := range map[string]struct{ got, want []string }{
		"Anonymous": {anonymous, []string{"Docs: Guide"}},
		"FreeBeta":  {free, []string{"Docs: Guide Beta Guide"}},
		"Pro":       {pro, []string{"Docs: Guide", "API: API"}},
		"Staff":     {staffView, []string{"Docs: Guide Beta Guide", "API: API", "Staff: Internal"}},
	} {
		if !samePublished(c.got, c.want) {
			t.Errorf("%s sees %q, want %q", name, c.got, c.want)
		}
	}
	if samePublished(free, pro) || samePublished(pro, staffView) || samePublished(free, staffView) {
		t.Fatalf("three visitors, three structures expected: %q / %q / %q", free, pro, staffView)
	}

	t.Run("PingTokenWorks", func(t *testing.T) {
		ping := sendJSON[gen.PingResponse](t, w.testServer, http.StatusOK, w.reader, "POST", "/orgs/"+org+"/ping", nil)
		if got := read(t, ping.PlatformVisitorClaims); !samePublished(got, []string{"Docs: Guide"}) {
			t.Fatalf("ping visitor sees %q", got)
		}
	})
	t.Run("BadTokens", func(t *testing.T) {
		forged, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"employee": true}).SignedString([]byte("not the secret"))
		w.Expect(t, http.StatusForbidden, w.reader, "GET", base+"/published?visitorToken="+forged, nil)
		expired := visitorToken(t, w.testServer, jwt.MapClaims{"employee": true, "exp": w.Clock.Now().Add(-time.Minute).Unix()})
		w.Expect(t, http.StatusForbidden, w.reader, "GET", base+"/published?visitorToken="+expired, nil)
	})
	t.Run("VisitorAuthNeedsAToken", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", base, map[string]any{"visibility": "visitor-auth"})
		w.Expect(t, http.StatusForbidden, w.reader, "GET", base+"/published", nil)
		if got := read(t, visitorToken(t, w.testServer, jwt.MapClaims{"plan": "pro"})); !samePublished(got, pro) {
			t.Fatalf("visitor-auth with a token sees %q", got)
		}
	})
	t.Run("ShareLinkNeedsTheKey", func(t *testing.T) {
		s := sendJSON[gen.Site](t, w.testServer, http.StatusOK, w.admin, "PATCH", base, map[string]any{"visibility": "share-link"})
		w.Expect(t, http.StatusNotFound, w.reader, "GET", base+"/published", nil)
		w.Expect(t, http.StatusNotFound, w.reader, "GET", base+"/published?shareKey=wrong", nil)
		u, err := url.Parse(*s.Urls.Published)
		if err != nil {
			t.Fatal(err)
		}
		key := u.Query().Get("share")
		if key == "" {
			t.Fatalf("published URL without its share key: %s", *s.Urls.Published)
		}
		w.Expect(t, http.StatusOK, w.reader, "GET", base+"/published?shareKey="+key, nil)
	})
	t.Run("Access", func(t *testing.T) {
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", base+"/published", nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", base+"/published", nil)
	})
}

func TestPublishedSiteWithoutSections(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.org.Id
	a := w.MustCreateSpace(t, w.admin, org, "Alpha", "")
	b := w.MustCreateSpace(t, w.admin, org, "Bravo", "")
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{a.Id, b.Id}})
	base := "/orgs/" + org + "/sites/" + site.Id
	w.Expect(t, http.StatusOK, w.admin, "POST", base+"/publish", nil)
	p := getJSON[gen.PublishedContentSite](t, w.testServer, w.admin, base+"/published")
	if p.Structure.Type != gen.SiteSpaces || !samePublished(publishedTitles(t, p), []string{"Alpha", "Bravo"}) {
		t.Fatalf("structure = %s %q", p.Structure.Type, publishedTitles(t, p))
	}
	if len(p.Customizations.SiteSpaces) != 2 {
		t.Fatalf("customizations = %+v", p.Customizations)
	}
	// Customizations are complete, with the documented defaults, for the site and each site space.
	wantDefaultCustomizations(t, "site", p.Customizations.Site)
	for id, c := range p.Customizations.SiteSpaces {
		wantDefaultCustomizations(t, id, c)
	}
	if p.Scripts == nil || len(p.Scripts) != 0 {
		t.Fatalf("scripts = %+v", p.Scripts)
	}
	// Deleting the spaces removes their site spaces; the site keeps working, empty.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+a.Id, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+b.Id, nil)
	w.Expect(t, http.StatusOK, w.admin, "GET", base+"/published", nil).Decode(t, &p)
	if len(p.Structure.Structure) != 0 || p.Site.SiteSpaces != 0 {
		t.Fatalf("after deleting its spaces: %+v", p)
	}
}

func TestTransferredSpaceLeavesTheSitesOfItsOldOrganization(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Moving", "")
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{"title": "Docs", "spaces": []string{sp.Id}})
	target := w.MustCreateOrg(t, w.admin, "Elsewhere")
	w.Expect(t, http.StatusOK, w.admin, "POST", "/spaces/"+sp.Id+"/transfer", map[string]any{"organization": target.Id})
	l := getJSON[gen.SiteSpaceList](t, w.testServer, w.admin, "/orgs/"+w.org.Id+"/sites/"+site.Id+"/site-spaces")
	if l.Count != 0 {
		t.Fatalf("the old organization's site still publishes the space: %+v", l)
	}
}

func TestOrganizationDefaultContentIsASite(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	site := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{"title": "Docs"})
	o := sendJSON[gen.Organization](t, w.testServer, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, map[string]any{"defaultContent": map[string]any{"type": "site", "site": site.Id}})
	if o.DefaultContent == nil || o.DefaultContent.Site != site.Id {
		t.Fatalf("defaultContent = %+v", o.DefaultContent)
	}
	theirs := sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.outsider, "POST", "/orgs/"+w.other.Id+"/sites", map[string]any{"title": "Theirs"})
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", "/orgs/"+w.org.Id, map[string]any{"defaultContent": map[string]any{"type": "site", "site": theirs.Id}})
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/orgs/"+w.org.Id+"/sites/"+site.Id, nil)
	after := getJSON[gen.Organization](t, w.testServer, w.admin, "/orgs/"+w.org.Id)
	if after.DefaultContent != nil {
		t.Fatalf("a deleted site is still the default content: %+v", after.DefaultContent)
	}
}

func wantDefaultCustomizations(t *testing.T, of string, c gen.SiteCustomizationSettings) {
	t.Helper()
	st := c.Styling
	font, _ := st.Font.AsCustomizationDefaultFont()
	favicon, _ := c.Favicon.MarshalJSON()
	if st.Theme != gen.CustomizationThemeClean || st.PrimaryColor.Light != "#346DDB" || font != gen.CustomizationDefaultFontInter ||
		st.CodeTheme.Default.Dark != gen.CustomizationCodeThemeDefaultDark || st.Sidebar.List != gen.CustomizationSidebarListStyleDefault ||
		c.Internationalization.Locale != gen.CustomizationLocaleEn || string(favicon) != "{}" ||
		c.Header.Preset != gen.CustomizationHeaderPresetDefault || c.Header.Links == nil || c.Footer.Groups == nil ||
		c.Themes.Default != gen.CustomizationDefaultThemeModeLight || !c.Themes.Toggeable || !c.Pdf.Enabled || c.Ai.Mode != gen.CustomizationAIModeNone ||
		len(c.PageActions.Items) != 2 || !c.PageActions.Markdown || c.ExternalLinks.Target != gen.SiteExternalLinksTargetSelf ||
		c.SocialAccounts == nil || !c.Insights.TrackingCookie || c.Title == nil || *c.Title != "Docs" {
		t.Fatalf("%s customizations = %+v", of, c)
	}
}

// TestGetSiteStructure: members read the whole structure, conditional and draft sections
// included, where a visitor without claims sees only what they may read.
func TestGetSiteStructure(t *testing.T) {
	t.Parallel()
	w := newWebWorld(t)
	base := "/orgs/" + w.org.Id + "/sites/" + w.site.Id
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/sections/"+w.staffSec.Id, map[string]any{"draft": true})
	titles := func(entries []gen.SiteStructureEntry) []string {
		var out []string
		for _, e := range entries {
			sec, err := e.AsSiteSection()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sec.Title)
		}
		return out
	}
	st := getJSON[gen.SiteStructure](t, w.testServer, w.reader, base+"/structure")
	if st.Type != gen.Sections || strings.Join(titles(st.Structure), ",") != "Guide,API,Staff" {
		t.Fatalf("structure: %s %v", st.Type, titles(st.Structure))
	}
	pub := getJSON[gen.PublishedContentSite](t, w.testServer, w.reader, base+"/published")
	if got := strings.Join(titles(pub.Structure.Structure), ","); got != "Guide" {
		t.Fatalf("published for a visitor without claims: %s", got)
	}
	flat := getJSON[gen.SiteStructure](t, w.testServer, w.reader, "/orgs/"+w.org.Id+"/sites/"+w.secret.Id+"/structure")
	if flat.Type != gen.SiteSpaces || len(flat.Structure) != 1 {
		t.Fatalf("a site without sections: %+v", flat)
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", base+"/structure", nil)
}
