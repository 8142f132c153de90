package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
)

// installationToken publishes an integration with scopes, installs it on Acme and on the given
// spaces and sites, and returns a token acting as the installation.
func (w *integrationWorld) installationToken(t *testing.T, name string, scopes []string, spaces, sites []string) (*testUser, gen.IntegrationInstallation) {
	t.Helper()
	w.publish(t, name, publishBody(w.org.Id, scopes...))
	n := w.install(t, w.admin, name, w.org.Id)
	for _, id := range spaces {
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/integrations/"+name+"/installations/"+n.Id+"/spaces", map[string]any{"space": id})
	}
	for _, id := range sites {
		w.Expect(t, http.StatusCreated, w.admin, "POST", "/integrations/"+name+"/installations/"+n.Id+"/sites", map[string]any{"siteId": id})
	}
	var tok gen.IntegrationInstallationToken
	w.Expect(t, http.StatusOK, w.admin, "POST", "/integrations/"+name+"/installations/"+n.Id+"/tokens", nil).Decode(t, &tok)
	return &testUser{ID: n.Id, Token: tok.Token}, n
}

func TestCreateIntegrationInstallationToken(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.publish(t, "tok", publishBody(w.org.Id))
	n := w.install(t, w.admin, "tok", w.org.Id)
	theirs := w.install(t, w.outsider, "tok", w.other.Id)
	path := "/integrations/tok/installations/" + n.Id + "/tokens"
	w.Expect(t, http.StatusForbidden, w.reader, "POST", path, nil)
	w.Expect(t, http.StatusForbidden, w.outsider, "POST", "/integrations/tok/installations/"+theirs.Id+"/tokens", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "POST", "/integrations/tok/installations/nope/tokens", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "POST", "/integrations/nope/installations/"+n.Id+"/tokens", nil)
	// The integration's authors act for every installation, another organization's too.
	var tok gen.IntegrationInstallationToken
	w.Expect(t, http.StatusOK, w.admin, "POST", "/integrations/tok/installations/"+theirs.Id+"/tokens", nil).Decode(t, &tok)
	if len(tok.Token) < 20 {
		t.Fatalf("token %q", tok.Token)
	}
	inst := &testUser{Token: tok.Token}
	var l gen.IntegrationInstallationList
	w.Expect(t, http.StatusOK, inst, "GET", "/integrations/tok/installations", nil).Decode(t, &l)
	if l.Count != 1 || l.Items[0].Id != theirs.Id {
		t.Errorf("the installation lists %+v", l)
	}
	// An hour later the token no longer authenticates: asked of a node that has not cached it (this
	// one's token cache keeps the answer a few seconds; TestTokenCacheEntriesExpire).
	w.Clock.Advance(time.Hour + time.Minute)
	w.otherNode(t).Expect(t, http.StatusUnauthorized, inst, "GET", "/integrations/tok/installations", nil)
}

