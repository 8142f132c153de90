package server_test

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// The fields 0.202.0 added to spaces, change requests and organizations: a space's icon and
// language zh-tw, a change request's links, an organization's onboarding preferences.

func TestSpaceIcon(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	path := "/spaces/" + sp.Id
	const icon = "https://cdn.example.test/icon.png"
	w.Expect(t, http.StatusOK, w.admin, "PATCH", path, map[string]any{"emoji": "📗"})

	got := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", path, map[string]any{"icon": icon})
	for what, s := range map[string]gen.Space{"answered": got, "re-read": w.spaceAs(t, w.reader, sp.Id)} {
		if s.Urls.Icon == nil || *s.Urls.Icon != icon || s.Emoji != "" {
			t.Fatalf("%s: icon %v, emoji %q; want the icon in place of the emoji", what, s.Urls.Icon, s.Emoji)
		}
	}
	t.Run("Duplicated", func(t *testing.T) {
		dup := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "POST", path+"/duplicate", nil)
		if dup.Urls.Icon == nil || *dup.Urls.Icon != icon {
			t.Fatalf("the duplicate's icon %v", dup.Urls.Icon)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		for name, body := range map[string]map[string]any{
			"not http":          {"icon": "javascript:alert(1)"},
			"relative":          {"icon": "/icon.png"},
			"not a string":      {"icon": 7},
			"emoji and an icon": {"icon": icon, "emoji": "📘"},
		} {
			r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", path, body)
			if name != "not a string" {
				wantMessage(t, r, "icon")
			}
		}
		if s := w.space(t, sp.Id); s.Urls.Icon == nil || *s.Urls.Icon != icon || s.Emoji != "" {
			t.Fatalf("refused updates changed the space: icon %v, emoji %q", s.Urls.Icon, s.Emoji)
		}
	})
	t.Run("AnEmojiReplacesIt", func(t *testing.T) {
		s := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", path, map[string]any{"emoji": "📘"})
		if s.Urls.Icon != nil || s.Emoji != "📘" {
			t.Fatalf("icon %v, emoji %q", s.Urls.Icon, s.Emoji)
		}
	})
	t.Run("NullRemovesThem", func(t *testing.T) {
		w.Expect(t, http.StatusOK, w.admin, "PATCH", path, map[string]any{"icon": icon})
		s := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", path, map[string]any{"icon": nil})
		if s.Urls.Icon != nil || s.Emoji != "" {
			t.Fatalf("after icon null: icon %v, emoji %q", s.Urls.Icon, s.Emoji)
		}
		w.Expect(t, http.StatusOK, w.admin, "PATCH", path, map[string]any{"emoji": "📙"})
		s = sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", path, map[string]any{"emoji": nil, "icon": nil})
		if s = w.space(t, sp.Id); s.Urls.Icon != nil || s.Emoji != "" {
			t.Fatalf("after both null: icon %v, emoji %q", s.Urls.Icon, s.Emoji)
		}
	})
	t.Run("AdminsOnly", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.editor, "PATCH", path, map[string]any{"icon": icon})
		if s := w.space(t, sp.Id); s.Urls.Icon != nil {
			t.Fatalf("an editor set the icon")
		}
	})
}

func TestSpaceLanguageZhTw(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := sendJSON[gen.Space](t, w.testServer, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/spaces",
		map[string]any{"title": "文件", "language": "zh-tw"})
	if sp.Language == nil || *sp.Language != "zh-tw" {
		t.Fatalf("language %v", sp.Language)
	}
	got := sendJSON[gen.Space](t, w.testServer, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"language": "zh"})
	if got.Language == nil || *got.Language != "zh" {
		t.Fatalf("language %v", got.Language)
	}
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"language": "zh-tw"})
	if re := w.space(t, sp.Id); re.Language == nil || *re.Language != "zh-tw" {
		t.Fatalf("re-read language %v", re.Language)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"language": "zh-hk"})
}

func TestChangeRequestLinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	cr := w.create(t, w.editor, sp.Id, "Linked")
	if cr.Links != nil {
		t.Fatalf("a new change request has links %+v", *cr.Links)
	}
	link := func(url string, kv ...any) map[string]any {
		return withFields(map[string]any{"ref": map[string]any{"kind": "url", "url": url}}, kv)
	}
	got := w.patch(t, sp.Id, cr.Id, map[string]any{"links": []any{
		link("https://tickets.example.test/T-1", "title", "T-1"),
		link("https://chat.example.test/thread/9"),
	}})
	check := func(t *testing.T, what string, c gen.ChangeRequest, urls []string, titles []string) []gen.ChangeRequestLink {
		t.Helper()
		if c.Links == nil || len(*c.Links) != len(urls) {
			t.Fatalf("%s: links %+v, want %v", what, c.Links, urls)
		}
		for i, l := range *c.Links {
			title := ""
			if l.Title != nil {
				title = *l.Title
			}
			if l.Id == "" || l.Ref.Kind != "url" || l.Ref.Url != urls[i] || title != titles[i] {
				t.Fatalf("%s: link %d %+v, want %s %q", what, i, l, urls[i], titles[i])
			}
		}
		return *c.Links
	}
	urls, titles := []string{"https://tickets.example.test/T-1", "https://chat.example.test/thread/9"}, []string{"T-1", ""}
	first := check(t, "answered", got, urls, titles)
	check(t, "re-read", w.get(t, sp.Id, cr.Id), urls, titles)
	if first[0].Id == first[1].Id {
		t.Fatalf("two links share id %s", first[0].Id)
	}
	if l := w.list(t, w.admin, "/spaces/"+sp.Id+"/change-requests"); len(l.Items) != 1 || l.Items[0].Links == nil {
		t.Fatalf("the list does not answer the links: %+v", l.Items)
	}

	t.Run("UpdateKeepsTheIdOfALinkGivenBack", func(t *testing.T) {
		got := w.patch(t, sp.Id, cr.Id, map[string]any{"links": []any{
			link("https://tickets.example.test/T-2", "id", first[0].Id, "title", "T-2"),
			link("https://docs.example.test/"),
		}})
		now := check(t, "answered", got, []string{"https://tickets.example.test/T-2", "https://docs.example.test/"}, []string{"T-2", ""})
		if now[0].Id != first[0].Id || now[1].Id == first[1].Id {
			t.Fatalf("ids %s %s, want %s kept and a new one", now[0].Id, now[1].Id, first[0].Id)
		}
		first = now
	})
	t.Run("Refused", func(t *testing.T) {
		eleven := make([]any, 11)
		for i := range eleven {
			eleven[i] = link("https://example.test/")
		}
		for name, c := range map[string]struct {
			links []any
			part  string
		}{
			"an id it does not have": {[]any{link("https://example.test/", "id", "nosuch")}, "links[0].id"},
			"an id twice":            {[]any{link("https://a.test/", "id", first[0].Id), link("https://b.test/", "id", first[0].Id)}, "links[1].id"},
			"not http":               {[]any{link("ftp://files.example.test/x")}, "links[0].ref.url"},
			"another kind":           {[]any{map[string]any{"ref": map[string]any{"kind": "page", "url": "https://a.test/"}}}, "kind"},
			"no ref":                 {[]any{map[string]any{"title": "t"}}, "ref"},
			"a long title":           {[]any{link("https://a.test/", "title", string(make([]byte, 129)))}, "title"},
			"eleven":                 {eleven, "links"},
		} {
			r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"links": c.links})
			if msg := r.ErrorMessage(t); !containsAll(msg, []string{c.part}) {
				t.Fatalf("%s: message %q, want %q", name, msg, c.part)
			}
		}
		if now := *w.get(t, sp.Id, cr.Id).Links; !reflect.DeepEqual(now, first) {
			t.Fatalf("refused updates changed the links: %+v", now)
		}
	})
	t.Run("AnEmptyListRemovesThem", func(t *testing.T) {
		if got := w.patch(t, sp.Id, cr.Id, map[string]any{"links": []any{}}); got.Links != nil {
			t.Fatalf("links %+v", *got.Links)
		}
	})
	t.Run("ReadersCannotSetThem", func(t *testing.T) {
		w.Expect(t, http.StatusForbidden, w.reader, "PATCH", crPath(sp.Id, cr.Id), map[string]any{"links": []any{link("https://a.test/")}})
	})
}

