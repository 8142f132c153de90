package server_test

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/condition"
	"github.com/quire-docs/quire/store"
)

// siteCoreWorld is the cast of the site tests: the content world (admin, read member, guest,
// outsider) plus a member with the create role.
type siteCoreWorld struct {
	*contentWorld
	creator *testUser
}

func newSiteCoreWorld(t *testing.T) *siteCoreWorld {
	t.Helper()
	w := &siteCoreWorld{contentWorld: newContentWorld(t)}
	w.creator = w.MustCreateUser(t, "cora@creators.test", "Cora")
	w.MustAddMember(t, w.admin, w.org.Id, w.creator, "create")
	return w
}

func (w *siteCoreWorld) sitesPath(id string) string {
	if id == "" {
		return "/orgs/" + w.org.Id + "/sites"
	}
	return "/orgs/" + w.org.Id + "/sites/" + id
}

// createSite creates a site in the organization as admin.
func (w *siteCoreWorld) createSite(t *testing.T, body map[string]any) gen.Site {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	var s gen.Site
	w.Expect(t, http.StatusCreated, w.admin, "POST", w.sitesPath(""), body).Decode(t, &s)
	return s
}

func (w *siteCoreWorld) site(t *testing.T, u *testUser, id string) gen.Site {
	t.Helper()
	var s gen.Site
	w.Expect(t, http.StatusOK, u, "GET", w.sitesPath(id), nil).Decode(t, &s)
	return s
}

func (w *siteCoreWorld) patchSite(t *testing.T, id string, body map[string]any) gen.Site {
	t.Helper()
	var s gen.Site
	w.Expect(t, http.StatusOK, w.admin, "PATCH", w.sitesPath(id), body).Decode(t, &s)
	if got := w.site(t, w.admin, id); !reflect.DeepEqual(got, s) {
		t.Fatalf("PATCH answered %+v, GET answers %+v", s, got)
	}
	return s
}

func (w *siteCoreWorld) sites(t *testing.T, query string) gen.SiteList {
	t.Helper()
	var l gen.SiteList
	w.Expect(t, http.StatusOK, w.admin, "GET", w.sitesPath("")+query, nil).Decode(t, &l)
	return l
}

// allSiteIDs walks every page of a list of sites, checking page sizes and counts.
func (w *siteCoreWorld) allSiteIDs(t *testing.T, query string, limit int) []string {
	t.Helper()
	q := w.query(t, query)
	q.Set("limit", strconv.Itoa(limit))
	var ids []string
	count := -1
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("site paging does not end")
		}
		l := w.sites(t, "?"+q.Encode())
		if len(l.Items) > limit {
			t.Fatalf("page of %d items, limit %d", len(l.Items), limit)
		}
		if count >= 0 && l.Count != count {
			t.Fatalf("count %d on page %d, %d before", l.Count, pages, count)
		}
		count = l.Count
		for _, s := range l.Items {
			ids = append(ids, s.Id)
		}
		if l.Next == nil {
			break
		}
		q.Set("page", l.Next.Page)
	}
	if len(ids) != count {
		t.Fatalf("count %d, but %d items listed", count, len(ids))
	}
	return ids
}

