package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// configurable publishes an integration whose account configuration needs a channel (one of two
// values) and takes an optional count.
func (w *integrationWorld) configurable(t *testing.T, name string, scopes ...string) gen.Integration {
	t.Helper()
	b := publishBody(w.org.Id, scopes...)
	b["configurations"] = map[string]any{"account": map[string]any{
		"properties": map[string]any{
			"channel": map[string]any{"type": "string", "enum": []string{"general", "random"}},
			"count":   map[string]any{"type": "number"},
		},
		"required": []string{"channel"}}}
	return w.publish(t, name, b)
}

func (w *integrationWorld) install(t *testing.T, u *testUser, name, orgID string) gen.IntegrationInstallation {
	t.Helper()
	var n gen.IntegrationInstallation
	r := w.Expect(t, http.StatusCreated, u, "POST", "/integrations/"+name+"/installations", map[string]any{"organization": orgID})
	r.Decode(t, &n)
	if loc := r.Header.Get("Location"); loc != n.Urls.Location {
		t.Errorf("Location %q, urls.location %q", loc, n.Urls.Location)
	}
	return n
}

func TestInstallIntegration(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.configurable(t, "notify")
	path := "/integrations/notify/installations"

	w.Expect(t, http.StatusForbidden, w.reader, "POST", path, map[string]any{"organization": w.org.Id})
	w.Expect(t, http.StatusNotFound, w.admin, "POST", path, map[string]any{"organization": w.other.Id})
	w.Expect(t, http.StatusNotFound, w.admin, "POST", "/integrations/nope/installations", map[string]any{"organization": w.org.Id})

	n := w.install(t, w.admin, "notify", w.org.Id)
	if n.Status != "pending" || n.Target.Organization != w.org.Id || n.Spaces != 0 || len(n.ExternalIds) != 0 {
		t.Fatalf("installation %+v (a required property has no value: pending)", n)
	}
	w.Expect(t, http.StatusConflict, w.admin, "POST", path, map[string]any{"organization": w.org.Id})
	// Another organization installs the same public integration.
	theirs := w.install(t, w.outsider, "notify", w.other.Id)

	// The configuration is checked against the account schema, naming the property.
	one := path + "/" + n.Id
	for _, c := range []struct {
		config map[string]any
		says   string
	}{
		{map[string]any{"channel": "general", "colour": "red"}, `"configuration.colour"`},
		{map[string]any{"channel": 7}, `"configuration.channel": a string`},
		{map[string]any{"channel": "nope"}, `"configuration.channel": one of`},
		{map[string]any{"channel": "random", "count": "3"}, `"configuration.count": a number`},
	} {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", one, map[string]any{"configuration": c.config})
		if msg := r.ErrorMessage(t); !strings.Contains(msg, c.says) {
			t.Errorf("%v: %q does not say %s", c.config, msg, c.says)
		}
	}
	w.Expect(t, http.StatusForbidden, w.reader, "PATCH", one, map[string]any{"externalIds": []string{"x"}})
	w.Expect(t, http.StatusNotFound, w.outsider, "PATCH", one, map[string]any{"externalIds": []string{"x"}})
	var upd gen.IntegrationInstallation
	w.Expect(t, http.StatusOK, w.admin, "PATCH", one, map[string]any{"configuration": map[string]any{"channel": "general", "count": 3},
		"externalIds": []string{"team-1", "team_2"}, "space_selection": "all"}).Decode(t, &upd)
	if upd.Status != "active" || upd.Configuration["channel"] != "general" || upd.SpaceSelection != "all" || len(upd.ExternalIds) != 2 {
		t.Fatalf("updated %+v", upd)
	}

	// Lists: the owner's admins see every installation; another organization's admin its own.
	list := func(u *testUser, query string) []string {
		t.Helper()
		var l gen.IntegrationInstallationList
		w.Expect(t, http.StatusOK, u, "GET", path+query, nil).Decode(t, &l)
		ids := []string{}
		for _, it := range l.Items {
			ids = append(ids, it.Id)
		}
		return ids
	}
	if got := list(w.admin, ""); len(got) != 2 {
		t.Errorf("owner sees %v", got)
	}
	if got := list(w.outsider, ""); len(got) != 1 || got[0] != theirs.Id {
		t.Errorf("other organization sees %v", got)
	}
	if got := list(w.reader, ""); len(got) != 0 {
		t.Errorf("a reader sees %v", got)
	}
	if got := list(w.admin, "?externalId=team_2"); len(got) != 1 || got[0] != n.Id {
		t.Errorf("externalId filter: %v", got)
	}
	if got := list(w.admin, "?externalId=team"); len(got) != 0 {
		t.Errorf("externalId matches whole ids only: %v", got)
	}
	var page1, page2 gen.IntegrationInstallationList
	w.Expect(t, http.StatusOK, w.admin, "GET", path+"?limit=1", nil).Decode(t, &page1)
	w.Expect(t, http.StatusOK, w.admin, "GET", path+"?limit=1&page="+page1.Next.Page, nil).Decode(t, &page2)
	if page1.Count != 2 || page1.Items[0].Id != n.Id || page2.Items[0].Id != theirs.Id || page2.Next != nil {
		t.Errorf("paging: %+v then %+v", page1, page2)
	}
}

