package server_test

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// A 1×1 PNG: what the icon and preview images are made of in these tests.
var pngPixel, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

// integrationWorld is the cast of the integration tests: the content world's organization (Acme,
// admin Ada, reader Rita, guest Gus) publishes; Otto administers Other Co.
type integrationWorld struct {
	*world
}

func newIntegrationWorld(t *testing.T) *integrationWorld {
	t.Helper()
	return &integrationWorld{world: newWorld(t)}
}

// publishBody is a publish of an integration owned by org with the given scopes.
func publishBody(org string, scopes ...string) map[string]any {
	if scopes == nil {
		scopes = []string{}
	}
	return map[string]any{"organization": org, "title": "Slack sync", "description": "Sends updates to Slack",
		"script": "export default {}", "scopes": scopes}
}

func (w *integrationWorld) publish(t *testing.T, name string, body map[string]any) gen.Integration {
	t.Helper()
	var in gen.Integration
	w.Expect(t, http.StatusOK, w.admin, "POST", "/integrations/"+name, body).Decode(t, &in)
	return in
}

func TestPublishIntegration(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	body := publishBody(w.org.Id, "space:content:read", "space:content:read")
	body["summary"] = "# Slack\nLong form."
	body["icon"] = base64.StdEncoding.EncodeToString(pngPixel)
	body["previewImages"] = []string{base64.StdEncoding.EncodeToString(pngPixel)}
	body["categories"] = []string{"collaboration"}
	body["blocks"] = []map[string]any{{"id": "embed", "title": "Slack embed", "urlUnfurl": []string{"https://Slack.com/archives/x"},
		"markdown": map[string]any{"codeblock": "slack", "body": "{content}"}}}
	body["contentSources"] = []map[string]any{{"id": "msgs", "title": "Messages", "configuration": map[string]any{"componentId": "cfg"}}}
	body["externalLinks"] = []map[string]any{{"url": "https://example.com/docs", "label": "Docs"}}
	body["configurations"] = map[string]any{"account": map[string]any{
		"properties": map[string]any{"channel": map[string]any{"type": "string", "title": "Channel"}},
		"required":   []string{"channel"}}}
	body["secrets"] = map[string]string{"API_KEY": "s3cr3t-value"}
	body["contentSecurityPolicy"] = "script-src 'self'"
	body["visibility"] = "unlisted"
	body["target"] = "space"

	in := w.publish(t, "slack-sync", body)
	if in.Name != "slack-sync" || in.Version != 1 || in.Title != "Slack sync" || in.Owner.Id != w.org.Id {
		t.Fatalf("published %+v", in)
	}
	if len(in.Scopes) != 1 || in.Scopes[0] != "space:content:read" {
		t.Errorf("scopes %v, want the one scope once", in.Scopes)
	}
	if !in.Permissions.Admin || in.Visibility != "unlisted" || in.Target != "space" || in.Summary == nil || *in.Summary != "# Slack\nLong form." {
		t.Errorf("published %+v", in)
	}
	if len(in.Blocks) != 1 || len(in.ContentSources) != 1 || len(in.ExternalLinks) != 1 ||
		in.Configurations.Account == nil || in.ContentSecurityPolicy == nil {
		t.Errorf("manifest not kept: %+v", in)
	}
	// Secrets are never answered, in any form.
	raw := w.Expect(t, http.StatusOK, w.reader, "GET", "/integrations/slack-sync", nil)
	if strings.Contains(string(raw.Body), "s3cr3t") || strings.Contains(string(raw.Body), "API_KEY") {
		t.Fatalf("secrets answered: %s", raw.Body)
	}
	// ... nor stored in clear.
	stored, err := w.Store.FindIntegrationByName(context.Background(), "slack-sync")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stored.SealedSecrets, "s3cr3t") || stored.SealedSecrets == "" || stored.SealedSigningSecret == "" {
		t.Fatalf("secrets stored as %q", stored.SealedSecrets)
	}
	// The images are served at their URLs, without a token.
	if in.Urls.Icon == nil || len(in.PreviewImages) != 1 {
		t.Fatalf("image urls %+v %v", in.Urls, in.PreviewImages)
	}
	for _, u := range []string{*in.Urls.Icon, in.PreviewImages[0]} {
		res, err := http.Get(strings.Replace(u, testBaseURL, w.URL, 1))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || string(got) != string(pngPixel) {
			t.Fatalf("GET %s: %d %s", u, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}

	// Publishing again is the next version; the organization may be given by hostname.
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/orgs/"+w.org.Id, map[string]any{"hostname": "acme-docs"})
	again := w.publish(t, "slack-sync", publishBody("acme-docs", "space:metadata:read"))
	if again.Version != 2 || again.Scopes[0] != "space:metadata:read" || again.Urls.Icon != nil || len(again.PreviewImages) != 0 {
		t.Fatalf("second publish %+v", again)
	}
	if after, _ := w.Store.FindIntegrationByName(context.Background(), "slack-sync"); after.SealedSigningSecret != stored.SealedSigningSecret {
		t.Error("the signing secret changed on a new version")
	}
}

func TestPublishIntegrationRules(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.publish(t, "taken", publishBody(w.org.Id))
	cases := []struct {
		name   string
		user   *testUser
		path   string
		body   map[string]any
		status int
		says   string
	}{
		{"reader", w.reader, "/integrations/x", publishBody(w.org.Id), 403, "admin"},
		{"outsider's organization", w.admin, "/integrations/x", publishBody(w.other.Id), 404, "Organization"},
		{"unknown hostname", w.admin, "/integrations/x", publishBody("no-such-org"), 404, "no-such-org"},
		{"name owned elsewhere", w.outsider, "/integrations/taken", publishBody(w.other.Id), 409, "another organization"},
		{"bad name", w.admin, "/integrations/bad%20name", publishBody(w.org.Id), 400, "integrationName"},
		{"unknown scope", w.admin, "/integrations/x", publishBody(w.org.Id, "space:everything"), 400, "scopes"},
		{"title too short", w.admin, "/integrations/x", func() map[string]any { b := publishBody(w.org.Id); b["title"] = "x"; return b }(), 400, "title"},
		{"icon not an image", w.admin, "/integrations/x", func() map[string]any {
			b := publishBody(w.org.Id)
			b["icon"] = base64.StdEncoding.EncodeToString([]byte("<svg onload=alert(1)>"))
			return b
		}(), 400, "icon"},
		{"default of the wrong type", w.admin, "/integrations/x", func() map[string]any {
			b := publishBody(w.org.Id)
			b["configurations"] = map[string]any{"space": map[string]any{"properties": map[string]any{
				"count": map[string]any{"type": "number", "default": "ten"}}}}
			return b
		}(), 400, "configurations.space.properties.count.default"},
		{"required names no property", w.admin, "/integrations/x", func() map[string]any {
			b := publishBody(w.org.Id)
			b["configurations"] = map[string]any{"account": map[string]any{"properties": map[string]any{}, "required": []string{"ghost"}}}
			return b
		}(), 400, "configurations.account.required"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := w.Expect(t, c.status, c.user, "POST", c.path, c.body)
			if msg := r.ErrorMessage(t); !strings.Contains(msg, c.says) {
				t.Errorf("message %q does not say %q", msg, c.says)
			}
		})
	}
	if r := w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/taken", nil).Map(t); r["version"] != float64(1) {
		t.Errorf("a refused publish changed the integration: %v", r["version"])
	}
}