// siteSpaces reads a site's site spaces from the store, in order (the site-spaces operations
// are the site structure's, tested with it).
func (w *siteCoreWorld) siteSpaces(t *testing.T, siteID string) []*store.SiteSpace {
	t.Helper()
	l, err := w.Store.FindSiteSpaces(context.Background(), siteID, store.SiteSpaceFilter{}, store.Page{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// siteSpaceRows shows a site's root site spaces as "space path [default]".
func (w *siteCoreWorld) siteSpaceRows(t *testing.T, siteID string) []string {
	t.Helper()
	out := []string{}
	for _, ss := range w.siteSpaces(t, siteID) {
		if ss.SectionID != nil {
			t.Fatalf("site space %s is in section %s, not at the root", ss.ID, *ss.SectionID)
		}
		row := ss.Space.ID + " " + ss.Path
		if ss.Default {
			row += " default"
		}
		out = append(out, row)
	}
	return out
}

func (w *siteCoreWorld) wantError(t *testing.T, status int, u *testUser, method, path string, body any, message string) {
	t.Helper()
	r := w.Expect(t, status, u, method, path, body)
	if got := r.ErrorMessage(t); got != message {
		t.Fatalf("%s %s: message %q, want %q", method, path, got, message)
	}
}

func TestSiteCreate(t *testing.T) {
	w := newSiteCoreWorld(t)

	t.Run("DefaultsWithAnEmptyBody", func(t *testing.T) {
		s := w.createSite(t, nil)
		if s.Object != "site" || s.Id == "" || s.Type != "basic" || s.Title != "Untitled site" || s.Visibility != "public" {
			t.Fatalf("created %+v", s)
		}
		if s.Published || s.SiteSpaces != 0 || s.AdaptiveContent.Enabled || s.AgentsContext != "included" {
			t.Fatalf("created %+v", s)
		}
		if s.Features == nil || len(s.Features) != 0 || s.Hostname != nil || s.Basename != nil || s.Proxy != nil {
			t.Fatalf("created %+v", s)
		}
		if s.Urls.Location != testBaseURL+"/v1/orgs/"+w.org.Id+"/sites/"+s.Id ||
			s.Urls.App != testBaseURL+"/app/o/"+w.org.Id+"/sites/"+s.Id || s.Urls.Published != nil {
			t.Fatalf("urls = %+v", s.Urls)
		}
		if got := w.site(t, w.admin, s.Id); !reflect.DeepEqual(got, s) {
			t.Fatalf("GET answers %+v, created %+v", got, s)
		}
	})

	t.Run("GivenTypeTitleAndVisibility", func(t *testing.T) {
		s := w.createSite(t, map[string]any{"type": "premium", "title": "Handbook", "visibility": "unlisted"})
		if s.Type != "premium" || s.Title != "Handbook" || s.Visibility != "unlisted" {
			t.Fatalf("created %+v", s)
		}
	})

	t.Run("TitleLengthsFrom2To128", func(t *testing.T) {
		for _, n := range []int{2, 128} {
			title := strings.Repeat("t", n)
			if s := w.createSite(t, map[string]any{"title": title}); s.Title != title {
				t.Fatalf("title %q", s.Title)
			}
		}
		before := w.sites(t, "").Count
		for _, n := range []int{0, 1, 129} {
			r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"title": strings.Repeat("t", n)})
			w.wantMessage(t, r, `"title"`)
		}
		if after := w.sites(t, "").Count; after != before {
			t.Fatalf("sites %d -> %d after refused creates", before, after)
		}
	})

	t.Run("UnknownTypeOrVisibilityIs400", func(t *testing.T) {
		w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"type": "deluxe"}), `"type"`)
		w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"visibility": "private"}), `"visibility"`)
	})

	t.Run("SpacesBecomeRootSiteSpacesInOrder", func(t *testing.T) {
		a := w.MustCreateSpace(t, w.admin, w.org.Id, "Guide", "")
		b := w.MustCreateSpace(t, w.admin, w.org.Id, "Guide", "")
		c := w.MustCreateSpace(t, w.admin, w.org.Id, "API Reference", "")
		s := w.createSite(t, map[string]any{"title": "Docs", "spaces": []string{a.Id, b.Id, c.Id, a.Id}})
		if s.SiteSpaces != 4 {
			t.Fatalf("siteSpaces = %d, want 4", s.SiteSpaces)
		}
		want := []string{a.Id + " guide default", b.Id + " guide-2", c.Id + " api-reference", a.Id + " guide-3"}
		if got := w.siteSpaceRows(t, s.Id); !reflect.DeepEqual(got, want) {
			t.Fatalf("site spaces = %q, want %q", got, want)
		}
		for _, sp := range []string{a.Id, b.Id, c.Id} {
			l := w.sites(t, "?space="+sp)
			if l.Count != 1 || l.Items[0].Id != s.Id {
				t.Fatalf("sites publishing %s: %+v", sp, l)
			}
		}
	})

	t.Run("SpacesMustBeLiveSpacesOfTheOrganization", func(t *testing.T) {
		mine := w.MustCreateSpace(t, w.admin, w.org.Id, "Mine", "")
		gone := w.MustCreateSpace(t, w.admin, w.org.Id, "Gone", "")
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+gone.Id, nil)
		theirs := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
		before := w.sites(t, "").Count
		w.wantError(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"spaces": []string{mine.Id, "nope"}},
			`Invalid body field "spaces[1]": no space nope in this organization.`)
		w.wantError(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"spaces": []string{theirs.Id}},
			`Invalid body field "spaces[0]": no space `+theirs.Id+` in this organization.`)
		w.wantError(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"spaces": []string{mine.Id, gone.Id}},
			`Invalid body field "spaces[1]": no space `+gone.Id+` in this organization.`)
		if after := w.sites(t, "").Count; after != before {
			t.Fatalf("sites %d -> %d after refused creates", before, after)
		}
		if l := w.sites(t, "?space="+mine.Id); l.Count != 0 {
			t.Fatalf("a refused create left site spaces: %+v", l)
		}
	})

	t.Run("ACreateMemberCreates", func(t *testing.T) {
		w.Expect(t, http.StatusCreated, w.creator, "POST", w.sitesPath(""), map[string]any{"title": "By Cora"})
	})
}

