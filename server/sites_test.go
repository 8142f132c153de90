package server_test

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

func (w *world) sitesPath(id string) string {
	if id == "" {
		return "/orgs/" + w.org.Id + "/sites"
	}
	return "/orgs/" + w.org.Id + "/sites/" + id
}

// createSite creates a site in the organization as admin.
func (w *world) createSite(t *testing.T, body map[string]any) gen.Site {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return sendJSON[gen.Site](t, w.testServer, http.StatusCreated, w.admin, "POST", w.sitesPath(""), body)
}

func (w *world) getSite(t *testing.T, u *testUser, id string) gen.Site {
	t.Helper()
	return getJSON[gen.Site](t, w.testServer, u, w.sitesPath(id))
}

func (w *world) patchSite(t *testing.T, id string, body map[string]any) gen.Site {
	t.Helper()
	s := sendJSON[gen.Site](t, w.testServer, http.StatusOK, w.admin, "PATCH", w.sitesPath(id), body)
	if got := w.getSite(t, w.admin, id); !reflect.DeepEqual(got, s) {
		t.Fatalf("PATCH answered %+v, GET answers %+v", s, got)
	}
	return s
}

func (w *world) listSites(t *testing.T, query string) gen.SiteList {
	t.Helper()
	return getJSON[gen.SiteList](t, w.testServer, w.admin, w.sitesPath("")+query)
}

// siteSpaces reads a site's site spaces from the store, in order (the site-spaces operations
// are the site structure's, tested with it).
func (w *world) siteSpaces(t *testing.T, siteID string) []*store.SiteSpace {
	t.Helper()
	l, err := w.Store.FindSiteSpaces(context.Background(), siteID, store.SiteSpaceFilter{}, store.Page{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// siteSpaceRows shows a site's root site spaces as "space path [default]".
func (w *world) siteSpaceRows(t *testing.T, siteID string) []string {
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

func (w *world) wantError(t *testing.T, status int, u *testUser, method, path string, body any, message string) {
	t.Helper()
	r := w.Expect(t, status, u, method, path, body)
	if got := r.ErrorMessage(t); got != message {
		t.Fatalf("%s %s: message %q, want %q", method, path, got, message)
	}
}

func TestSiteCreate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	creator := w.memberWith(t, "create")

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
		if got := w.getSite(t, w.admin, s.Id); !reflect.DeepEqual(got, s) {
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
		before := w.listSites(t, "").Count
		for _, n := range []int{0, 1, 129} {
			r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"title": strings.Repeat("t", n)})
			wantMessage(t, r, `"title"`)
		}
		if after := w.listSites(t, "").Count; after != before {
			t.Fatalf("sites %d -> %d after refused creates", before, after)
		}
	})

	t.Run("UnknownTypeOrVisibilityIs400", func(t *testing.T) {
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"type": "deluxe"}), `"type"`)
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"visibility": "private"}), `"visibility"`)
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
			l := w.listSites(t, "?space="+sp)
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
		before := w.listSites(t, "").Count
		w.wantError(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"spaces": []string{mine.Id, "nope"}},
			`Invalid body field "spaces[1]": no space nope in this organization.`)
		w.wantError(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"spaces": []string{theirs.Id}},
			`Invalid body field "spaces[0]": no space `+theirs.Id+` in this organization.`)
		w.wantError(t, http.StatusBadRequest, w.admin, "POST", w.sitesPath(""), map[string]any{"spaces": []string{mine.Id, gone.Id}},
			`Invalid body field "spaces[1]": no space `+gone.Id+` in this organization.`)
		if after := w.listSites(t, "").Count; after != before {
			t.Fatalf("sites %d -> %d after refused creates", before, after)
		}
		if l := w.listSites(t, "?space="+mine.Id); l.Count != 0 {
			t.Fatalf("a refused create left site spaces: %+v", l)
		}
	})

	t.Run("ACreateMemberCreates", func(t *testing.T) {
		w.Expect(t, http.StatusCreated, creator, "POST", w.sitesPath(""), map[string]any{"title": "By Cora"})
	})
}

