package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// scopedWrite is one write an installation token may be given: the scope that opens it, the
// status it answers when allowed, and its request on a space, site or organization (the
// installed ones, or others).
type scopedWrite struct {
	op, scope string
	status    int
	request   func(t *testing.T, space, site, org string) (method, path string, body any)
}

// TestInstallationTokenWriteScopes is the matrix of write scopes: a token of an installation
// with one write scope calls exactly the writes of that scope on the spaces and sites it is
// installed on, and gets 403 for every other write and for spaces and sites it is not on.
func TestInstallationTokenWriteScopes(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	installed := w.MustCreateSpace(t, w.admin, w.org.Id, "Installed", "")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Not installed", "")
	var site, otherSite gen.Site
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{}).Decode(t, &site)
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{}).Decode(t, &otherSite)
	n := 0
	fresh := func() string { n++; return fmt.Sprint(n) }
	cr := func(t *testing.T, space string) string { return w.create(t, w.admin, space, "for the installation").Id }
	spec := func(t *testing.T) string {
		slug := "spec-" + fresh()
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/openapi", map[string]any{"slug": slug, "source": map[string]any{"text": petstore30}})
		return slug
	}

	writes := []scopedWrite{
		{"createChangeRequest", "space:content:write", 201, func(t *testing.T, space, _, _ string) (string, string, any) {
			return "POST", "/spaces/" + space + "/change-requests", map[string]any{"subject": "By the integration"}
		}},
		{"updateChangeRequestById", "space:content:write", 200, func(t *testing.T, space, _, _ string) (string, string, any) {
			return "PATCH", crPath(space, cr(t, space)), map[string]any{"subject": "Renamed by the integration"}
		}},
		{"updateChangeRequestContent", "space:content:write", 200, func(t *testing.T, space, _, _ string) (string, string, any) {
			return "POST", crPath(space, cr(t, space), "/content"), map[string]any{"changes": []map[string]any{
				{"operation": "insert_page", "title": "Written " + fresh(), "document": map[string]any{"markdown": "hello"}}}}
		}},
		{"updateChangeRequest", "space:content:write", 200, func(t *testing.T, space, _, _ string) (string, string, any) {
			return "POST", crPath(space, cr(t, space), "/update"), nil
		}},
		{"mergeChangeRequest", "space:content:write", 200, func(t *testing.T, space, _, _ string) (string, string, any) {
			return "POST", crPath(space, cr(t, space), "/merge"), nil
		}},
		{"updateSpaceById", "space:metadata:write", 200, func(t *testing.T, space, _, _ string) (string, string, any) {
			return "PATCH", "/spaces/" + space, map[string]any{"title": "Retitled " + fresh()}
		}},
		{"updateSiteAdaptiveSchema", "site:adaptive:write", 200, func(t *testing.T, _, site, org string) (string, string, any) {
			return "PUT", "/orgs/" + org + "/sites/" + site + "/adaptive-schema", map[string]any{"jsonSchema": kindsSchema()}
		}},
		{"createOpenAPISpec", "openapi:write", 201, func(t *testing.T, _, _, org string) (string, string, any) {
			return "POST", "/orgs/" + org + "/openapi", map[string]any{"slug": "made-" + fresh(), "source": map[string]any{"text": petstore30}}
		}},
		{"createOrUpdateOpenAPISpecBySlug", "openapi:write", 200, func(t *testing.T, _, _, org string) (string, string, any) {
			return "PUT", "/orgs/" + org + "/openapi/put-" + fresh(), map[string]any{"source": map[string]any{"text": petstore30}}
		}},
		{"updateOpenAPISpecBySlug", "openapi:write", 200, func(t *testing.T, _, _, org string) (string, string, any) {
			return "PATCH", "/orgs/" + org + "/openapi/" + spec(t), map[string]any{"visibility": "public"}
		}},
		{"deleteOpenAPISpecBySlug", "openapi:write", 204, func(t *testing.T, _, _, org string) (string, string, any) {
			return "DELETE", "/orgs/" + org + "/openapi/" + spec(t), nil
		}},
		{"ingestConversation", "conversations:ingest", 204, func(t *testing.T, _, _, org string) (string, string, any) {
			return "POST", "/orgs/" + org + "/conversations", map[string]any{"id": "c" + fresh(), "parts": []any{userMsg("hello")}}
		}},
	}

	// One installation per write scope (with every read scope too, so a 403 is the write's).
	reads := []string{"space:content:read", "space:metadata:read", "site:metadata:read", "site:adaptive:read", "openapi:read"}
	tokens := map[string]*testUser{}
	for _, scope := range []string{"space:content:write", "space:metadata:write", "site:adaptive:write", "openapi:write", "conversations:ingest"} {
		name := "w-" + strings.NewReplacer(":", "-").Replace(scope)
		tokens[scope], _ = w.installationToken(t, name, append([]string{scope}, reads...), []string{installed.Id}, []string{site.Id})
	}

	for scope, tok := range tokens {
		for _, wr := range writes {
			t.Run(scope+"/"+wr.op, func(t *testing.T) {
				method, path, body := wr.request(t, installed.Id, site.Id, w.org.Id)
				if wr.scope != scope {
					w.Expect(t, http.StatusForbidden, tok, method, path, body)
					return
				}
				w.Expect(t, wr.status, tok, method, path, body)
				// Not on a space or site it is not installed on, nor in another organization.
				m, p, b := wr.request(t, other.Id, otherSite.Id, w.other.Id)
				w.Expect(t, http.StatusForbidden, tok, m, p, b)
			})
		}
	}

	// The writes land: a change request the installation wrote and merged is in the space.
	content := tokens["space:content:write"]
	var made gen.ChangeRequest
	w.Expect(t, http.StatusCreated, content, "POST", "/spaces/"+installed.Id+"/change-requests", map[string]any{"subject": "Sync"}).Decode(t, &made)
	if made.CreatedBy.Id != w.admin.ID {
		t.Errorf("the change request is attributed to %q, not to the installing user", made.CreatedBy.Id)
	}
	w.Expect(t, http.StatusOK, content, "POST", crPath(installed.Id, made.Id, "/content"), map[string]any{"changes": []map[string]any{
		{"operation": "insert_page", "title": "From the integration", "document": map[string]any{"markdown": "synced"}}}})
	var merged gen.MergeChangeRequest200JSONResponse
	w.Expect(t, http.StatusOK, content, "POST", crPath(installed.Id, made.Id, "/merge"), nil).Decode(t, &merged)
	if merged.Result != gen.MergeResultMerge {
		t.Fatalf("merge %+v", merged)
	}
	pages := w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+installed.Id+"/content/pages", nil)
	if !strings.Contains(string(pages.Body), "From the integration") {
		t.Error("the merged page is not in the space")
	}
	var sp gen.Space
	w.Expect(t, http.StatusOK, tokens["space:metadata:write"], "PATCH", "/spaces/"+installed.Id, map[string]any{"title": "Named by the integration"})
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+installed.Id, nil).Decode(t, &sp)
	if sp.Title != "Named by the integration" {
		t.Errorf("title %q", sp.Title)
	}
	// A write scope opens no more than its writes: not deleting the space, nor other spaces' metadata.
	w.Expect(t, http.StatusForbidden, tokens["space:metadata:write"], "DELETE", "/spaces/"+installed.Id, nil)
	w.Expect(t, http.StatusForbidden, content, "POST", "/spaces/"+installed.Id+"/comments", map[string]any{"body": map[string]any{"markdown": "hi"}})
	w.Expect(t, http.StatusForbidden, tokens["site:adaptive:write"], "PUT", "/orgs/"+w.org.Id+"/sites/"+otherSite.Id+"/adaptive-schema", map[string]any{"jsonSchema": kindsSchema()})
	// openapi:read reads the organization's specs.
	w.Expect(t, http.StatusOK, content, "GET", "/orgs/"+w.org.Id+"/openapi", nil)
	// Another organization's paths stay closed.
	w.Expect(t, http.StatusForbidden, content, "GET", "/orgs/"+w.other.Id+"/openapi", nil)
	w.Expect(t, http.StatusForbidden, tokens["openapi:write"], "POST", "/orgs/"+w.other.Id+"/openapi", map[string]any{"slug": "theirs", "source": map[string]any{"text": petstore30}})
}