func TestSiteList(t *testing.T) {
	w := newSiteCoreWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Product", "")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Other", "")
	docs := w.createSite(t, map[string]any{"title": "Product Docs", "spaces": []string{sp.Id}})
	help := w.createSite(t, map[string]any{"title": "Help center", "spaces": []string{other.Id, sp.Id}})
	blog := w.createSite(t, map[string]any{"title": "Engineering blog"})
	api := w.createSite(t, map[string]any{"title": "API docs"})
	notes := w.createSite(t, map[string]any{"title": "Release notes_100%"})
	w.Expect(t, http.StatusOK, w.admin, "POST", w.sitesPath(help.Id)+"/publish", nil)
	w.Expect(t, http.StatusOK, w.admin, "POST", w.sitesPath(api.Id)+"/publish", nil)
	theirs := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
	w.Expect(t, http.StatusCreated, w.outsider, "POST", "/orgs/"+w.other.Id+"/sites", map[string]any{"title": "Product Docs", "spaces": []string{theirs.Id}})

	all := []string{docs.Id, help.Id, blog.Id, api.Id, notes.Id}
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"All", "", all},
		{"TitleContainsCaseInsensitive", "?title=DOCS", []string{docs.Id, api.Id}},
		{"TitleWithLikeWildcardsIsLiteral", "?title=" + url.QueryEscape("_100%"), []string{notes.Id}},
		{"TitleMatchingNothing", "?title=zzz", nil},
		{"Published", "?published=true", []string{help.Id, api.Id}},
		{"Unpublished", "?published=false", []string{docs.Id, blog.Id, notes.Id}},
		{"Space", "?space=" + sp.Id, []string{docs.Id, help.Id}},
		{"SpaceAndPublished", "?space=" + sp.Id + "&published=true", []string{help.Id}},
		{"SpaceOfAnotherOrganization", "?space=" + theirs.Id, nil},
		{"SpaceAndTitle", "?space=" + other.Id + "&title=help", []string{help.Id}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, limit := range []int{1, 2, 1000} {
				w.wantIDs(t, tc.name, w.allSiteIDs(t, tc.query, limit), tc.want...)
			}
		})
	}

	t.Run("SiteSpacesAreCounted", func(t *testing.T) {
		counts := map[string]int{}
		for _, s := range w.sites(t, "").Items {
			counts[s.Id] = s.SiteSpaces
		}
		if counts[docs.Id] != 1 || counts[help.Id] != 2 || counts[blog.Id] != 0 {
			t.Fatalf("siteSpaces = %v", counts)
		}
	})

	t.Run("DeletedSpacesAreNeitherCountedNorFound", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+other.Id, nil)
		if s := w.site(t, w.admin, help.Id); s.SiteSpaces != 1 {
			t.Fatalf("siteSpaces = %d after the space was deleted", s.SiteSpaces)
		}
		w.wantIDs(t, "sites of a deleted space", w.allSiteIDs(t, "?space="+other.Id, 10))
	})

	t.Run("BadCursorIs400", func(t *testing.T) {
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", w.sitesPath("")+"?page=garbage", nil)
	})
}