func TestInstallIntegrationOnSpacesAndSites(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	b := publishBody(w.org.Id)
	b["target"] = "space"
	w.publish(t, "space-only", b)
	w.publish(t, "anywhere", publishBody(w.org.Id))
	spaceOnly := w.install(t, w.admin, "space-only", w.org.Id)
	n := w.install(t, w.admin, "anywhere", w.org.Id)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")
	sp2 := w.MustCreateSpace(t, w.admin, w.org.Id, "API", "")
	theirSpace := w.MustCreateSpace(t, w.outsider, w.other.Id, "Theirs", "")
	var site gen.Site
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{}).Decode(t, &site)

	spaces := "/integrations/anywhere/installations/" + n.Id + "/spaces"
	sites := "/integrations/anywhere/installations/" + n.Id + "/sites"
	w.Expect(t, http.StatusForbidden, w.reader, "POST", spaces, map[string]any{"space": sp.Id})
	w.Expect(t, http.StatusNotFound, w.admin, "POST", spaces, map[string]any{"space": theirSpace.Id})
	w.Expect(t, http.StatusNotFound, w.admin, "POST", spaces, map[string]any{"space": "nope"})
	w.Expect(t, http.StatusNotFound, w.admin, "POST", "/integrations/anywhere/installations/nope/spaces", map[string]any{"space": sp.Id})
	r := w.Expect(t, http.StatusBadRequest, w.admin, "POST", "/integrations/space-only/installations/"+spaceOnly.Id+"/sites", map[string]any{"siteId": site.Id})
	if !strings.Contains(r.ErrorMessage(t), "target") {
		t.Errorf("refusal %s", r.Body)
	}

	var si gen.IntegrationSpaceInstallation
	r = w.Expect(t, http.StatusCreated, w.admin, "POST", spaces, map[string]any{"space": sp.Id})
	r.Decode(t, &si)
	if id, err := si.Space.AsIntegrationSpaceInstallationSpace0(); err != nil || id != sp.Id || si.Installation != n.Id ||
		si.Integration != "anywhere" || si.Status != "active" || r.Header.Get("Location") != si.Urls.Location {
		t.Fatalf("space installation %s", r.Body)
	}
	w.Expect(t, http.StatusConflict, w.admin, "POST", spaces, map[string]any{"space": sp.Id})
	r = w.Expect(t, http.StatusCreated, w.admin, "POST", spaces+"?extended=true", map[string]any{"space": sp2.Id})
	r.Decode(t, &si)
	if full, err := si.Space.AsSpace(); err != nil || full.Title != "API" {
		t.Fatalf("extended space installation %s", r.Body)
	}
	var sti gen.IntegrationSiteInstallation
	w.Expect(t, http.StatusCreated, w.admin, "POST", sites, map[string]any{"siteId": site.Id}).Decode(t, &sti)
	if id, _ := sti.Site.AsIntegrationSiteInstallationSite0(); id != site.Id {
		t.Fatalf("site installation %+v", sti)
	}
	var inst gen.IntegrationInstallation
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/integrations/anywhere/installations/"+n.Id, map[string]any{}).Decode(t, &inst)
	if inst.Spaces != 2 {
		t.Errorf("installation counts %d spaces, want 2", inst.Spaces)
	}

	// The lists of the integration: ids, or with extended the objects.
	var sl gen.IntegrationSpaceInstallationList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/spaces", nil).Decode(t, &sl)
	if sl.Count != 2 || len(sl.Items) != 2 {
		t.Fatalf("space list %+v", sl)
	}
	raw := w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/spaces?extended=true&limit=1", nil)
	raw.Decode(t, &sl)
	if full, err := sl.Items[0].Space.AsSpace(); err != nil || full.Id != sp.Id || sl.Next == nil {
		t.Fatalf("extended space list %s", raw.Body)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/spaces?page="+sl.Next.Page, nil).Decode(t, &sl)
	if id, _ := sl.Items[0].Space.AsIntegrationSpaceInstallationSpace0(); len(sl.Items) != 1 || id != sp2.Id {
		t.Fatalf("second page %+v", sl)
	}
	if w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/spaces?externalId=nope", nil).Decode(t, &sl); sl.Count != 0 {
		t.Errorf("externalId filter kept %d", sl.Count)
	}
	if w.Expect(t, http.StatusOK, w.reader, "GET", "/integrations/anywhere/spaces", nil).Decode(t, &sl); sl.Count != 0 {
		t.Errorf("a reader lists %d space installations", sl.Count)
	}
	var stl gen.IntegrationSiteInstallationList
	raw = w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/sites?extended=true", nil)
	raw.Decode(t, &stl)
	if full, err := stl.Items[0].Site.AsSite(); err != nil || full.Id != site.Id || stl.Count != 1 {
		t.Fatalf("extended site list %s", raw.Body)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/sites", nil).Decode(t, &stl)
	if id, _ := stl.Items[0].Site.AsIntegrationSiteInstallationSite0(); id != site.Id {
		t.Fatalf("site list %+v", stl)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/nope/sites", nil)
	// A site deleted since is answered by its id, even when the objects are asked for.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/orgs/"+w.org.Id+"/sites/"+site.Id, nil)
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/sites?extended=true", nil).Decode(t, &stl)
	if id, err := stl.Items[0].Site.AsIntegrationSiteInstallationSite0(); err != nil || id != site.Id {
		t.Fatalf("a deleted site's installation: %+v", stl)
	}

	// Each setup was recorded as an event of the integration.
	var events gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/anywhere/events", nil).Decode(t, &events)
	types := []string{}
	for _, e := range events.Items {
		types = append(types, string(e.Payload.Type))
	}
	if got := strings.Join(types, " "); got != "installation_setup site_installation_setup space_installation_setup space_installation_setup installation_setup" {
		t.Errorf("events newest first: %s", got)
	}
	first, _ := json.Marshal(events.Items[1].Payload)
	if events.Items[1].Payload.SiteId == nil || *events.Items[1].Payload.SiteId != site.Id {
		t.Errorf("site event payload %s", first)
	}
}