func TestGetAndUnpublishIntegration(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	private := publishBody(w.org.Id)
	private["visibility"] = "private"
	w.publish(t, "internal-tool", private)
	w.publish(t, "public-tool", publishBody(w.org.Id))

	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/no-such", nil)
	// A private integration is its organization's: others cannot tell it exists.
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/integrations/internal-tool", nil)
	var in gen.Integration
	w.Expect(t, http.StatusOK, w.reader, "GET", "/integrations/internal-tool", nil).Decode(t, &in)
	if in.Permissions.Admin {
		t.Error("a reader is reported admin of the integration")
	}
	w.Expect(t, http.StatusOK, w.outsider, "GET", "/integrations/public-tool", nil).Decode(t, &in)
	if in.Permissions.Admin || in.Owner.Permissions.Admin {
		t.Error("an outsider is reported admin")
	}

	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", "/integrations/public-tool", nil)
	w.Expect(t, http.StatusForbidden, w.outsider, "DELETE", "/integrations/public-tool", nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/integrations/public-tool", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/public-tool", nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/integrations/public-tool", nil)
}

func TestListIntegrations(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	a := publishBody(w.org.Id, "space:content:read")
	a["title"], a["description"], a["categories"], a["target"] = "Analytics Pro", "Counts visits", []string{"analytics"}, "site"
	a["blocks"] = []map[string]any{{"id": "chart", "title": "Chart", "urlUnfurl": []string{"https://charts.example.com/c/1"}}}
	w.publish(t, "analytics-pro", a)
	b := publishBody(w.org.Id, "site:metadata:read")
	b["categories"] = []string{"content"}
	b["contentSources"] = []map[string]any{{"id": "src", "title": "Source", "configuration": map[string]any{"componentId": "c"}}}
	w.publish(t, "b_source", b)
	c := publishBody(w.org.Id)
	c["visibility"], c["target"] = "private", "all"
	w.publish(t, "c-private", c)
	o := publishBody(w.other.Id)
	o["visibility"] = "unlisted"
	w.Expect(t, http.StatusOK, w.outsider, "POST", "/integrations/d-unlisted", o)

	names := func(u *testUser, query string) []string {
		t.Helper()
		var list gen.IntegrationList
		w.Expect(t, http.StatusOK, u, "GET", "/integrations"+query, nil).Decode(t, &list)
		out := []string{}
		for _, in := range list.Items {
			out = append(out, in.Name)
		}
		if list.Count != len(out) && !strings.Contains(query, "limit") {
			t.Errorf("%s: count %d, %d items", query, list.Count, len(out))
		}
		return out
	}
	for _, c := range []struct {
		user  *testUser
		query string
		want  string
	}{
		{w.admin, "", "analytics-pro b_source c-private"},
		{w.outsider, "", "analytics-pro b_source d-unlisted"}, // unlisted: listed to its own organization only
		{w.admin, "?search=VISITS", "analytics-pro"},
		{w.admin, "?search=_", "b_source"},
		{w.admin, "?category=content", "b_source"},
		{w.admin, "?blockDomain=charts.example.com", "analytics-pro"},
		{w.admin, "?blockDomain=example.com", ""},
		{w.admin, "?blocks=true", "analytics-pro"},
		{w.admin, "?blocks=false", "b_source c-private"},
		{w.admin, "?contentSources=true", "b_source"},
		{w.admin, "?owner=" + w.org.Id, "analytics-pro b_source c-private"},
		{w.outsider, "?owner=" + w.other.Id, "d-unlisted"},
		{w.admin, "?owner=" + w.other.Id, ""},
		{w.admin, "?scope=site:metadata:read", "b_source"},
		{w.admin, "?target=site", "analytics-pro b_source c-private"},
		{w.admin, "?target=space", "b_source c-private"},
	} {
		if got := strings.Join(names(c.user, c.query), " "); got != c.want {
			t.Errorf("GET /integrations%s as %s: %q, want %q", c.query, c.user.Email, got, c.want)
		}
	}
	// Paging: a cursor per page, the count of the whole list on each.
	var first, second gen.IntegrationList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations?limit=2", nil).Decode(t, &first)
	if len(first.Items) != 2 || first.Count != 3 || first.Next == nil {
		t.Fatalf("first page %d items, count %d, next %v", len(first.Items), first.Count, first.Next)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations?limit=2&page="+first.Next.Page, nil).Decode(t, &second)
	if len(second.Items) != 1 || second.Items[0].Name != "c-private" || second.Next != nil {
		t.Fatalf("second page %+v", second)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/integrations?category=nope", nil)
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/integrations?page=garbage", nil)
}

// TestPublishIntegrationComponentsAndPolicy: a level may be configured by a component of the
// integration's (0.202.0's componentId), which then owns the configuration's shape; the content
// security policy may be given by directive (an object) and is answered as given; the scopes take
// site:visitor:claims.
func TestPublishIntegrationComponentsAndPolicy(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	body := publishBody(w.org.Id, "space:content:read", "site:visitor:claims")
	body["configurations"] = map[string]any{
		"account": map[string]any{"properties": map[string]any{"channel": map[string]any{"type": "string"}}},
		"space":   map[string]any{"componentId": "space-settings"},
	}
	body["contentSecurityPolicy"] = map[string]any{"script-src": "'self' https://cdn.example", "default-src": "'self'", "upgrade-insecure-requests": ""}
	in := w.publish(t, "kit", body)
	space, err := in.Configurations.Space.AsIntegrationConfigurationComponent()
	if err != nil || space.ComponentId != "space-settings" {
		t.Errorf("space configuration %+v %v", space, err)
	}
	if in.Scopes[1] != gen.IntegrationScopeSiteVisitorClaims {
		t.Errorf("scopes %v", in.Scopes)
	}
	csp, err := in.ContentSecurityPolicy.AsIntegrationContentSecurityPolicyDirectives()
	if err != nil || csp.ScriptSrc == nil || *csp.ScriptSrc != "'self' https://cdn.example" || csp.DefaultSrc == nil || csp.ImgSrc != nil {
		t.Errorf("policy answered %+v %v", csp, err)
	}
	stored, err := w.Store.FindIntegrationByName(context.Background(), "kit")
	if err != nil {
		t.Fatal(err)
	}
	if want := "default-src 'self'; script-src 'self' https://cdn.example; upgrade-insecure-requests"; stored.ContentSecurityPolicy != want {
		t.Errorf("policy stored as %q, want %q", stored.ContentSecurityPolicy, want)
	}

	// The component's level takes any configuration; the schema's level still checks its own.
	n := w.install(t, w.admin, "kit", w.org.Id)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Kit handbook", "")
	base := "/integrations/kit/installations/" + n.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/spaces", map[string]any{"space": sp.Id})
	var si gen.IntegrationSpaceInstallation
	w.Expect(t, http.StatusOK, w.admin, "PATCH", base+"/spaces/"+sp.Id,
		map[string]any{"configuration": map[string]any{"anything": map[string]any{"nested": true}}}).Decode(t, &si)
	if si.Status != gen.IntegrationInstallationStatusActive || si.Configuration["anything"] == nil {
		t.Errorf("space installation %+v", si)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", base, map[string]any{"configuration": map[string]any{"anything": 1}})

	// A policy given as a string is answered as a string (0.146.0's form).
	body["contentSecurityPolicy"] = "default-src 'none'"
	again := w.publish(t, "kit", body)
	if s, err := again.ContentSecurityPolicy.AsIntegrationContentSecurityPolicy0(); err != nil || s != "default-src 'none'" {
		t.Errorf("string policy answered %v %v", s, err)
	}

	// Refused, and nothing published: an unknown directive, a configuration both ways, an empty
	// component id.
	for _, tc := range []struct {
		field string
		value any
	}{
		{"contentSecurityPolicy", map[string]any{"scripts-src": "'self'"}},
		{"contentSecurityPolicy", map[string]any{"script-src": 1}},
		{"configurations", map[string]any{"site": map[string]any{"componentId": "x", "properties": map[string]any{}}}},
		{"configurations", map[string]any{"site": map[string]any{"componentId": ""}}},
	} {
		bad := publishBody(w.org.Id)
		bad[tc.field] = tc.value
		r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/integrations/kit", bad)
		if !strings.Contains(r.ErrorMessage(t), tc.field) {
			t.Errorf("%v: message %s", tc.value, r.Body)
		}
	}
	if cur, _ := w.Store.FindIntegrationByName(context.Background(), "kit"); cur.Version != again.Version {
		t.Errorf("a refused publish made version %d", cur.Version)
	}
}