func TestSiteUpdate(t *testing.T) {
	w := newSiteCoreWorld(t)
	s := w.createSite(t, map[string]any{"title": "Docs"})
	other := w.createSite(t, map[string]any{"title": "Other"})

	t.Run("TitleVisibilityAdaptiveContentAgentsContext", func(t *testing.T) {
		got := w.patchSite(t, s.Id, map[string]any{"title": "Docs 2", "visibility": "visitor-auth",
			"adaptiveContent": map[string]any{"enabled": true}, "agentsContext": "excluded"})
		if got.Title != "Docs 2" || got.Visibility != "visitor-auth" || !got.AdaptiveContent.Enabled || got.AgentsContext != "excluded" {
			t.Fatalf("updated %+v", got)
		}
		got = w.patchSite(t, s.Id, map[string]any{"adaptiveContent": map[string]any{"enabled": false}, "agentsContext": "included"})
		if got.Title != "Docs 2" || got.AdaptiveContent.Enabled || got.AgentsContext != "included" {
			t.Fatalf("updated %+v", got)
		}
		w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"title": "D"}), `"title"`)
		w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"agentsContext": "maybe"}), `"agentsContext"`)
		w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"adaptiveContent": map[string]any{}}), "enabled")
	})

	t.Run("EmptyBodyChangesNothing", func(t *testing.T) {
		before := w.site(t, w.admin, s.Id)
		if got := w.patchSite(t, s.Id, map[string]any{}); !reflect.DeepEqual(got, before) {
			t.Fatalf("empty update: %+v, before %+v", got, before)
		}
	})

	t.Run("Hostname", func(t *testing.T) {
		if got := w.patchSite(t, s.Id, map[string]any{"hostname": "docs.acme.com"}); got.Hostname == nil || *got.Hostname != "docs.acme.com" {
			t.Fatalf("hostname = %v", got.Hostname)
		}
		// Setting a site's own hostname again is no conflict.
		w.patchSite(t, s.Id, map[string]any{"hostname": "docs.acme.com", "title": "Docs 3"})
		w.wantError(t, http.StatusConflict, w.admin, "PATCH", w.sitesPath(other.Id), map[string]any{"hostname": "docs.acme.com", "title": "Changed"},
			"The hostname docs.acme.com is already used by another site.")
		if got := w.site(t, w.admin, other.Id); got.Hostname != nil || got.Title != "Other" {
			t.Fatalf("a refused update changed the site: %+v", got)
		}
		for _, bad := range []string{"acme.com", "Docs.acme.com", "-docs.acme.com", "docs..acme.com", "docs.acme.com.", "docs_x.acme.com", strings.Repeat("a", 64) + ".acme.com"} {
			w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(other.Id), map[string]any{"hostname": bad}), `"hostname"`)
		}
		if got := w.patchSite(t, s.Id, map[string]any{"hostname": nil}); got.Hostname != nil {
			t.Fatalf("hostname = %v after null", *got.Hostname)
		}
		// Freed, the hostname can go to another site.
		if got := w.patchSite(t, other.Id, map[string]any{"hostname": "docs.acme.com"}); got.Hostname == nil {
			t.Fatal("hostname not set")
		}
	})

	t.Run("Basename", func(t *testing.T) {
		b := strings.Repeat("b", 100)
		if got := w.patchSite(t, s.Id, map[string]any{"basename": b}); got.Basename == nil || *got.Basename != b {
			t.Fatalf("basename = %v", got.Basename)
		}
		for _, bad := range []string{"", strings.Repeat("b", 101)} {
			w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"basename": bad}), `"basename"`)
		}
	})

	t.Run("Proxy", func(t *testing.T) {
		got := w.patchSite(t, s.Id, map[string]any{"proxy": "acme.com/docs/v2"})
		if got.Proxy == nil || got.Proxy.Origin != "acme.com/docs/v2" || got.Proxy.Target != got.Urls.App {
			t.Fatalf("proxy = %+v (app %s)", got.Proxy, got.Urls.App)
		}
		w.Expect(t, http.StatusOK, w.admin, "POST", w.sitesPath(s.Id)+"/publish", nil)
		got = w.site(t, w.admin, s.Id)
		if got.Proxy == nil || got.Urls.Published == nil || got.Proxy.Target != *got.Urls.Published {
			t.Fatalf("published site's proxy = %+v, urls %+v", got.Proxy, got.Urls)
		}
		for _, bad := range []string{"acme.com", "https://acme.com/docs", "acme/docs", "acme.com/docs/", strings.Repeat("a", 510) + ".com/d"} {
			w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"proxy": bad}), `"proxy"`)
		}
		if got := w.patchSite(t, s.Id, map[string]any{"proxy": nil}); got.Proxy != nil {
			t.Fatalf("proxy = %+v after null", got.Proxy)
		}
	})

	t.Run("DefaultSiteSpace", func(t *testing.T) {
		a := w.MustCreateSpace(t, w.admin, w.org.Id, "Alpha", "")
		b := w.MustCreateSpace(t, w.admin, w.org.Id, "Beta", "")
		site := w.createSite(t, map[string]any{"title": "Two", "spaces": []string{a.Id, b.Id}})
		ids := []string{}
		for _, ss := range w.siteSpaces(t, site.Id) {
			ids = append(ids, ss.ID)
		}
		got := w.patchSite(t, site.Id, map[string]any{"defaultSiteSpace": ids[1], "title": "Two 2"})
		if got.Title != "Two 2" {
			t.Fatalf("title = %q", got.Title)
		}
		want := []string{a.Id + " alpha", b.Id + " beta default"}
		if rows := w.siteSpaceRows(t, site.Id); !reflect.DeepEqual(rows, want) {
			t.Fatalf("site spaces = %q, want %q", rows, want)
		}
		// Another site's site space is not this site's.
		w.wantError(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"defaultSiteSpace": ids[0]},
			`Invalid body field "defaultSiteSpace": no site space `+ids[0]+` in this site.`)
	})

	t.Run("DefaultSiteSection", func(t *testing.T) {
		site := w.createSite(t, map[string]any{"title": "Sectioned"})
		var sections []string
		for _, title := range []string{"Alpha", "Beta"} {
			sp := w.MustCreateSpace(t, w.admin, w.org.Id, title, "")
			sec, err := w.Store.AddSiteSection(context.Background(), site.Id, store.SiteSectionCreate{SpaceID: sp.Id})
			if err != nil {
				t.Fatal(err)
			}
			sections = append(sections, sec.ID)
		}
		w.patchSite(t, site.Id, map[string]any{"defaultSiteSection": sections[1]})
		l, err := w.Store.FindSiteSections(context.Background(), site.Id, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		var defaults []string
		for _, sec := range l.Items {
			if sec.Default {
				defaults = append(defaults, sec.ID)
			}
		}
		w.wantIDs(t, "default sections", defaults, sections[1])
	})

	t.Run("UnknownDefaultsAre400NamingTheField", func(t *testing.T) {
		before := w.site(t, w.admin, s.Id)
		w.wantError(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"defaultSiteSpace": "nope", "title": "Changed"},
			`Invalid body field "defaultSiteSpace": no site space nope in this site.`)
		w.wantError(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"defaultSiteSection": "nope"},
			`Invalid body field "defaultSiteSection": no section nope in this site.`)
		if got := w.site(t, w.admin, s.Id); !reflect.DeepEqual(got, before) {
			t.Fatalf("a refused update changed the site: %+v, before %+v", got, before)
		}
	})

	t.Run("UnknownFieldIs400", func(t *testing.T) {
		w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"icon": "x"})
	})

	t.Run("MissingSiteIs404", func(t *testing.T) {
		w.wantError(t, http.StatusNotFound, w.admin, "PATCH", w.sitesPath("nope"), map[string]any{"title": "Xy"}, "Site not found.")
	})
}

