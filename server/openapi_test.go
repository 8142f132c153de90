package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

func TestOpenAPISpecLifecycle(t *testing.T) {
	t.Parallel()
	const v146, v202 = "0.146.0", "0.202.0"
	w := newOpenAPIWorld(t, newTestServer(t))
	created := w.Expect(t, http.StatusCreated, w.ada, "POST", w.path(""), map[string]any{"slug": "petstore", "source": map[string]any{"text": petstore30}})
	wantPublic(t, v146, "createOpenAPISpec", created)
	var sp gen.OpenAPISpec
	created.Decode(t, &sp)

	t.Run("CreatedPendingWithNoVersion", func(t *testing.T) {
		if sp.ProcessingState != gen.OpenAPISpecProcessingStatePending || sp.LastVersion != nil || sp.SourceURL != nil ||
			sp.Visibility != gen.OpenAPISpecVisibilityPrivate || !sp.Permissions.Edit || !sp.Permissions.View {
			t.Fatalf("new spec: %+v", sp)
		}
		if sp.Urls.Location != testBaseURL+"/v1"+w.path("petstore") || sp.Urls.Published != nil {
			t.Fatalf("urls: %+v", sp.Urls)
		}
		wantMessage(t, w.Expect(t, http.StatusNotFound, w.ada, "GET", w.path("petstore", "/versions/latest"), nil), "no version yet")
	})

	t.Run("TheJobProcessesIt", func(t *testing.T) {
		w.runJobs(t)
		got := w.spec(t, "petstore")
		wantProcessed(t, got)
		if !got.LastProcessedAt.After(sp.CreatedAt) || got.LastProcessedAt.Sub(sp.CreatedAt) > time.Second {
			t.Fatalf("lastProcessedAt %v, created %v: not the store's clock", got.LastProcessedAt, sp.CreatedAt)
		}
		for _, v := range []string{v146, v202} {
			wantPublic(t, v, "getOpenAPISpecBySlug", w.Expect(t, http.StatusOK, w.ada, "GET", w.path("petstore"), nil))
			wantPublic(t, v, "listOpenAPISpecVersions", w.Expect(t, http.StatusOK, w.ada, "GET", w.path("petstore", "/versions"), nil))
			wantPublic(t, v, "getLatestOpenAPISpecVersion", w.Expect(t, http.StatusOK, w.ada, "GET", w.path("petstore", "/versions/latest"), nil))
			wantPublic(t, v, "listOpenAPISpecs", w.Expect(t, http.StatusOK, w.ada, "GET", w.path(""), nil))
			wantPublic(t, v, "getLatestOpenAPISpecVersionContent", w.Expect(t, http.StatusOK, w.ada, "GET", w.path("petstore", "/versions/latest/content"), nil))
		}
		c, files := w.content(t, "petstore", *got.LastVersion)
		if info, _ := files["openapi.yaml"]["info"].(map[string]any); info["title"] != "Petstore" {
			t.Fatalf("filesystem: %v", files)
		}
		if !strings.Contains(c.Url, "?token=") || c.Urls.Public.IsSpecified() && !c.Urls.Public.IsNull() || c.Urls.Source != c.Url {
			t.Fatalf("a private spec's content links: %+v", c)
		}
		status, body := download(t, w.testServer, c.Url)
		if status != http.StatusOK || body != petstore30 {
			t.Fatalf("signed download: %d %q", status, body)
		}
		if status, _ := download(t, w.testServer, strings.Split(c.Url, "?")[0]); status != http.StatusNotFound {
			t.Fatalf("private document without its token: %d", status)
		}
		if status, _ := download(t, w.testServer, c.Url+"x"); status != http.StatusNotFound {
			t.Fatalf("private document with a forged token: %d", status)
		}
	})

	t.Run("VersionsOnlyWhenTheDocumentChanges", func(t *testing.T) {
		first := *w.spec(t, "petstore").LastVersion
		w.put(t, "petstore", map[string]any{"text": petstore30})
		w.runJobs(t)
		if got := w.spec(t, "petstore"); *got.LastVersion != first || w.versions(t, "petstore").Count != 1 {
			t.Fatalf("the same document made a version: %+v", got)
		}
		changed := strings.Replace(petstore30, "title: Petstore", "title: Petstore v2", 1)
		if got := w.put(t, "petstore", map[string]any{"text": changed}); got.ProcessingState != gen.OpenAPISpecProcessingStatePending {
			t.Fatalf("after put: %s", got.ProcessingState)
		}
		w.runJobs(t)
		got := w.spec(t, "petstore")
		wantProcessed(t, got)
		l := w.versions(t, "petstore")
		if *got.LastVersion == first || l.Count != 2 || l.Items[0].Id != *got.LastVersion || l.Items[1].Id != first {
			t.Fatalf("versions after a change: %+v (last %s)", l, *got.LastVersion)
		}
		var v gen.OpenAPISpecVersion
		r := w.Expect(t, http.StatusOK, w.ada, "GET", w.path("petstore", "/versions/", first), nil)
		wantPublic(t, v146, "getOpenAPISpecVersionById", r)
		r.Decode(t, &v)
		if v.Id != first || v.Urls.Location != testBaseURL+"/v1"+w.path("petstore", "/versions/", first) {
			t.Fatalf("old version: %+v", v)
		}
		wantPublic(t, v146, "getOpenAPISpecVersionContentById", w.Expect(t, http.StatusOK, w.ada, "GET", w.path("petstore", "/versions/", first, "/content"), nil))
		_, files := w.content(t, "petstore", first)
		if info, _ := files["openapi.yaml"]["info"].(map[string]any); info["title"] != "Petstore" {
			t.Fatalf("the old version's content changed: %v", files)
		}
		page := getJSON[gen.OpenAPISpecVersionList](t, w.testServer, w.ada, w.path("petstore", "/versions?limit=1"))
		if len(page.Items) != 1 || page.Next == nil || page.Items[0].Id != *got.LastVersion {
			t.Fatalf("first page: %+v", page)
		}
		next := page.Next.Page
		page = gen.OpenAPISpecVersionList{}
		w.Expect(t, http.StatusOK, w.ada, "GET", w.path("petstore", "/versions?limit=1&page=", next), nil).Decode(t, &page)
		if len(page.Items) != 1 || page.Next != nil || page.Items[0].Id != first {
			t.Fatalf("second page: %+v", page)
		}
		w.Expect(t, http.StatusNotFound, w.ada, "GET", w.path("petstore", "/versions/nosuchversion"), nil)
		w.Expect(t, http.StatusNotFound, w.ada, "GET", w.path("petstore", "/versions/nosuchversion/content"), nil)
	})

	t.Run("PublicVisibilityPublishesTheDocument", func(t *testing.T) {
		var got gen.OpenAPISpec
		r := w.Expect(t, http.StatusOK, w.ada, "PATCH", w.path("petstore"), map[string]any{"visibility": "public"})
		wantPublic(t, v146, "updateOpenAPISpecBySlug", r)
		r.Decode(t, &got)
		if got.Visibility != gen.OpenAPISpecVisibilityPublic || got.Urls.Published == nil {
			t.Fatalf("after patch: %+v", got)
		}
		c, _ := w.content(t, "petstore", *got.LastVersion)
		pub, err := c.Urls.Public.Get()
		if err != nil || pub != c.Url || strings.Contains(c.Url, "token") {
			t.Fatalf("public content links: %+v", c)
		}
		if status, body := download(t, w.testServer, *got.Urls.Published); status != http.StatusOK || !strings.Contains(body, "Petstore v2") {
			t.Fatalf("published document: %d %q", status, body)
		}
		w.Expect(t, http.StatusOK, w.ada, "PATCH", w.path("petstore"), map[string]any{"visibility": "private"})
		if status, _ := download(t, w.testServer, *got.Urls.Published); status != http.StatusNotFound {
			t.Fatalf("a private spec's published link still works: %d", status)
		}
	})

	t.Run("SignedLinksExpire", func(t *testing.T) {
		c, _ := w.content(t, "petstore", *w.spec(t, "petstore").LastVersion)
		w.Clock.Advance(2 * time.Hour)
		if status, body := download(t, w.testServer, c.Url); status != http.StatusGone || !strings.Contains(body, "expired") {
			t.Fatalf("expired link: %d %s", status, body)
		}
	})

	t.Run("ListsByPage", func(t *testing.T) {
		w.Expect(t, http.StatusCreated, w.ada, "POST", w.path(""), map[string]any{"slug": "a-first", "source": map[string]any{"text": petstore20}})
		l := getJSON[gen.OpenAPISpecList](t, w.testServer, w.ada, w.path("", "?limit=1"))
		if l.Count != 2 || len(l.Items) != 1 || l.Items[0].Slug != "a-first" || l.Next == nil {
			t.Fatalf("first page: %+v", l)
		}
		next := l.Next.Page
		l = gen.OpenAPISpecList{}
		w.Expect(t, http.StatusOK, w.ada, "GET", w.path("", "?limit=1&page="+next), nil).Decode(t, &l)
		if len(l.Items) != 1 || l.Items[0].Slug != "petstore" || l.Next != nil {
			t.Fatalf("second page: %+v", l)
		}
	})

	t.Run("Access", func(t *testing.T) {
		got := getJSON[gen.OpenAPISpec](t, w.testServer, w.rita, w.path("petstore"))
		if got.Permissions.Edit || !got.Permissions.View {
			t.Fatalf("a reader's permissions: %+v", got.Permissions)
		}
		w.Expect(t, http.StatusOK, w.rita, "GET", w.path("petstore", "/versions/latest/content"), nil)
		w.Expect(t, http.StatusForbidden, w.rita, "POST", w.path(""), map[string]any{"slug": "mine", "source": map[string]any{"text": petstore20}})
		w.Expect(t, http.StatusForbidden, w.rita, "PUT", w.path("petstore"), map[string]any{"source": map[string]any{"text": petstore20}})
		w.Expect(t, http.StatusForbidden, w.rita, "PATCH", w.path("petstore"), map[string]any{"visibility": "public"})
		w.Expect(t, http.StatusForbidden, w.rita, "DELETE", w.path("petstore"), nil)
		for _, p := range []string{"", "/petstore", "/petstore/versions", "/petstore/versions/latest", "/petstore/versions/latest/content"} {
			w.Expect(t, http.StatusNotFound, w.bob, "GET", "/orgs/"+w.org+"/openapi"+p, nil)
		}
		w.Expect(t, http.StatusNotFound, w.bob, "DELETE", w.path("petstore"), nil)
		w.Expect(t, http.StatusUnauthorized, nil, "GET", w.path("petstore"), nil)
	})

	t.Run("DuplicateSlugIsAConflict", func(t *testing.T) {
		wantMessage(t, w.Expect(t, http.StatusConflict, w.ada, "POST", w.path(""), map[string]any{"slug": "petstore", "source": map[string]any{"text": petstore20}}), "slug")
	})

	t.Run("PutCreatesWhenAbsent", func(t *testing.T) {
		r := w.Expect(t, http.StatusOK, w.ada, "PUT", w.path("made-by-put"), map[string]any{"source": map[string]any{"text": petstore31JSON}})
		wantPublic(t, v146, "createOrUpdateOpenAPISpecBySlug", r)
		w.runJobs(t)
		got := w.spec(t, "made-by-put")
		wantProcessed(t, got)
		_, files := w.content(t, "made-by-put", "latest")
		if info, _ := files["openapi.json"]["info"].(map[string]any); info["title"] != "Petstore 3.1" {
			t.Fatalf("3.1 filesystem: %v", files)
		}
	})

	t.Run("DeleteAnswers204EvenWhenAbsent", func(t *testing.T) {
		versionID := *w.spec(t, "petstore").LastVersion
		w.Expect(t, http.StatusNoContent, w.ada, "DELETE", w.path("petstore"), nil)
		w.Expect(t, http.StatusNotFound, w.ada, "GET", w.path("petstore"), nil)
		w.Expect(t, http.StatusNotFound, w.ada, "GET", w.path("petstore", "/versions/", versionID), nil)
		w.Expect(t, http.StatusNoContent, w.ada, "DELETE", w.path("petstore"), nil)
	})
}