func TestCreateOrganizationOnboardingPreferences(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	u := ts.MustCreateUser(t, "ona@onboard.test", "Ona")
	org := sendJSON[gen.Organization](t, ts, http.StatusCreated, u, "POST", "/orgs", map[string]any{
		"title": "Onboarded",
		"onboardingPreferences": map[string]any{"source": "markdown-in-git", "audience": nil,
			"interests": []string{"api-docs", "adaptive-content"}},
	})
	stored, err := ts.Store.FindOrganizationByID(context.Background(), org.Id)
	if err != nil {
		t.Fatal(err)
	}
	src := "markdown-in-git"
	want := &store.OnboardingPreferences{Source: &src, Interests: []string{"api-docs", "adaptive-content"}}
	if !reflect.DeepEqual(stored.Onboarding, want) {
		t.Fatalf("stored %+v, want %+v", stored.Onboarding, want)
	}
	if plain := sendJSON[gen.Organization](t, ts, http.StatusCreated, u, "POST", "/orgs", map[string]any{"title": "Plain"}); plain.Id == "" {
		t.Fatal("no id")
	} else if o, _ := ts.Store.FindOrganizationByID(context.Background(), plain.Id); o.Onboarding != nil {
		t.Fatalf("an organization created without preferences has %+v", o.Onboarding)
	}

	before := getJSON[gen.OrganizationList](t, ts, u, "/orgs").Count
	for name, prefs := range map[string]map[string]any{
		"unknown source":   {"source": "floppy", "audience": nil, "interests": []string{}},
		"unknown audience": {"source": nil, "audience": "everyone", "interests": []string{}},
		"unknown interest": {"source": nil, "audience": nil, "interests": []string{"games"}},
		"interest twice":   {"source": nil, "audience": nil, "interests": []string{"api-docs", "api-docs"}},
		"no interests":     {"source": nil, "audience": nil},
		"unknown property": {"source": nil, "audience": nil, "interests": []string{}, "mood": "good"},
	} {
		r := ts.Expect(t, http.StatusBadRequest, u, "POST", "/orgs", map[string]any{"title": "Bad", "onboardingPreferences": prefs})
		if msg := r.ErrorMessage(t); !containsAll(msg, []string{"onboardingPreferences"}) {
			t.Fatalf("%s: message %q", name, msg)
		}
	}
	if after := getJSON[gen.OrganizationList](t, ts, u, "/orgs").Count; after != before {
		t.Fatalf("refused creations made %d organizations", after-before)
	}
}

// The new fields' answers validate against 0.202.0: a space with an icon and every kind of merge
// rule, an organization with them, a change request with links.
func TestNewFieldsAnswerInThePublicShape(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Docs", "")
	rules := rulesBody(
		map[string]any{"rule": "require_specific_reviewers", "users": []string{w.reader.ID}},
		map[string]any{"rule": "require_one_of_specific_reviewers", "users": []string{w.reader.ID}},
		map[string]any{"rule": "allow_bypass", "users": []string{}},
		map[string]any{"rule": "require_author_to_merge"},
		map[string]any{"rule": "require_at_least_one_approved_review"},
		map[string]any{"rule": "custom", "expression": "true", "message": "m"},
	)
	rules["icon"] = "https://cdn.example.test/icon.png"
	wantPublic(t, "0.202.0", "updateSpaceById", w.Expect(t, http.StatusOK, w.admin, "PATCH", "/spaces/"+sp.Id, rules))
	wantPublic(t, "0.202.0", "getSpaceById", w.Expect(t, http.StatusOK, w.reader, "GET", "/spaces/"+sp.Id, nil))
	delete(rules, "icon")
	wantPublic(t, "0.202.0", "updateOrganizationById", w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, rules))

	cr := w.create(t, w.admin, sp.Id, "Linked")
	links := map[string]any{"links": []any{
		map[string]any{"ref": map[string]any{"kind": "url", "url": "https://t.example.test/1"}, "title": "T-1"},
		map[string]any{"ref": map[string]any{"kind": "url", "url": "https://t.example.test/2"}},
	}}
	wantPublic(t, "0.202.0", "updateChangeRequestById", w.Expect(t, http.StatusOK, w.admin, "PATCH", crPath(sp.Id, cr.Id), links))
	wantPublic(t, "0.202.0", "getChangeRequestById", w.Expect(t, http.StatusOK, w.admin, "GET", crPath(sp.Id, cr.Id), nil))
}