func TestSitePublish(t *testing.T) {
	w := newSiteCoreWorld(t)
	s := w.createSite(t, map[string]any{"title": "Docs"})
	publish := func(t *testing.T, id, op string) gen.Site {
		t.Helper()
		var got gen.Site
		w.Expect(t, http.StatusOK, w.admin, "POST", w.sitesPath(id)+"/"+op, nil).Decode(t, &got)
		if again := w.site(t, w.admin, id); !reflect.DeepEqual(again, got) {
			t.Fatalf("%s answered %+v, GET answers %+v", op, got, again)
		}
		return got
	}

	got := publish(t, s.Id, "publish")
	if !got.Published || got.Urls.Published == nil || *got.Urls.Published != testBaseURL+"/s/"+s.Id {
		t.Fatalf("published: %+v", got)
	}
	if again := publish(t, s.Id, "publish"); !again.Published {
		t.Fatal("publishing twice unpublished")
	}
	got = publish(t, s.Id, "unpublish")
	if got.Published || got.Urls.Published != nil {
		t.Fatalf("unpublished: %+v", got)
	}
	if again := publish(t, s.Id, "unpublish"); again.Published {
		t.Fatal("unpublishing twice published")
	}

	t.Run("ShareLinkSitesCarryTheirShareKey", func(t *testing.T) {
		a := w.createSite(t, map[string]any{"title": "Secret A", "visibility": "share-link"})
		b := w.createSite(t, map[string]any{"title": "Secret B", "visibility": "share-link"})
		pa, pb := publish(t, a.Id, "publish"), publish(t, b.Id, "publish")
		prefix := testBaseURL + "/s/" + a.Id + "?share="
		if pa.Urls.Published == nil || !strings.HasPrefix(*pa.Urls.Published, prefix) || len(*pa.Urls.Published) < len(prefix)+20 {
			t.Fatalf("share-link url = %v", pa.Urls.Published)
		}
		keyA := strings.TrimPrefix(*pa.Urls.Published, prefix)
		keyB := strings.TrimPrefix(*pb.Urls.Published, testBaseURL+"/s/"+b.Id+"?share=")
		if keyA == keyB {
			t.Fatal("two sites share a share key")
		}
		if again := w.site(t, w.admin, a.Id); *again.Urls.Published != *pa.Urls.Published {
			t.Fatal("the share key changed between reads")
		}
		// Made public, the site's URL drops the key.
		if got := w.patchSite(t, a.Id, map[string]any{"visibility": "public"}); *got.Urls.Published != testBaseURL+"/s/"+a.Id {
			t.Fatalf("public url = %s", *got.Urls.Published)
		}
	})

	t.Run("MissingSiteIs404", func(t *testing.T) {
		w.wantError(t, http.StatusNotFound, w.admin, "POST", w.sitesPath("nope")+"/publish", nil, "Site not found.")
		w.wantError(t, http.StatusNotFound, w.admin, "POST", w.sitesPath("nope")+"/unpublish", nil, "Site not found.")
	})
}

func TestSiteDelete(t *testing.T) {
	w := newSiteCoreWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Guide", "")
	s := w.createSite(t, map[string]any{"title": "Docs", "spaces": []string{sp.Id}})

	w.Expect(t, http.StatusForbidden, w.creator, "DELETE", w.sitesPath(s.Id), nil)
	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", w.sitesPath(s.Id), nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.sitesPath(s.Id), nil)
	w.wantError(t, http.StatusNotFound, w.admin, "GET", w.sitesPath(s.Id), nil, "Site not found.")
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.sitesPath(s.Id), nil)
	if l := w.sites(t, "?space="+sp.Id); l.Count != 0 {
		t.Fatalf("a deleted site still publishes the space: %+v", l)
	}
	if l := w.sites(t, ""); l.Count != 0 {
		t.Fatalf("sites after delete: %+v", l)
	}
	// The space itself stays.
	w.space(t, w.admin, sp.Id)
}

// validSiteSchema is a visitor schema with signed and unsigned claims.
func validSiteSchema() map[string]any {
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type":    "object",
		"properties": map[string]any{
			"isBeta": map[string]any{"type": "boolean", "description": "Beta testers"},
			"admin":  map[string]any{"type": "boolean", "description": "Administrators"},
			"unsigned": map[string]any{
				"type":        "object",
				"description": "Unsigned claims of the site visitor.",
				"properties": map[string]any{
					"wantsDark": map[string]any{"type": "boolean", "description": "Prefers the dark theme"},
					"_lang_en":  map[string]any{"type": "boolean", "description": "Reads English"},
				},
				"additionalProperties": false,
			},
		},
		"additionalProperties": false,
	}
}

