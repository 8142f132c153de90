package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/store"
)

// everywhere publishes an integration whose account, space and site configurations each take a
// required channel (one of two values).
func (w *integrationWorld) everywhere(t *testing.T, name string, scopes ...string) gen.Integration {
	t.Helper()
	schema := func() map[string]any {
		return map[string]any{"properties": map[string]any{
			"channel": map[string]any{"type": "string", "enum": []string{"general", "random"}},
		}, "required": []string{"channel"}}
	}
	b := publishBody(w.org.Id, scopes...)
	b["configurations"] = map[string]any{"account": schema(), "space": schema(), "site": schema()}
	return w.publish(t, name, b)
}

// installEverywhere installs an integration on Acme, on a new space and on a new site.
func (w *integrationWorld) installEverywhere(t *testing.T, name string) (gen.IntegrationInstallation, gen.Space, gen.Site) {
	t.Helper()
	n := w.install(t, w.admin, name, w.org.Id)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook "+name, "")
	var site gen.Site
	w.Expect(t, http.StatusCreated, w.admin, "POST", "/orgs/"+w.org.Id+"/sites", map[string]any{}).Decode(t, &site)
	base := "/integrations/" + name + "/installations/" + n.Id
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/spaces", map[string]any{"space": sp.Id})
	w.Expect(t, http.StatusCreated, w.admin, "POST", base+"/sites", map[string]any{"siteId": site.Id})
	return n, sp, site
}

func (w *integrationWorld) events(t *testing.T, name string) []gen.IntegrationEvent {
	t.Helper()
	var list gen.IntegrationEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/"+name+"/events?limit=100", nil).Decode(t, &list)
	return list.Items
}

func TestUninstallIntegration(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.everywhere(t, "notify", "space:content:read")
	w.publish(t, "second", publishBody(w.org.Id))
	n, sp, _ := w.installEverywhere(t, "notify")
	w.Expect(t, http.StatusOK, w.admin, "PATCH", "/integrations/notify/installations/"+n.Id,
		map[string]any{"configuration": map[string]any{"channel": "random"}})
	theirs := w.install(t, w.outsider, "notify", w.other.Id)
	var tok gen.IntegrationInstallationToken
	w.Expect(t, http.StatusOK, w.admin, "POST", "/integrations/notify/installations/"+n.Id+"/tokens", nil).Decode(t, &tok)
	inst := &testUser{Token: tok.Token}
	w.Expect(t, http.StatusOK, inst, "GET", "/spaces/"+sp.Id+"/content/pages", nil)

	one := "/integrations/notify/installations/" + n.Id
	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", one, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", one, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "DELETE", "/integrations/second/installations/"+n.Id, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "DELETE", "/integrations/nope/installations/"+n.Id, nil)
	// The integration's authors do not uninstall it from another organization: that is its admins'.
	w.Expect(t, http.StatusNotFound, w.admin, "DELETE", "/integrations/notify/installations/"+theirs.Id, nil)
	// An installation token is not the organization's admin.
	w.Expect(t, http.StatusForbidden, inst, "DELETE", one, nil)
	if _, err := w.Store.FindInstallation(context.Background(), "", n.Id); err != nil {
		t.Fatalf("a refused uninstall changed something: %v", err)
	}

	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", one, nil)
	// Its tokens answer 401 at once (the token cache notwithstanding), and it is gone with its
	// space and site installations.
	w.Expect(t, http.StatusUnauthorized, inst, "GET", "/spaces/"+sp.Id+"/content/pages", nil)
	w.Expect(t, http.StatusUnauthorized, inst, "GET", "/integrations/notify/installations", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", one, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", one+"/spaces", nil)
	var sl gen.IntegrationSpaceInstallationList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/spaces", nil).Decode(t, &sl)
	var stl gen.IntegrationSiteInstallationList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/sites", nil).Decode(t, &stl)
	if sl.Count != 0 || stl.Count != 0 {
		t.Fatalf("after uninstalling: %d space and %d site installations", sl.Count, stl.Count)
	}
	if _, err := w.Store.FindInstallationGrant(context.Background(), n.Id); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("grant after uninstalling: %v", err)
	}
	// Another organization's installation of the same integration stays.
	w.Expect(t, http.StatusOK, w.outsider, "GET", "/integrations/notify/installations/"+theirs.Id, nil)

	// The integration is told: installation_deleted with the configuration it had.
	ev := w.events(t, "notify")[0]
	raw, _ := json.Marshal(ev.Payload)
	if ev.Payload.Type != "installation_deleted" || ev.Payload.InstallationId != n.Id || ev.InstallationId != n.Id ||
		ev.Payload.Status != nil || ev.Payload.Previous == nil || ev.Payload.Previous.Configuration == nil ||
		(*ev.Payload.Previous.Configuration)["channel"] != "random" {
		t.Fatalf("uninstall event %s", raw)
	}

	// Uninstalling again, or what never was: 204, nothing changes.
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", one, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", "/integrations/notify/installations/nope", nil)
	if got := len(w.events(t, "notify")); got != 6 {
		t.Errorf("%d events after uninstalling twice, want 6 (setup ×4, another organization's, deleted)", got)
	}
	// The organization may install it again.
	w.install(t, w.admin, "notify", w.org.Id)
}