func TestOpenAPIBadInput(t *testing.T) {
	t.Parallel()
	w := newOpenAPIWorld(t, newTestServer(t))
	text := map[string]any{"text": petstore30}
	for _, tc := range []struct {
		name, method, path string
		body               any
		parts              []string
	}{
		{"UppercaseSlug", "POST", "", map[string]any{"slug": "Pet-Store", "source": text}, []string{"slug"}},
		{"SlugWithDoubleDash", "POST", "", map[string]any{"slug": "pet--store", "source": text}, []string{"slug"}},
		{"SlugTooLong", "POST", "", map[string]any{"slug": strings.Repeat("a", 101), "source": text}, []string{"slug"}},
		{"EmptySlug", "POST", "", map[string]any{"slug": "", "source": text}, []string{"slug"}},
		{"NoSource", "POST", "", map[string]any{"slug": "x"}, []string{"source"}},
		{"URLTooLong", "POST", "", map[string]any{"slug": "x", "source": map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2040)}}, []string{"source"}},
		{"URLAndText", "POST", "", map[string]any{"slug": "x", "source": map[string]any{"url": "https://example.com/a.yaml", "text": "x"}}, []string{"source"}},
		{"NotHTTP", "POST", "", map[string]any{"slug": "x", "source": map[string]any{"url": "ftp://example.com/a.yaml"}}, []string{"source.url", "http"}},
		{"EmptyText", "PUT", "/x", map[string]any{"source": map[string]any{"text": ""}}, []string{"source"}},
		{"BlankText", "PUT", "/x", map[string]any{"source": map[string]any{"text": "   "}}, []string{"source.text"}},
		{"BadSlugInPath", "PUT", "/Bad_Slug", map[string]any{"source": text}, []string{"specSlug"}},
		{"UnknownField", "PUT", "/x", map[string]any{"source": text, "visibility": "public"}, []string{"visibility"}},
		{"BadVisibility", "PATCH", "/x", map[string]any{"visibility": "secret"}, []string{"visibility"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantMessage(t, w.Expect(t, http.StatusBadRequest, w.ada, tc.method, "/orgs/"+w.org+"/openapi"+tc.path, tc.body), tc.parts...)
		})
	}
	l := getJSON[gen.OpenAPISpecList](t, w.testServer, w.ada, w.path(""))
	if l.Count != 0 {
		t.Fatalf("bad input created specs: %+v", l)
	}
}