// TestInstallationTokenScopes is the scope matrix: what a token of an installation with some
// scopes, installed on some spaces and sites, may call — and the 403 for everything else.
func TestInstallationTokenScopes(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	installed := w.MustCreateSpace(t, w.admin, w.org.Id, "Installed", "")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Not installed", "")
	theirs := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
	var site, otherSite gen.Site
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{}).Decode(t, &site)
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{}).Decode(t, &otherSite)

	reader, n := w.installationToken(t, "reader", []string{"space:content:read"}, []string{installed.Id}, nil)
	meta, _ := w.installationToken(t, "meta", []string{"space:metadata:read", "site:metadata:read"}, []string{installed.Id}, []string{site.Id})
	w.publish(t, "someone-else", publishBody(w.org.Id))

	sites := "/orgs/" + w.org.Id + "/sites/"
	for _, c := range []struct {
		name   string
		token  *testUser
		method string
		path   string
		body   any
		status int
	}{
		// space:content:read: the content of installed spaces, nothing else.
		{"content of an installed space", reader, "GET", "/spaces/" + installed.Id + "/content", nil, 200},
		{"pages of an installed space", reader, "GET", "/spaces/" + installed.Id + "/content/pages", nil, 200},
		{"search in an installed space", reader, "GET", "/spaces/" + installed.Id + "/search?query=x", nil, 200},
		{"content of a space not installed on", reader, "GET", "/spaces/" + other.Id + "/content", nil, 403},
		{"content of another organization's space", reader, "GET", "/spaces/" + theirs.Id + "/content", nil, 403},
		{"space metadata without its scope", reader, "GET", "/spaces/" + installed.Id, nil, 403},
		{"writing content", reader, "POST", "/spaces/" + installed.Id + "/change-requests", map[string]any{}, 403},
		{"site without its scope", reader, "GET", sites + site.Id, nil, 403},
		{"the organization", reader, "GET", "/orgs/" + w.org.Id, nil, 403},
		{"its members", reader, "GET", "/orgs/" + w.org.Id + "/members", nil, 403},
		{"the spaces of the organization", reader, "GET", "/orgs/" + w.org.Id + "/spaces", nil, 403},
		{"a user", reader, "GET", "/user", nil, 403},
		{"creating an organization", reader, "POST", "/orgs", map[string]any{"title": "Mine"}, 403},
		{"publishing", reader, "POST", "/integrations/reader", publishBody(w.org.Id), 403},
		{"its own integration", reader, "GET", "/integrations/reader", nil, 200},
		{"its own installations", reader, "GET", "/integrations/reader/installations", nil, 200},
		{"its own space installations", reader, "GET", "/integrations/reader/spaces", nil, 200},
		{"another integration", reader, "GET", "/integrations/someone-else", nil, 403},
		{"minting tokens", reader, "POST", "/integrations/reader/installations/" + n.Id + "/tokens", nil, 403},
		{"its events", reader, "GET", "/integrations/reader/events", nil, 403},
		// space:metadata:read and site:metadata:read.
		{"metadata of an installed space", meta, "GET", "/spaces/" + installed.Id, nil, 200},
		{"metadata of a space not installed on", meta, "GET", "/spaces/" + other.Id, nil, 403},
		{"content without its scope", meta, "GET", "/spaces/" + installed.Id + "/content", nil, 403},
		{"an installed site", meta, "GET", sites + site.Id, nil, 200},
		{"its site spaces", meta, "GET", sites + site.Id + "/site-spaces", nil, 200},
		{"a site not installed on", meta, "GET", sites + otherSite.Id, nil, 403},
		{"updating an installed site", meta, "PATCH", sites + site.Id, map[string]any{"title": "Renamed"}, 403},
		{"the sites of the organization", meta, "GET", "/orgs/" + w.org.Id + "/sites", nil, 403},
		{"another organization's site path", meta, "GET", "/orgs/" + w.other.Id + "/sites/" + site.Id, nil, 403},
	} {
		t.Run(c.name, func(t *testing.T) {
			w.Expect(t, c.status, c.token, c.method, c.path, c.body)
		})
	}

	// A space installation of "all" reaches every space of the organization, not another's.
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/integrations/reader/installations/"+n.Id, map[string]any{"space_selection": "all"})
	w.Expect(t, http.StatusOK, reader, "GET", "/spaces/"+other.Id+"/content", nil)
	w.Expect(t, http.StatusNotFound, reader, "GET", "/spaces/"+theirs.Id+"/content", nil)
	// Unpublished: its tokens authenticate nothing.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/integrations/reader", nil)
	w.Expect(t, http.StatusUnauthorized, reader, "GET", "/spaces/"+installed.Id+"/content", nil)
}

// A private integration is visible to its own installation tokens (and to nobody outside).
func TestInstallationTokenSeesItsPrivateIntegration(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	b := publishBody(w.org.Id)
	b["visibility"] = "private"
	w.publish(t, "secretive", b)
	n := w.install(t, w.admin, "secretive", w.org.Id)
	var tok gen.IntegrationInstallationToken
	w.Expect(t, http.StatusOK, w.admin, "POST", "/integrations/secretive/installations/"+n.Id+"/tokens", nil).Decode(t, &tok)
	var in gen.Integration
	w.Expect(t, http.StatusOK, &testUser{Token: tok.Token}, "GET", "/integrations/secretive", nil).Decode(t, &in)
	if in.Name != "secretive" || in.Permissions.Admin {
		t.Fatalf("the installation reads %+v", in)
	}
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/integrations/secretive", nil)
}