func TestIntegrationSpaceInstallation(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.everywhere(t, "notify")
	w.publish(t, "second", publishBody(w.org.Id))
	n, sp, _ := w.installEverywhere(t, "notify")
	sp2 := w.MustCreateSpace(t, w.admin, w.org.Id, "API", "")
	notInstalled := w.MustCreateSpace(t, w.admin, w.org.Id, "Elsewhere", "")
	base := "/integrations/notify/installations/" + n.Id + "/spaces"
	w.Expect(t, http.StatusCreated, w.admin, "POST", base, map[string]any{"space": sp2.Id})
	theirs := w.install(t, w.outsider, "notify", w.other.Id)

	// The list of one installation's spaces: ids, or with extended the spaces, paged.
	var l gen.IntegrationSpaceInstallationList
	w.Expect(t, http.StatusOK, w.admin, "GET", base+"?limit=1", nil).Decode(t, &l)
	if id, _ := l.Items[0].Space.AsIntegrationSpaceInstallationSpace0(); l.Count != 2 || len(l.Items) != 1 || id != sp.Id || l.Next == nil {
		t.Fatalf("first page %+v", l)
	}
	r := w.Expect(t, http.StatusOK, w.admin, "GET", base+"?extended=true&limit=1&page="+l.Next.Page, nil)
	l = gen.IntegrationSpaceInstallationList{}
	r.Decode(t, &l)
	if full, err := l.Items[0].Space.AsSpace(); err != nil || full.Id != sp2.Id || l.Next != nil {
		t.Fatalf("second page %s", r.Body)
	}
	w.Expect(t, http.StatusForbidden, w.reader, "GET", base, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", base, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/second/installations/"+n.Id+"/spaces", nil)
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", base+"?page=garbage", nil)
	// The integration's authors read another organization's installation (empty here).
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/installations/"+theirs.Id+"/spaces", nil).Decode(t, &l)
	if l.Count != 0 {
		t.Errorf("their installation lists %d spaces", l.Count)
	}

	// One space installation.
	one := base + "/" + sp.Id
	var si gen.IntegrationSpaceInstallation
	w.Expect(t, http.StatusOK, w.admin, "GET", one, nil).Decode(t, &si)
	if id, _ := si.Space.AsIntegrationSpaceInstallationSpace0(); id != sp.Id || si.Installation != n.Id || si.Status != "pending" ||
		!strings.HasSuffix(si.Urls.Location, one) {
		t.Fatalf("space installation %+v", si)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", one+"?extended=true", nil).Decode(t, &si)
	if full, err := si.Space.AsSpace(); err != nil || full.Title != sp.Title {
		t.Fatalf("extended space installation %+v", si)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", base+"/"+notInstalled.Id, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", one, nil)
	w.Expect(t, http.StatusForbidden, w.reader, "GET", one, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/integrations/second/installations/"+n.Id+"/spaces/"+sp.Id, nil)

	// Its configuration is checked against the integration's space schema, naming the property.
	for _, c := range []struct {
		body map[string]any
		says string
	}{
		{map[string]any{"configuration": map[string]any{"channel": "general", "colour": "red"}}, `"configuration.colour"`},
		{map[string]any{"configuration": map[string]any{"channel": "nope"}}, `"configuration.channel": one of`},
		{map[string]any{"externalIds": []string{"a", "b", "c", "d", "e", "f"}}, "externalIds"},
		{map[string]any{"space_selection": "all"}, "space_selection"},
	} {
		r := w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", one, c.body)
		if msg := r.ErrorMessage(t); !strings.Contains(msg, c.says) {
			t.Errorf("%v: %q does not say %s", c.body, msg, c.says)
		}
	}
	w.Expect(t, http.StatusForbidden, w.reader, "PATCH", one, map[string]any{"externalIds": []string{"x"}})
	w.Expect(t, http.StatusNotFound, w.outsider, "PATCH", one, map[string]any{"externalIds": []string{"x"}})
	w.Expect(t, http.StatusNotFound, w.admin, "PATCH", base+"/"+notInstalled.Id, map[string]any{"externalIds": []string{"x"}})
	if e := w.events(t, "notify"); e[0].Payload.Type != "installation_setup" {
		t.Fatalf("a refused update recorded %s", e[0].Payload.Type)
	}
	w.Expect(t, http.StatusOK, w.admin, "PATCH", one, map[string]any{"configuration": map[string]any{"channel": "general"},
		"externalIds": []string{"chan-1"}}).Decode(t, &si)
	if si.Status != "active" || si.Configuration["channel"] != "general" || len(si.ExternalIds) != 1 {
		t.Fatalf("updated %+v", si)
	}
	// The external id filters the integration's space list.
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/spaces?externalId=chan-1", nil).Decode(t, &l)
	if id, _ := l.Items[0].Space.AsIntegrationSpaceInstallationSpace0(); l.Count != 1 || id != sp.Id {
		t.Errorf("externalId filter %+v", l)
	}
	ev := w.events(t, "notify")[0].Payload
	if ev.Type != "space_installation_setup" || ev.SpaceId == nil || *ev.SpaceId != sp.Id || ev.Status == nil ||
		*ev.Status != "active" || ev.Previous == nil || ev.Previous.Status == nil || *ev.Previous.Status != "pending" {
		t.Fatalf("update event %+v", ev)
	}

	// Removing it from the space: 205, then 204; the event names the space and the configuration.
	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", one, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", one, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "DELETE", "/integrations/second/installations/"+n.Id+"/spaces/"+sp.Id, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "DELETE", "/integrations/notify/installations/nope/spaces/"+sp.Id, nil)
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", one, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", one, nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", one, nil)
	ev = w.events(t, "notify")[0].Payload
	if ev.Type != "space_installation_deleted" || ev.SpaceId == nil || *ev.SpaceId != sp.Id || ev.Status != nil ||
		ev.Previous == nil || ev.Previous.Configuration == nil || (*ev.Previous.Configuration)["channel"] != "general" {
		t.Fatalf("delete event %+v", ev)
	}
	var inst gen.IntegrationInstallation
	w.Expect(t, http.StatusOK, w.admin, "GET", "/integrations/notify/installations/"+n.Id, nil).Decode(t, &inst)
	if inst.Spaces != 1 {
		t.Errorf("the installation counts %d spaces, want 1", inst.Spaces)
	}
}

func TestIntegrationSiteInstallation(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.everywhere(t, "notify")
	n, _, site := w.installEverywhere(t, "notify")
	base := "/integrations/notify/installations/" + n.Id + "/sites"
	one := base + "/" + site.Id

	var l gen.IntegrationSiteInstallationList
	r := w.Expect(t, http.StatusOK, w.admin, "GET", base+"?extended=true", nil)
	r.Decode(t, &l)
	if full, err := l.Items[0].Site.AsSite(); err != nil || l.Count != 1 || full.Id != site.Id {
		t.Fatalf("site list %s", r.Body)
	}
	w.Expect(t, http.StatusForbidden, w.reader, "GET", base, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", base, nil)

	var si gen.IntegrationSiteInstallation
	w.Expect(t, http.StatusOK, w.admin, "GET", one, nil).Decode(t, &si)
	if id, _ := si.Site.AsIntegrationSiteInstallationSite0(); id != site.Id || si.Status != "pending" {
		t.Fatalf("site installation %+v", si)
	}
	w.Expect(t, http.StatusNotFound, w.admin, "GET", base+"/nope", nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", one, nil)

	r = w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", one, map[string]any{"configuration": map[string]any{"channel": 3}})
	if msg := r.ErrorMessage(t); !strings.Contains(msg, `"configuration.channel": a string`) {
		t.Errorf("refusal %q", msg)
	}
	w.Expect(t, http.StatusForbidden, w.reader, "PATCH", one, map[string]any{"externalIds": []string{"x"}})
	w.Expect(t, http.StatusOK, w.admin, "PATCH", one+"?extended=true", map[string]any{"configuration": map[string]any{"channel": "random"}}).Decode(t, &si)
	if full, err := si.Site.AsSite(); err != nil || full.Id != site.Id || si.Status != "active" {
		t.Fatalf("updated %+v", si)
	}
	ev := w.events(t, "notify")[0].Payload
	if ev.Type != "site_installation_setup" || ev.SiteId == nil || *ev.SiteId != site.Id || ev.Previous == nil {
		t.Fatalf("update event %+v", ev)
	}

	w.Expect(t, http.StatusForbidden, w.reader, "DELETE", one, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "DELETE", one, nil)
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", one, nil)
	w.Expect(t, http.StatusNoContent, w.admin, "DELETE", one, nil)
	ev = w.events(t, "notify")[0].Payload
	if ev.Type != "site_installation_deleted" || ev.SiteId == nil || *ev.SiteId != site.Id || ev.Previous == nil ||
		ev.Previous.Configuration == nil || (*ev.Previous.Configuration)["channel"] != "random" {
		t.Fatalf("delete event %+v", ev)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", base, nil).Decode(t, &l)
	if l.Count != 0 {
		t.Errorf("%d site installations after removing the one", l.Count)
	}
}

// TestInstallationTokenContentInstallations: an installation token reads and configures its own
// space installations, loses a space the moment it is removed from it, and uninstalls nothing.
func TestInstallationTokenContentInstallations(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.everywhere(t, "notify", "space:content:read")
	n, sp, site := w.installEverywhere(t, "notify")
	other := w.MustCreateSpace(t, w.admin, w.org.Id, "Not installed", "")
	var tok gen.IntegrationInstallationToken
	w.Expect(t, http.StatusOK, w.admin, "POST", "/integrations/notify/installations/"+n.Id+"/tokens", nil).Decode(t, &tok)
	inst := &testUser{Token: tok.Token}
	base := "/integrations/notify/installations/" + n.Id

	var l gen.IntegrationSpaceInstallationList
	w.Expect(t, http.StatusOK, inst, "GET", base+"/spaces", nil).Decode(t, &l)
	if l.Count != 1 {
		t.Fatalf("the token lists %d spaces", l.Count)
	}
	w.Expect(t, http.StatusOK, inst, "GET", base+"/sites/"+site.Id, nil)
	var si gen.IntegrationSpaceInstallation
	w.Expect(t, http.StatusOK, inst, "PATCH", base+"/spaces/"+sp.Id, map[string]any{"externalIds": []string{"ext"},
		"configuration": map[string]any{"channel": "general"}}).Decode(t, &si)
	if si.Status != "active" || len(si.ExternalIds) != 1 {
		t.Fatalf("the token's update %+v", si)
	}
	w.Expect(t, http.StatusForbidden, inst, "PATCH", base+"/spaces/"+other.Id, map[string]any{"externalIds": []string{"x"}})
	w.Expect(t, http.StatusForbidden, inst, "DELETE", base+"/spaces/"+sp.Id, nil)
	w.Expect(t, http.StatusForbidden, inst, "GET", "/orgs/"+w.org.Id+"/installations", nil)

	w.Expect(t, http.StatusOK, inst, "GET", "/spaces/"+sp.Id+"/content/pages", nil)
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", base+"/spaces/"+sp.Id, nil)
	w.Expect(t, http.StatusForbidden, inst, "GET", "/spaces/"+sp.Id+"/content/pages", nil)
}

func TestListOrganizationInstallations(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	w.publish(t, "alpha-sync", publishBody(w.org.Id))
	b := publishBody(w.org.Id)
	b["title"] = "Beta Notifier"
	w.publish(t, "beta", b)
	w.publish(t, "gamma", publishBody(w.org.Id))
	a := w.install(t, w.admin, "alpha-sync", w.org.Id)
	be := w.install(t, w.admin, "beta", w.org.Id)
	w.install(t, w.outsider, "gamma", w.other.Id)
	path := "/orgs/" + w.org.Id + "/installations"

	var l gen.OrganizationInstallationList
	w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Decode(t, &l)
	if l.Count != 2 || len(l.Items) != 2 || l.Items[0].Installation.Id != a.Id || l.Items[0].Integration.Name != "alpha-sync" ||
		l.Items[1].Installation.Id != be.Id || l.Items[1].Integration.Title != "Beta Notifier" || !l.Items[0].Integration.Permissions.Admin {
		t.Fatalf("organization installations %+v", l)
	}
	w.Expect(t, http.StatusOK, w.admin, "GET", path+"?limit=1", nil).Decode(t, &l)
	if len(l.Items) != 1 || l.Next == nil || l.Count != 2 {
		t.Fatalf("first page %+v", l)
	}
	next := l.Next.Page
	l = gen.OrganizationInstallationList{}
	w.Expect(t, http.StatusOK, w.admin, "GET", path+"?limit=1&page="+next, nil).Decode(t, &l)
	if len(l.Items) != 1 || l.Items[0].Installation.Id != be.Id || l.Next != nil {
		t.Fatalf("second page %+v", l)
	}
	for q, want := range map[string]string{"notifier": "beta", "ALPHA": "alpha-sync", "a%": "", "gamma": ""} {
		w.Expect(t, http.StatusOK, w.admin, "GET", path+"?search="+url.QueryEscape(q), nil).Decode(t, &l)
		got := []string{}
		for _, it := range l.Items {
			got = append(got, it.Integration.Name)
		}
		if strings.Join(got, " ") != want || l.Count != len(got) {
			t.Errorf("search %q: %v (count %d), want %q", q, got, l.Count, want)
		}
	}
	w.Expect(t, http.StatusForbidden, w.reader, "GET", path, nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", path, nil)
	w.Expect(t, http.StatusOK, w.outsider, "GET", "/orgs/"+w.other.Id+"/installations", nil).Decode(t, &l)
	if l.Count != 1 || l.Items[0].Integration.Name != "gamma" || l.Items[0].Integration.Permissions.Admin {
		t.Errorf("another organization's installations %+v", l)
	}
	// Uninstalled: gone from the list.
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", "/integrations/alpha-sync/installations/"+a.Id, nil)
	w.Expect(t, http.StatusOK, w.admin, "GET", path, nil).Decode(t, &l)
	if l.Count != 1 || l.Items[0].Installation.Id != be.Id {
		t.Errorf("after uninstalling %+v", l)
	}
}

// TestUninstallEventDelivery: in development mode the *_installation_deleted events are queued
// and POSTed to the tunnel, signed, as the setup events are.
func TestUninstallEventDelivery(t *testing.T) {
	t.Parallel()
	w := newDeliveryWorld(t)
	w.everywhere(t, "tunnelled")
	n, sp, _ := w.installEverywhere(t, "tunnelled")
	rcv := newReceiver(t, 0)
	rcv.secret = w.signingSecret(t, "tunnelled")
	w.Expect(t, http.StatusNoContent, w.admin, "PUT", "/integrations/tunnelled/dev", map[string]any{"tunnelUrl": rcv.URL + "/events"})

	base := "/integrations/tunnelled/installations/" + n.Id
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", base+"/spaces/"+sp.Id, nil)
	w.Expect(t, http.StatusResetContent, w.admin, "DELETE", base, nil)
	w.runJobs(t)
	if rcv.tries != 2 || rcv.badSigs != 0 || len(rcv.bodies) != 2 {
		t.Fatalf("receiver: %d tries, %d bad signatures, %d accepted", rcv.tries, rcv.badSigs, len(rcv.bodies))
	}
	got := map[string]map[string]any{}
	for _, b := range rcv.bodies {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		got[m["type"].(string)] = m
	}
	if d := got["space_installation_deleted"]; d == nil || d["spaceId"] != sp.Id || d["installationId"] != n.Id || d["previous"] == nil {
		t.Errorf("space_installation_deleted delivered as %v", d)
	}
	if d := got["installation_deleted"]; d == nil || d["installationId"] != n.Id || d["previous"] == nil || d["status"] != nil {
		t.Errorf("installation_deleted delivered as %v", d)
	}
	for _, e := range w.events(t, "tunnelled")[:2] {
		if e.Status != "success" {
			t.Errorf("event %s (%s) answers %s after its delivery", e.Id, e.Payload.Type, e.Status)
		}
	}
}