func TestSiteList(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
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
				wantIDs(t, tc.name, w.listAll(t, w.admin, w.sitesPath("")+tc.query, limit), tc.want...)
			}
		})
	}

	t.Run("SiteSpacesAreCounted", func(t *testing.T) {
		counts := map[string]int{}
		for _, s := range w.listSites(t, "").Items {
			counts[s.Id] = s.SiteSpaces
		}
		if counts[docs.Id] != 1 || counts[help.Id] != 2 || counts[blog.Id] != 0 {
			t.Fatalf("siteSpaces = %v", counts)
		}
	})

	t.Run("DeletedSpacesAreNeitherCountedNorFound", func(t *testing.T) {
		w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/spaces/"+other.Id, nil)
		if s := w.getSite(t, w.admin, help.Id); s.SiteSpaces != 1 {
			t.Fatalf("siteSpaces = %d after the space was deleted", s.SiteSpaces)
		}
		wantIDs(t, "sites of a deleted space", w.listAll(t, w.admin, w.sitesPath("")+"?space="+other.Id, 10))
	})

	t.Run("BadCursorIs400", func(t *testing.T) {
		w.Expect(t, http.StatusBadRequest, w.admin, "GET", w.sitesPath("")+"?page=garbage", nil)
	})
}

func TestSiteUpdate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
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
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"title": "D"}), `"title"`)
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"agentsContext": "maybe"}), `"agentsContext"`)
		wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"adaptiveContent": map[string]any{}}), "enabled")
	})

	t.Run("EmptyBodyChangesNothing", func(t *testing.T) {
		before := w.getSite(t, w.admin, s.Id)
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
		if got := w.getSite(t, w.admin, other.Id); got.Hostname != nil || got.Title != "Other" {
			t.Fatalf("a refused update changed the site: %+v", got)
		}
		for _, bad := range []string{"acme.com", "Docs.acme.com", "-docs.acme.com", "docs..acme.com", "docs.acme.com.", "docs_x.acme.com", strings.Repeat("a", 64) + ".acme.com"} {
			wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(other.Id), map[string]any{"hostname": bad}), `"hostname"`)
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
			wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"basename": bad}), `"basename"`)
		}
	})

	t.Run("Proxy", func(t *testing.T) {
		got := w.patchSite(t, s.Id, map[string]any{"proxy": "acme.com/docs/v2"})
		if got.Proxy == nil || got.Proxy.Origin != "acme.com/docs/v2" || got.Proxy.Target != got.Urls.App {
			t.Fatalf("proxy = %+v (app %s)", got.Proxy, got.Urls.App)
		}
		w.Expect(t, http.StatusOK, w.admin, "POST", w.sitesPath(s.Id)+"/publish", nil)
		got = w.getSite(t, w.admin, s.Id)
		if got.Proxy == nil || got.Urls.Published == nil || got.Proxy.Target != *got.Urls.Published {
			t.Fatalf("published site's proxy = %+v, urls %+v", got.Proxy, got.Urls)
		}
		for _, bad := range []string{"acme.com", "https://acme.com/docs", "acme/docs", "acme.com/docs/", strings.Repeat("a", 510) + ".com/d"} {
			wantMessage(t, w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"proxy": bad}), `"proxy"`)
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
		wantIDs(t, "default sections", defaults, sections[1])
	})

	t.Run("UnknownDefaultsAre400NamingTheField", func(t *testing.T) {
		before := w.getSite(t, w.admin, s.Id)
		w.wantError(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"defaultSiteSpace": "nope", "title": "Changed"},
			`Invalid body field "defaultSiteSpace": no site space nope in this site.`)
		w.wantError(t, http.StatusBadRequest, w.admin, "PATCH", w.sitesPath(s.Id), map[string]any{"defaultSiteSection": "nope"},
			`Invalid body field "defaultSiteSection": no section nope in this site.`)
		if got := w.getSite(t, w.admin, s.Id); !reflect.DeepEqual(got, before) {
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