func TestSiteAdaptiveSchema(t *testing.T) {
	w := newSiteCoreWorld(t)
	s := w.createSite(t, map[string]any{"title": "Docs"})
	path := w.sitesPath(s.Id) + "/adaptive-schema"
	conditions := func(t *testing.T, u *testUser) []gen.SiteTemplateCondition {
		t.Helper()
		var l gen.SiteTemplateConditionList
		w.Expect(t, http.StatusOK, u, "GET", path+"/template-conditions", nil).Decode(t, &l)
		return l.Items
	}

	t.Run("EmptyBeforeAnyPut", func(t *testing.T) {
		var got gen.SiteAdaptiveSchema
		w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Decode(t, &got)
		want := gen.SiteAdaptiveJSONSchema{"type": "object", "properties": map[string]any{}, "additionalProperties": false}
		if got.Object != "site-adaptive-schema" || !reflect.DeepEqual(got.JsonSchema, want) || !got.UpdatedAt.Equal(s.CreatedAt) {
			t.Fatalf("schema before any put: %+v (site created %s)", got, s.CreatedAt)
		}
		if c := conditions(t, w.admin); len(c) != 0 {
			t.Fatalf("conditions of the empty schema: %+v", c)
		}
	})

	t.Run("RoundTrip", func(t *testing.T) {
		var put, got gen.SiteAdaptiveSchema
		w.Expect(t, http.StatusOK, w.creator, "PUT", path, map[string]any{"jsonSchema": validSiteSchema()}).Decode(t, &put)
		w.Expect(t, http.StatusOK, w.reader, "GET", path, nil).Decode(t, &got)
		if !reflect.DeepEqual(map[string]any(got.JsonSchema), validSiteSchema()) || !reflect.DeepEqual(put, got) {
			t.Fatalf("stored %+v, put answered %+v", got.JsonSchema, put)
		}
		if !got.UpdatedAt.After(s.CreatedAt) {
			t.Fatalf("updatedAt %s, site created %s", got.UpdatedAt, s.CreatedAt)
		}
	})

	t.Run("TemplateConditionsOnePerClaimSignedFirst", func(t *testing.T) {
		want := []gen.SiteTemplateCondition{
			{Condition: "visitor.claims.admin === true", Description: "Administrators"},
			{Condition: "visitor.claims.isBeta === true", Description: "Beta testers"},
			{Condition: "visitor.claims.unsigned._lang_en === true", Description: "Reads English"},
			{Condition: "visitor.claims.unsigned.wantsDark === true", Description: "Prefers the dark theme"},
		}
		for i := 0; i < 3; i++ {
			if got := conditions(t, w.reader); !reflect.DeepEqual(got, want) {
				t.Fatalf("conditions = %+v, want %+v", got, want)
			}
		}
		// They are conditions a section or site space can be given as they are.
		for _, c := range want {
			if _, err := condition.Parse(c.Condition); err != nil {
				t.Fatalf("%s does not parse: %v", c.Condition, err)
			}
		}
	})

	t.Run("SchemaWithoutUnsignedOrSchemaKeyword", func(t *testing.T) {
		schema := map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"paid": map[string]any{"type": "boolean", "description": "Paying"}}}
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"jsonSchema": schema})
		want := []gen.SiteTemplateCondition{{Condition: "visitor.claims.paid === true", Description: "Paying"}}
		if got := conditions(t, w.admin); !reflect.DeepEqual(got, want) {
			t.Fatalf("conditions = %+v", got)
		}
		w.Expect(t, http.StatusOK, w.admin, "PUT", path, map[string]any{"jsonSchema": validSiteSchema()})
	})

	with := func(edit func(m map[string]any)) map[string]any {
		m := validSiteSchema()
		edit(m)
		return m
	}
	props := func(m map[string]any) map[string]any { return m["properties"].(map[string]any) }
	unsigned := func(m map[string]any) map[string]any { return props(m)["unsigned"].(map[string]any) }
	for _, tc := range []struct {
		name    string
		schema  map[string]any
		message string
	}{
		{"TypeNotObject", with(func(m map[string]any) { m["type"] = "array" }), `Invalid body field "jsonSchema.type": must be "object".`},
		{"TypeMissing", with(func(m map[string]any) { delete(m, "type") }), `Invalid body field "jsonSchema.type": must be "object".`},
		{"OtherDraft", with(func(m map[string]any) { m["$schema"] = "https://json-schema.org/draft/2020-12/schema" }),
			`Invalid body field "jsonSchema.$schema": must be "http://json-schema.org/draft-07/schema#".`},
		{"AdditionalPropertiesMissing", with(func(m map[string]any) { delete(m, "additionalProperties") }),
			`Invalid body field "jsonSchema.additionalProperties": must be false.`},
		{"AdditionalPropertiesTrue", with(func(m map[string]any) { m["additionalProperties"] = true }),
			`Invalid body field "jsonSchema.additionalProperties": must be false.`},
		{"UnsupportedKeyword", with(func(m map[string]any) { m["required"] = []any{"admin"} }),
			`Invalid body field "jsonSchema.required": not supported: a visitor schema has only $schema, type, properties, additionalProperties.`},
		{"TopLevelDescription", with(func(m map[string]any) { m["description"] = "Visitors" }),
			`Invalid body field "jsonSchema.description": not supported: a visitor schema has only $schema, type, properties, additionalProperties.`},
		{"PropertiesNotAnObject", with(func(m map[string]any) { m["properties"] = []any{} }), `Invalid body field "jsonSchema.properties": must be an object.`},
		{"PropertiesMissing", with(func(m map[string]any) { delete(m, "properties") }), `Invalid body field "jsonSchema.properties": must be an object.`},
		{"ClaimOfUnknownType", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"type": "integer", "description": "Plan"} }),
			`Invalid body field "jsonSchema.properties.plan.type": must be one of "boolean", "string", "number", "array", "object".`},
		{"ClaimWithoutType", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"description": "Plan"} }),
			`Invalid body field "jsonSchema.properties.plan.type": must be one of "boolean", "string", "number", "array", "object".`},
		{"ClaimNotASchema", with(func(m map[string]any) { props(m)["plan"] = true }), `Invalid body field "jsonSchema.properties.plan": must be an object.`},
		{"ClaimWithOtherKeyword", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "boolean", "description": "x", "default": true}
		}),
			`Invalid body field "jsonSchema.properties.plan.default": not supported: a boolean claim has only type, description.`},
		{"ClaimWithoutDescription", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"type": "boolean"} }),
			`Invalid body field "jsonSchema.properties.plan.description": is required (every claim describes itself).`},
		{"ClaimDescriptionNotAString", with(func(m map[string]any) { props(m)["plan"] = map[string]any{"type": "boolean", "description": 3} }),
			`Invalid body field "jsonSchema.properties.plan.description": must be a string of at most 1024 bytes.`},
		{"BooleanWithEnum", with(func(m map[string]any) {
			props(m)["b"] = map[string]any{"type": "boolean", "description": "x", "enum": []any{true}}
		}),
			`Invalid body field "jsonSchema.properties.b.enum": not supported: a boolean claim has only type, description.`},
		{"NumberWithMinimum", with(func(m map[string]any) {
			props(m)["n"] = map[string]any{"type": "number", "description": "x", "minimum": 1}
		}),
			`Invalid body field "jsonSchema.properties.n.minimum": not supported: a number claim has only type, description.`},
		{"EnumEmpty", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum": must be a list of 1 to 100 strings.`},
		{"EnumNotStrings", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{"a", 2}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum[1]": must be a string of at most 256 bytes, on one line.`},
		{"EnumRepeated", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{"a", "a"}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum[1]": repeats "a".`},
		{"EnumLineBreak", with(func(m map[string]any) {
			props(m)["plan"] = map[string]any{"type": "string", "description": "x", "enum": []any{"a\nb"}}
		}),
			`Invalid body field "jsonSchema.properties.plan.enum[0]": must be a string of at most 256 bytes, on one line.`},
		{"ArrayWithoutItems", with(func(m map[string]any) { props(m)["tags"] = map[string]any{"type": "array", "description": "x"} }),
			`Invalid body field "jsonSchema.properties.tags.items": must be an object.`},
		{"ArrayOfArrays", with(func(m map[string]any) {
			props(m)["tags"] = map[string]any{"type": "array", "description": "x", "items": map[string]any{"type": "array", "description": "y"}}
		}), `Invalid body field "jsonSchema.properties.tags.items.type": must be one of "boolean", "string", "number".`},
		{"ArrayItemsWithoutDescription", with(func(m map[string]any) {
			props(m)["tags"] = map[string]any{"type": "array", "description": "x", "items": map[string]any{"type": "string"}}
		}), `Invalid body field "jsonSchema.properties.tags.items.description": is required (every claim describes itself).`},
		{"ArrayItemsNumberEnum", with(func(m map[string]any) {
			props(m)["ids"] = map[string]any{"type": "array", "description": "x", "items": map[string]any{"type": "number", "description": "y", "enum": []any{"1"}}}
		}), `Invalid body field "jsonSchema.properties.ids.items.enum": not supported: the items of an array claim has only type, description.`},
		{"ObjectOpen", with(func(m map[string]any) {
			props(m)["company"] = map[string]any{"type": "object", "description": "x", "properties": map[string]any{}}
		}), `Invalid body field "jsonSchema.properties.company.additionalProperties": must be false.`},
		{"ObjectWithoutProperties", with(func(m map[string]any) {
			props(m)["company"] = map[string]any{"type": "object", "description": "x", "additionalProperties": false}
		}), `Invalid body field "jsonSchema.properties.company.properties": must be an object.`},
		{"ObjectBadNestedClaim", with(func(m map[string]any) {
			props(m)["company"] = map[string]any{"type": "object", "description": "x", "additionalProperties": false,
				"properties": map[string]any{"tier": map[string]any{"type": "string"}}}
		}), `Invalid body field "jsonSchema.properties.company.properties.tier.description": is required (every claim describes itself).`},
		{"ObjectTooDeep", with(func(m map[string]any) {
			var o any = map[string]any{"type": "boolean", "description": "leaf"}
			for i := 0; i < 5; i++ {
				o = map[string]any{"type": "object", "description": "level", "additionalProperties": false, "properties": map[string]any{"x": o}}
			}
			props(m)["deep"] = o
		}), `Invalid body field "jsonSchema.properties.deep.properties.x.properties.x.properties.x.properties.x": nests objects deeper than 4 levels.`},
		{"BadClaimName", with(func(m map[string]any) { props(m)["is-beta"] = map[string]any{"type": "boolean", "description": "x"} }),
			`Invalid body field "jsonSchema.properties": claim name "is-beta" must match ^[a-zA-Z_][a-zA-Z0-9_]*$.`},
		{"ClaimNameStartingWithADigit", with(func(m map[string]any) { props(m)["1st"] = map[string]any{"type": "boolean", "description": "x"} }),
			`Invalid body field "jsonSchema.properties": claim name "1st" must match ^[a-zA-Z_][a-zA-Z0-9_]*$.`},
		{"UnsignedAsBoolean", with(func(m map[string]any) { props(m)["unsigned"] = map[string]any{"type": "boolean"} }),
			`Invalid body field "jsonSchema.properties.unsigned.type": must be "object".`},
		{"UnsignedOpen", with(func(m map[string]any) { delete(unsigned(m), "additionalProperties") }),
			`Invalid body field "jsonSchema.properties.unsigned.additionalProperties": must be false.`},
		{"UnsignedWithoutProperties", with(func(m map[string]any) { delete(unsigned(m), "properties") }),
			`Invalid body field "jsonSchema.properties.unsigned.properties": must be an object.`},
		{"UnsignedOtherDescription", with(func(m map[string]any) { unsigned(m)["description"] = "Claims the visitor sets" }),
			`Invalid body field "jsonSchema.properties.unsigned.description": must be "Unsigned claims of the site visitor.".`},
		{"UnsignedClaimOfUnknownType", with(func(m map[string]any) {
			unsigned(m)["properties"].(map[string]any)["n"] = map[string]any{"type": "null", "description": "x"}
		}), `Invalid body field "jsonSchema.properties.unsigned.properties.n.type": must be one of "boolean", "string", "number", "array", "object".`},
		{"UnsignedBadClaimName", with(func(m map[string]any) {
			unsigned(m)["properties"].(map[string]any)["a b"] = map[string]any{"type": "boolean", "description": "x"}
		}), `Invalid body field "jsonSchema.properties.unsigned.properties": claim name "a b" must match ^[a-zA-Z_][a-zA-Z0-9_]*$.`},
	} {
		t.Run("Invalid"+tc.name, func(t *testing.T) {
			w.wantError(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{"jsonSchema": tc.schema}, tc.message)
			var got gen.SiteAdaptiveSchema
			w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Decode(t, &got)
			if !reflect.DeepEqual(map[string]any(got.JsonSchema), validSiteSchema()) {
				t.Fatalf("a refused put changed the schema: %+v", got.JsonSchema)
			}
		})
	}

	t.Run("JSONSchemaRequired", func(t *testing.T) {
		w.wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{}), "jsonSchema")
		w.Expect(t, http.StatusBadRequest, w.admin, "PUT", path, map[string]any{"jsonSchema": "x"})
	})

	t.Run("MissingSiteIs404", func(t *testing.T) {
		p := w.sitesPath("nope") + "/adaptive-schema"
		w.wantError(t, http.StatusNotFound, w.admin, "GET", p, nil, "Site not found.")
		w.wantError(t, http.StatusNotFound, w.admin, "PUT", p, map[string]any{"jsonSchema": validSiteSchema()}, "Site not found.")
		w.wantError(t, http.StatusNotFound, w.admin, "GET", p+"/template-conditions", nil, "Site not found.")
	})
}

