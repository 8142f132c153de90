package storetest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// installationLifecycle: space and site installations read, updated and removed one by one, each
// change with its event (queued for delivery in development mode); uninstalling, which takes the
// space and site installations and the tokens with it; and the organization's installation list
// with its search (LIKE wildcards match literally) and paging.
func installationLifecycle(t *testing.T, open Opener) {
	w, clock, other := integrationWorld(t, open)
	ctx := context.Background()
	in, err := w.st.PublishIntegration(ctx, publishOf("notify_1", w.org, func(p *store.IntegrationPublish) { p.Title = "Notify" }))
	if err != nil {
		t.Fatal(err)
	}
	second, err := w.st.PublishIntegration(ctx, publishOf("second", w.org, func(p *store.IntegrationPublish) { p.Title = "Second 100%" }))
	if err != nil {
		t.Fatal(err)
	}
	n, err := w.st.InstallIntegration(ctx, in.ID, w.org, "active", w.user)
	if err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Second)
	_, err = w.st.InstallIntegration(ctx, second.ID, w.org, "active", w.user)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.InstallIntegration(ctx, in.ID, other.ID, "active", w.user); err != nil {
		t.Fatal(err)
	}
	sp := w.space("Docs")
	if _, err := w.st.InstallOnContent(ctx, n.ID, store.InstallOnSpace, sp.ID, "pending"); err != nil {
		t.Fatal(err)
	}
	site, err := w.st.CreateSite(ctx, w.org, store.SiteCreate{Title: "Site", Type: "basic", Visibility: "public"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.InstallOnContent(ctx, n.ID, store.InstallOnSite, site.ID, "pending"); err != nil {
		t.Fatal(err)
	}
	// Events list newest first: each change below happens a second after the one before.
	tick := func() { clock.advance(time.Second) }
	latest := func() map[string]any {
		t.Helper()
		events, err := w.st.FindIntegrationEvents(ctx, in.ID, store.Page{Limit: 1})
		if err != nil || len(events.Items) != 1 {
			t.Fatalf("events: %+v, %v", events, err)
		}
		var m map[string]any
		if err := json.Unmarshal(events.Items[0].Payload, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}

	// One space installation: read, updated (with its event), refused where it is not set up.
	c, err := w.st.FindContentInstallation(ctx, n.ID, store.InstallOnSpace, sp.ID)
	if err != nil || c.TargetID != sp.ID || c.Status != "pending" || c.IntegrationName != "notify_1" {
		t.Fatalf("space installation %+v, %v", c, err)
	}
	_, err = w.st.FindContentInstallation(ctx, n.ID, store.InstallOnSite, sp.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.UpdateContentInstallation(ctx, n.ID, store.InstallOnSpace, "nope", store.ContentInstallationUpdate{Status: "active"})
	wantCode(t, err, store.ENOTFOUND)
	tick()
	c, err = w.st.UpdateContentInstallation(ctx, n.ID, store.InstallOnSpace, sp.ID, store.ContentInstallationUpdate{
		Configuration: json.RawMessage(`{"channel":"general"}`), ExternalIDs: &[]string{"ext_1"}, Status: "active"})
	if err != nil || c.Status != "active" || string(c.Configuration) != `{"channel":"general"}` || len(c.ExternalIDs) != 1 {
		t.Fatalf("updated %+v, %v", c, err)
	}
	if e := latest(); e["type"] != "space_installation_setup" || e["spaceId"] != sp.ID || e["status"] != "active" ||
		e["previous"].(map[string]any)["status"] != "pending" {
		t.Fatalf("update event %v", e)
	}
	// An update leaving the configuration alone keeps it.
	tick()
	c, err = w.st.UpdateContentInstallation(ctx, n.ID, store.InstallOnSpace, sp.ID, store.ContentInstallationUpdate{Status: "active"})
	if err != nil || string(c.Configuration) != `{"channel":"general"}` || c.ExternalIDs[0] != "ext_1" {
		t.Fatalf("second update %+v, %v", c, err)
	}
	for id, want := range map[string]int{"ext_1": 1, "ext%1": 0, "ext": 0} {
		list, err := w.st.FindContentInstallations(ctx, in.ID, store.InstallOnSpace, store.InstallationFilter{ExternalID: str(id)}, store.Page{})
		if err != nil || list.Count != want {
			t.Errorf("externalId %q: %d, %v", id, list.Count, err)
		}
	}

	// Removed from the site: its event names the site and the configuration it had.
	tick()
	if err := w.st.UninstallFromContent(ctx, n.ID, store.InstallOnSite, site.ID); err != nil {
		t.Fatal(err)
	}
	err = w.st.UninstallFromContent(ctx, n.ID, store.InstallOnSite, site.ID)
	wantCode(t, err, store.ENOTFOUND)
	if e := latest(); e["type"] != "site_installation_deleted" || e["siteId"] != site.ID || e["previous"] == nil || e["status"] != nil {
		t.Fatalf("site removal event %v", e)
	}
	g, err := w.st.FindInstallationGrant(ctx, n.ID)
	if err != nil || len(g.SiteIDs) != 0 || len(g.SpaceIDs) != 1 {
		t.Fatalf("grant after the site removal %+v, %v", g, err)
	}

	// The organization's installations with their integrations, searched and paged.
	names := func(search *string, p store.Page) (string, store.List[*store.OrganizationInstallation]) {
		t.Helper()
		list, err := w.st.FindOrganizationInstallations(ctx, w.org, search, p)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, it := range list.Items {
			if it.Installation.IntegrationID != it.Integration.ID || it.Installation.OrganizationID != w.org {
				t.Errorf("item %+v / %+v", it.Installation, it.Integration)
			}
			got = append(got, it.Integration.Name)
		}
		return strings.Join(got, " "), list
	}
	for _, c := range []struct {
		search *string
		want   string
	}{
		{nil, "notify_1 second"},
		{str("NOTIFY"), "notify_1"},
		{str("y_"), "notify_1"},
		{str("y%"), ""},
		{str("100%"), "second"},
		{str("nothing"), ""},
	} {
		if got, list := names(c.search, store.Page{}); got != c.want || list.Count != len(strings.Fields(c.want)) {
			t.Errorf("search %v: %q (count %d), want %q", c.search, got, list.Count, c.want)
		}
	}
	first, list := names(nil, store.Page{Limit: 1})
	if first != "notify_1" || list.Next == "" || list.Count != 2 {
		t.Fatalf("first page %q %+v", first, list)
	}
	if got, list := names(nil, store.Page{Limit: 1, Cursor: list.Next}); got != "second" || list.Next != "" {
		t.Fatalf("second page %q %+v", got, list)
	}
	_, err = w.st.FindOrganizationInstallations(ctx, w.org, nil, store.Page{Cursor: "garbage"})
	wantCode(t, err, store.EINVALID)

	// Uninstalling, in development mode: the event waits for delivery; the space installations
	// and the tokens go with the installation; another organization's installation stays.
	if err := w.st.SetIntegrationDevMode(ctx, "notify_1", str("https://tunnel.example.com"), false); err != nil {
		t.Fatal(err)
	}
	token, err := w.st.CreateInstallationToken(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	err = w.st.UninstallIntegration(ctx, second.ID, n.ID) // another integration's installation
	wantCode(t, err, store.ENOTFOUND)
	tick()
	if err := w.st.UninstallIntegration(ctx, in.ID, n.ID); err != nil {
		t.Fatal(err)
	}
	e := latest()
	if e["type"] != "installation_deleted" || e["installationId"] != n.ID || e["previous"] == nil {
		t.Fatalf("uninstall event %v", e)
	}
	events, _ := w.st.FindIntegrationEvents(ctx, in.ID, store.Page{Limit: 1})
	if events.Items[0].Status != store.EventPending {
		t.Errorf("the uninstall event is %s in development mode", events.Items[0].Status)
	}
	due, err := w.st.DueJobs(ctx, 10)
	if err != nil || len(due) != 1 || due[0].Kind != store.DeliverIntegrationEventJob || !strings.Contains(due[0].Payload, events.Items[0].ID) {
		t.Fatalf("delivery job: %+v, %v", due, err)
	}
	_, _, err = w.st.FindUserByToken(ctx, token)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.FindInstallationGrant(ctx, n.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.FindContentInstallation(ctx, n.ID, store.InstallOnSpace, sp.ID)
	wantCode(t, err, store.ENOTFOUND)
	if spaces, err := w.st.FindContentInstallations(ctx, in.ID, store.InstallOnSpace, store.InstallationFilter{}, store.Page{}); err != nil || spaces.Count != 0 {
		t.Fatalf("space installations after uninstalling %+v, %v", spaces, err)
	}
	if all, err := w.st.FindInstallations(ctx, in.ID, store.InstallationFilter{}, store.Page{}); err != nil || all.Count != 1 || all.Items[0].OrganizationID != other.ID {
		t.Fatalf("installations after uninstalling %+v, %v", all, err)
	}
	err = w.st.UninstallIntegration(ctx, in.ID, n.ID)
	wantCode(t, err, store.ENOTFOUND)
	if got, _ := names(nil, store.Page{}); got != "second" {
		t.Errorf("organization installations after uninstalling: %q", got)
	}
	// Installing again starts afresh.
	again, err := w.st.InstallIntegration(ctx, in.ID, w.org, "active", w.user)
	if err != nil || again.ID == n.ID || again.Spaces != 0 {
		t.Fatalf("installing again %+v, %v", again, err)
	}
}
