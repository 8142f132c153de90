package storetest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

func publishOf(name, org string, edit func(p *store.IntegrationPublish)) *store.IntegrationPublish {
	p := &store.IntegrationPublish{Integration: store.Integration{Name: name, OrganizationID: org, Title: name,
		Visibility: "public", Target: "all", Runtime: "v1", Scopes: []string{}, Categories: []string{},
		Manifest: json.RawMessage(`{}`), SealedSecrets: "sealed", SealedSigningSecret: "sealed-signing"}}
	if edit != nil {
		edit(p)
	}
	return p
}

// integrationWorld is where both integration tests start: a world on a fake clock and a second
// organization of the same user.
func integrationWorld(t *testing.T, open Opener) (*world, *fakeClock, *store.Organization) {
	clock := &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	other, err := w.st.CreateOrganization(context.Background(), "Other", w.user)
	if err != nil {
		t.Fatal(err)
	}
	return w, clock, other
}

// integrations: publishing versions, the list filters (LIKE wildcards in the input match
// literally), installations with their events, content installations, development-mode events
// queued as durable jobs, installation tokens that expire, and unpublishing that takes it all.
func integrations(t *testing.T, open Opener) {
	w, clock, other := integrationWorld(t, open)
	ctx := context.Background()

	in, err := w.st.PublishIntegration(ctx, publishOf("a_b", w.org, func(p *store.IntegrationPublish) {
		p.Categories, p.Scopes, p.Target = []string{"analytics"}, []string{"space:content:read"}, "space"
		p.BlockDomains, p.HasBlocks = []string{"x.example.com"}, true
		p.Icon = &store.IntegrationAsset{ContentType: "image/png", Data: []byte{1, 2, 3}}
	}))
	if err != nil || in.Version != 1 || !in.HasIcon || in.SealedSigningSecret != "sealed-signing" {
		t.Fatalf("publish: %+v, %v", in, err)
	}
	if err := w.st.SetIntegrationDevMode(ctx, "a_b", str("https://tunnel.example.com"), false); err != nil {
		t.Fatal(err)
	}
	again, err := w.st.PublishIntegration(ctx, publishOf("a_b", w.org, func(p *store.IntegrationPublish) {
		p.SealedSigningSecret = "another"
	}))
	if err != nil || again.Version != 2 || again.HasIcon || again.SealedSigningSecret != "sealed-signing" ||
		again.DevTunnelURL == nil || again.ID != in.ID {
		t.Fatalf("second publish: %+v, %v", again, err)
	}
	if _, err := w.st.FindIntegrationAsset(ctx, "a_b", "icon"); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("the old icon outlived the publish: %v", err)
	}
	if _, err := w.st.PublishIntegration(ctx, publishOf("axb", other.ID, func(p *store.IntegrationPublish) {
		p.Visibility, p.Categories, p.Target = "private", []string{"content"}, "site"
		p.Icon = &store.IntegrationAsset{ContentType: "image/png", Data: []byte{9}}
	})); err != nil {
		t.Fatal(err)
	}
	if a, err := w.st.FindIntegrationAsset(ctx, "axb", "icon"); err != nil || string(a.Data) != "\x09" {
		t.Fatalf("asset %+v, %v", a, err)
	}
	names := func(f store.IntegrationFilter) string {
		t.Helper()
		list, err := w.st.FindIntegrations(ctx, f, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, in := range list.Items {
			out = append(out, in.Name)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		f    store.IntegrationFilter
		want string
	}{
		{store.IntegrationFilter{}, "a_b"},
		{store.IntegrationFilter{MemberOf: []string{other.ID}}, "a_b axb"},
		{store.IntegrationFilter{MemberOf: []string{other.ID}, Search: str("_")}, "a_b"},
		{store.IntegrationFilter{MemberOf: []string{other.ID}, Search: str("A%")}, ""},
		{store.IntegrationFilter{MemberOf: []string{other.ID}, Category: str("content")}, "axb"},
		{store.IntegrationFilter{MemberOf: []string{other.ID}, Target: str("site")}, "a_b axb"}, // a_b's target is all now
		{store.IntegrationFilter{MemberOf: []string{other.ID}, Target: str("space")}, "a_b"},
		{store.IntegrationFilter{MemberOf: []string{other.ID}, Owner: &w.org}, "a_b"},
	} {
		if got := names(c.f); got != c.want {
			t.Errorf("filter %+v: %q, want %q", c.f, got, c.want)
		}
	}

	// Installing records an event; in development mode (own organization) it waits for delivery.
	n, err := w.st.InstallIntegration(ctx, in.ID, w.org, "pending", w.user)
	if err != nil || n.Status != "pending" || n.SpaceSelection != "selected" || n.IntegrationName != "a_b" {
		t.Fatalf("install: %+v, %v", n, err)
	}
	_, err = w.st.InstallIntegration(ctx, in.ID, w.org, "pending", w.user)
	wantCode(t, err, store.ECONFLICT)
	events, err := w.st.FindIntegrationEvents(ctx, in.ID, store.Page{})
	if err != nil || events.Count != 1 || events.Items[0].Status != store.EventPending {
		t.Fatalf("events after install: %+v, %v", events, err)
	}
	due, err := w.st.DueJobs(ctx, 10)
	if err != nil || len(due) != 1 || due[0].Kind != store.DeliverIntegrationEventJob || !strings.Contains(due[0].Payload, events.Items[0].ID) {
		t.Fatalf("delivery job: %+v, %v", due, err)
	}
	if err := w.st.RecordEventDelivery(ctx, events.Items[0].ID, store.EventSuccess, store.IntegrationEventLog{Level: "info", Message: "ok"}); err != nil {
		t.Fatal(err)
	}
	if e, err := w.st.FindIntegrationEvent(ctx, in.ID, events.Items[0].ID); err != nil || e.Attempts != 1 || len(e.Logs) != 2 || e.Status != store.EventSuccess {
		t.Fatalf("after a delivery: %+v, %v", e, err)
	}

	clock.advance(time.Second)
	upd, err := w.st.UpdateInstallation(ctx, in.ID, n.ID, store.InstallationUpdate{Configuration: json.RawMessage(`{"k":"v"}`),
		ExternalIDs: &[]string{"ext-1", "ext%"}, Status: "active"})
	if err != nil || upd.Status != "active" || string(upd.Configuration) != `{"k":"v"}` {
		t.Fatalf("update: %+v, %v", upd, err)
	}
	events, _ = w.st.FindIntegrationEvents(ctx, in.ID, store.Page{})
	var payload struct {
		Status   string
		Previous struct{ Status string }
	}
	if err := json.Unmarshal(events.Items[0].Payload, &payload); err != nil || payload.Status != "active" || payload.Previous.Status != "pending" {
		t.Fatalf("update event %s", events.Items[0].Payload)
	}
	for id, want := range map[string]int{"ext-1": 1, "ext": 0, "ext%": 1, "ext_1": 0} {
		list, err := w.st.FindInstallations(ctx, in.ID, store.InstallationFilter{ExternalID: str(id)}, store.Page{})
		if err != nil || list.Count != want {
			t.Errorf("externalId %q: %d, %v", id, list.Count, err)
		}
	}
	if list, _ := w.st.FindInstallations(ctx, in.ID, store.InstallationFilter{OrgIDs: []string{other.ID}}, store.Page{}); list.Count != 0 {
		t.Errorf("another organization's filter kept %d", list.Count)
	}

	sp := w.space("Docs")
	c, err := w.st.InstallOnContent(ctx, n.ID, store.InstallOnSpace, sp.ID, "active")
	if err != nil || c.TargetID != sp.ID || c.OrganizationID != w.org {
		t.Fatalf("install on space: %+v, %v", c, err)
	}
	_, err = w.st.InstallOnContent(ctx, n.ID, store.InstallOnSpace, sp.ID, "active")
	wantCode(t, err, store.ECONFLICT)
	_, err = w.st.InstallOnContent(ctx, n.ID, store.InstallOnSite, sp.ID, "active") // a space id is no site
	wantCode(t, err, store.ENOTFOUND)
	spaces, err := w.st.FindContentInstallations(ctx, in.ID, store.InstallOnSpace, store.InstallationFilter{}, store.Page{})
	if err != nil || spaces.Count != 1 || len(spaces.Items) != 1 || spaces.Items[0].TargetID != sp.ID {
		t.Fatalf("space installations %+v, %v", spaces, err)
	}
	if got, err := w.st.FindInstallation(ctx, in.ID, n.ID); err != nil || got.Spaces != 1 {
		t.Fatalf("installation after a space installation: %+v, %v", got, err)
	}

	// An installation token acts as the installation until it expires.
	token, err := w.st.CreateInstallationToken(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	u, _, err := w.st.FindUserByToken(ctx, token)
	if err != nil || u.InstallationID != n.ID {
		t.Fatalf("installation token resolves to %+v, %v", u, err)
	}
	g, err := w.st.FindInstallationGrant(ctx, n.ID)
	if err != nil || g.OrganizationID != w.org || len(g.SpaceIDs) != 1 || g.SpaceIDs[0] != sp.ID || len(g.Scopes) != 0 || g.InstalledBy != w.user { // the second publish has no scopes
		t.Fatalf("grant %+v, %v", g, err)
	}
	clock.advance(store.InstallationTokenTTL + time.Second)
	_, _, err = w.st.FindUserByToken(ctx, token)
	wantCode(t, err, store.ENOTFOUND)

	// Unpublishing takes the installations, events and tokens with it.
	token, _ = w.st.CreateInstallationToken(ctx, n.ID)
	if err := w.st.DeleteIntegration(ctx, "a_b"); err != nil {
		t.Fatal(err)
	}
	_, err = w.st.FindInstallation(ctx, in.ID, n.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, _, err = w.st.FindUserByToken(ctx, token)
	wantCode(t, err, store.ENOTFOUND)
	_, err = w.st.FindInstallationGrant(ctx, n.ID)
	wantCode(t, err, store.ENOTFOUND)
	if err := w.st.DeleteIntegration(ctx, "a_b"); err != nil {
		t.Fatalf("deleting again: %v", err)
	}
}