func TestOpenAPIParseErrors(t *testing.T) {
	t.Parallel()
	w := newOpenAPIWorld(t, newTestServer(t))
	for i, tc := range []struct {
		name, doc string
		parts     []string
	}{
		{"YAMLSyntax30", "openapi: 3.0.3\ninfo:\n  title: x\n   version: '1'\npaths: {}\n", []string{"line 4"}},
		{"JSONSyntax31", `{"openapi": "3.1.0", "info": {"title": "x",, }}`, []string{"line 1"}},
		{"MissingRef30", strings.Replace(petstore30, "          description: The pets.\n",
			"          description: The pets.\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Pet'\n", 1),
			[]string{"#/components/schemas/Pet", "line 15"}},
		{"MissingRef20", "swagger: '2.0'\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get:\n      responses:\n        200:\n          description: ok\n          schema:\n            $ref: '#/definitions/Nope'\n",
			[]string{"#/definitions/Nope", "line 12"}},
		{"RemoteRefNotFetched", strings.Replace(petstore30, "          description: The pets.\n",
			"          description: The pets.\n          content:\n            application/json:\n              schema:\n                $ref: 'http://127.0.0.1:1/pet.yaml#/Pet'\n", 1),
			[]string{"http://127.0.0.1:1/pet.yaml"}},
		{"NotOpenAPI", "title: a shopping list\n", []string{`"openapi"`}},
		{"UnsupportedVersion", "openapi: 4.0.0\ninfo:\n  title: x\n  version: '1'\n", []string{"4.0.0", "3.1"}},
		{"Scalar", "just some words", []string{"PARSE_ERROR"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slug := fmt.Sprintf("bad-%d", i)
			w.put(t, slug, map[string]any{"text": tc.doc})
			w.runJobs(t)
			sp := w.spec(t, slug)
			parts := tc.parts
			if parts[0] == "PARSE_ERROR" {
				parts = nil
			}
			wantProcessError(t, sp, gen.OpenAPISpecProcessingErrorCodeParseError, parts...)
			if sp.LastVersion != nil {
				t.Fatalf("an unparseable document made a version")
			}
			w.Expect(t, http.StatusNotFound, w.ada, "GET", w.path(slug, "/versions/latest/content"), nil)
		})
	}

	t.Run("AFailureKeepsThePreviousVersion", func(t *testing.T) {
		w.put(t, "kept", map[string]any{"text": petstore20})
		w.runJobs(t)
		good := w.spec(t, "kept")
		wantProcessed(t, good)
		w.put(t, "kept", map[string]any{"text": "swagger: '2.0'\ninfo: [\n"})
		w.runJobs(t)
		bad := w.spec(t, "kept")
		wantProcessError(t, bad, gen.OpenAPISpecProcessingErrorCodeParseError, "line")
		if bad.LastVersion == nil || *bad.LastVersion != *good.LastVersion || !bad.LastProcessedAt.After(*good.LastProcessedAt) {
			t.Fatalf("after a failure: %+v", bad)
		}
		_, files := w.content(t, "kept", "latest")
		if info, _ := files["openapi.yaml"]["info"].(map[string]any); info["title"] != "Petstore 2" {
			t.Fatalf("current content after a failure: %v", files)
		}
		w.put(t, "kept", map[string]any{"text": petstore20})
		w.runJobs(t)
		if again := w.spec(t, "kept"); len(again.LastProcessedErrors) != 0 || again.LastProcessErrorCode != nil || *again.LastVersion != *good.LastVersion {
			t.Fatalf("a good document again did not clear the errors: %+v", again)
		}
	})
}