func TestSiteAccess(t *testing.T) {
	w := newSiteCoreWorld(t)
	s := w.createSite(t, map[string]any{"title": "Docs"})
	theirs := map[string]any{}
	var their gen.Site
	w.Expect(t, http.StatusCreated, w.outsider, "POST", "/orgs/"+w.other.Id+"/sites", theirs).Decode(t, &their)

	type op struct {
		method, path string
		body         any
		write        bool
	}
	ops := func(siteID string) []op {
		p := w.sitesPath(siteID)
		return []op{
			{"GET", p, nil, false},
			{"PATCH", p, map[string]any{"title": "Renamed"}, true},
			{"POST", p + "/publish", nil, true},
			{"POST", p + "/unpublish", nil, true},
			{"GET", p + "/adaptive-schema", nil, false},
			{"PUT", p + "/adaptive-schema", map[string]any{"jsonSchema": validSiteSchema()}, true},
			{"GET", p + "/adaptive-schema/template-conditions", nil, false},
		}
	}

	t.Run("OutsiderGets404", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.wantError(t, http.StatusNotFound, w.outsider, o.method, o.path, o.body, "Site not found.")
		}
		w.Expect(t, http.StatusNotFound, w.outsider, "GET", w.sitesPath(""), nil)
		w.Expect(t, http.StatusNotFound, w.outsider, "POST", w.sitesPath(""), map[string]any{})
		w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", w.sitesPath(s.Id), nil)
		w.site(t, w.admin, s.Id)
	})

	t.Run("AnotherOrganizationsSiteUnderThisOrganizationIs404", func(t *testing.T) {
		for _, o := range ops(their.Id) {
			w.wantError(t, http.StatusNotFound, w.admin, o.method, o.path, o.body, "Site not found.")
		}
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", w.sitesPath(their.Id), nil)
		w.Expect(t, http.StatusOK, w.outsider, "GET", "/orgs/"+w.other.Id+"/sites/"+their.Id, nil)
	})

	t.Run("ReadMemberReadsButCannotWrite", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			if o.write {
				w.wantError(t, http.StatusForbidden, w.reader, o.method, o.path, o.body, "This needs the create role in the organization.")
			} else {
				w.Expect(t, http.StatusOK, w.reader, o.method, o.path, o.body)
			}
		}
		if l := w.Expect(t, http.StatusOK, w.reader, "GET", w.sitesPath(""), nil).Map(t); l["count"] != float64(1) {
			t.Fatalf("reader's list: %v", l)
		}
		w.wantError(t, http.StatusForbidden, w.reader, "POST", w.sitesPath(""), map[string]any{}, "This needs the create role in the organization.")
		w.wantError(t, http.StatusForbidden, w.reader, "DELETE", w.sitesPath(s.Id), nil, "This needs the admin role in the organization.")
		if got := w.site(t, w.admin, s.Id); got.Title != "Docs" {
			t.Fatalf("a refused write changed the site: %+v", got)
		}
	})

	t.Run("CreateMemberWritesButCannotDelete", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.Expect(t, http.StatusOK, w.creator, o.method, o.path, o.body)
		}
		w.wantError(t, http.StatusForbidden, w.creator, "DELETE", w.sitesPath(s.Id), nil, "This needs the admin role in the organization.")
	})

	t.Run("GuestGets403", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.Expect(t, http.StatusForbidden, w.guest, o.method, o.path, o.body)
		}
		w.Expect(t, http.StatusForbidden, w.guest, "GET", w.sitesPath(""), nil)
		w.Expect(t, http.StatusForbidden, w.guest, "POST", w.sitesPath(""), map[string]any{})
		w.Expect(t, http.StatusForbidden, w.guest, "DELETE", w.sitesPath(s.Id), nil)
	})

	t.Run("NoTokenGets401", func(t *testing.T) {
		for _, o := range ops(s.Id) {
			w.Expect(t, http.StatusUnauthorized, nil, o.method, o.path, o.body)
		}
		w.Expect(t, http.StatusUnauthorized, nil, "GET", w.sitesPath(""), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "POST", w.sitesPath(""), map[string]any{})
		w.Expect(t, http.StatusUnauthorized, nil, "DELETE", w.sitesPath(s.Id), nil)
	})
}
