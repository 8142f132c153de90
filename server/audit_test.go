package server_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/server"
)

// Every non-GET operation of the spec either records an audit action or is listed as changing
// nothing anyone audits: a new write cannot ship unlogged by oversight.
func TestAuditActionsCoverTheSpec(t *testing.T) {
	t.Parallel()
	for _, op := range specOperations(t) {
		if op.method == http.MethodGet {
			continue
		}
		_, audited := server.AuditActionOf(op.id)
		if audited == server.AuditSkipped(op.id) {
			t.Errorf("%s %s (%s): audited=%v, listed as not audited=%v; want exactly one", op.method, op.path, op.id, audited, !audited)
		}
		if server.AuditCreatedKind(op.id) != "" && !audited {
			t.Errorf("%s is listed as a creation but records no action", op.id)
		}
	}
}

func auditEvents(t *testing.T, w *world, query string) gen.AuditEventList {
	t.Helper()
	var l gen.AuditEventList
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events"+query, nil).Decode(t, &l)
	return l
}

// An admin reads who changed what: newest first, one event per write request with its actor,
// action, target and request id, filtered and paged; a write that failed left nothing.
func TestAuditLog(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	before := auditEvents(t, w, "").Count

	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Handbook", "")
	w.Clock.Advance(time.Minute)
	patched := w.Expect(t, http.StatusCreated, w.editor, "POST", "/spaces/"+sp.Id+"/change-requests", map[string]any{"subject": "Holidays"})
	w.Clock.Advance(time.Minute)
	// Refused writes record nothing: a bad body, a role too low.
	w.Expect(t, http.StatusBadRequest, w.admin, "PATCH", "/spaces/"+sp.Id, map[string]any{"title": 7})
	w.Expect(t, http.StatusForbidden, w.editor, "PATCH", "/spaces/"+sp.Id, map[string]any{"title": "Mine"})
	// Reads record nothing.
	w.Expect(t, http.StatusOK, w.admin, "GET", "/spaces/"+sp.Id, nil)

	all := auditEvents(t, w, "")
	if all.Count != before+2 {
		t.Fatalf("%d events after two writes, want %d: %+v", all.Count, before+2, all.Items)
	}
	upd, created := all.Items[0], all.Items[1]
	var cr gen.ChangeRequest
	patched.Decode(t, &cr)
	// A creation's target is what it made.
	if upd.Action != "change-request.created" || upd.Actor.Type != "user" || upd.Actor.Id != w.editor.ID || upd.Actor.Label == nil || *upd.Actor.Label != "Eve" ||
		upd.Target.Type != "change-request" || upd.Target.Id != cr.Id || upd.Source != "api" {
		t.Fatalf("newest event %+v, want the editor's change-request.created of %s", upd, cr.Id)
	}
	if created.Action != "space.created" || created.Actor.Id != w.admin.ID || created.Target.Type != "space" || created.Target.Id != sp.Id ||
		!created.OccurredAt.Before(upd.OccurredAt) {
		t.Fatalf("second event %+v, want the admin's space.created of the space before it", created)
	}

	var d gen.AuditEventDetails
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events/"+upd.Id.String(), nil).Decode(t, &d)
	if params, _ := d.Payload["parameters"].(map[string]any); params["spaceId"] != sp.Id {
		t.Fatalf("payload %v, want the space the change request was made in", d.Payload)
	}
	if d.ExecutionId == nil || *d.ExecutionId != patched.Header.Get("X-Request-Id") || d.Payload["operation"] != "createChangeRequest" ||
		d.SchemaVersion != 1 || d.Urls.Location != "http://quire.test/v1/orgs/"+w.org.Id+"/audit-events/"+upd.Id.String() {
		t.Fatalf("details %+v, want the request id, the operation and the location", d)
	}

	// Filters: each must match; from and to are inclusive.
	if l := auditEvents(t, w, "?action=change-request.created"); l.Count != 1 || l.Items[0].Id != upd.Id {
		t.Fatalf("action filter: %+v", l)
	}
	// The editor joined the organization by its email domain, then asked for a change.
	if l := auditEvents(t, w, "?actor="+w.editor.ID); l.Count != 2 || l.Items[0].Id != upd.Id || l.Items[1].Action != "organization.member.joined" {
		t.Fatalf("actor filter: %+v", l)
	}
	if l := auditEvents(t, w, "?target="+sp.Id); l.Count != 1 || l.Items[0].Id != created.Id {
		t.Fatalf("target filter: %+v", l)
	}
	if l := auditEvents(t, w, "?from="+url.QueryEscape(upd.OccurredAt.Format(time.RFC3339Nano))); l.Count != 1 || l.Items[0].Id != upd.Id {
		t.Fatalf("from filter: %+v", l)
	}
	if l := auditEvents(t, w, "?to="+url.QueryEscape(created.OccurredAt.Format(time.RFC3339Nano))); l.Count != before+1 || l.Items[0].Id != created.Id {
		t.Fatalf("to filter: %+v", l)
	}
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", nil)
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events?limit=101", nil)
	w.Expect(t, http.StatusBadRequest, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events?page=nonsense", nil)

	// Keyset pages, newest first, each event once.
	ids := w.listAll(t, w.admin, "/orgs/"+w.org.Id+"/audit-events", 1)
	if len(ids) != all.Count || ids[0] != upd.Id.String() || ids[1] != created.Id.String() {
		t.Fatalf("paged one by one: %v, want %d events newest first", ids, all.Count)
	}

	// Admins only; outsiders cannot tell the organization exists; another organization's event
	// is not found.
	w.Expect(t, http.StatusForbidden, w.editor, "GET", "/orgs/"+w.org.Id+"/audit-events", nil)
	w.Expect(t, http.StatusNotFound, w.outsider, "GET", "/orgs/"+w.org.Id+"/audit-events", nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.other.Id+"/audit-events/"+upd.Id.String(), nil)
	w.Expect(t, http.StatusNotFound, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events/not-an-event", nil)

	var actions struct{ Items []gen.AuditEventAction }
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-event-actions", nil).Decode(t, &actions)
	found := map[string]string{}
	for _, a := range actions.Items {
		found[a.Id] = a.Label
	}
	if found["change-request.created"] != "Created change request" || found["organization.settings.updated"] == "" || found["organization.member.sso-signed-in"] == "" {
		t.Fatalf("actions %v lack space.updated, organization.settings.updated or the SAML sign-in", found)
	}
}

// A new organization's log starts with its creation, by its creator.
func TestAuditLogRecordsTheOrganizationsCreation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	org := w.MustCreateOrg(t, w.editor, "Editors' own")
	var l gen.AuditEventList
	w.Expect(t, http.StatusOK, w.editor, "GET", "/orgs/"+org.Id+"/audit-events", nil).Decode(t, &l)
	if l.Count != 1 || l.Items[0].Action != "organization.created" || l.Items[0].Target.Id != org.Id || l.Items[0].Actor.Id != w.editor.ID {
		t.Fatalf("a new organization's log: %+v", l)
	}
}

// An installation token's write is the installation's, written as the user who installed it.
func TestAuditLogRecordsInstallations(t *testing.T) {
	t.Parallel()
	w := newIntegrationWorld(t)
	sp := w.MustCreateSpace(t, w.admin, w.org.Id, "Installed", "")
	tok, inst := w.installationToken(t, "audited", []string{"space:metadata:write"}, []string{sp.Id}, nil)
	w.Expect(t, http.StatusOK, tok, "PATCH", "/spaces/"+sp.Id, map[string]any{"title": "Renamed by the integration"})
	l := auditEvents(t, w.world, "?action=space.updated")
	if l.Count != 1 {
		t.Fatalf("%d space.updated events, want 1", l.Count)
	}
	e := l.Items[0]
	if e.Actor.Type != "installation" || e.Actor.Id != inst.Id || e.Actor.Label == nil || *e.Actor.Label != "audited" || e.Source != "integration" {
		t.Fatalf("the integration's write: %+v", e)
	}
	var d gen.AuditEventDetails
	w.Expect(t, http.StatusOK, w.admin, "GET", "/orgs/"+w.org.Id+"/audit-events/"+e.Id.String(), nil).Decode(t, &d)
	if d.Payload["user"] != w.admin.ID {
		t.Fatalf("payload %v, want the installing user the write was made as", d.Payload)
	}
	if l := auditEvents(t, w.world, "?actor="+inst.Id); l.Count != 1 {
		t.Fatalf("filtered by the installation: %d events", l.Count)
	}
}

// The hourly job deletes events older than the retention and keeps the rest.
func TestAuditLogPurge(t *testing.T) {
	t.Parallel()
	w := newWorld(t, server.Options{AuditRetention: 48 * time.Hour})
	w.MustCreateSpace(t, w.admin, w.org.Id, "Old", "")
	w.Clock.Advance(47 * time.Hour)
	w.MustCreateSpace(t, w.admin, w.org.Id, "Recent", "")
	before := auditEvents(t, w, "").Count
	w.Clock.Advance(2 * time.Hour)
	ctx := context.Background()
	if err := w.Runner.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Runner.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	l := auditEvents(t, w, "")
	if l.Count != 1 || l.Count >= before {
		t.Fatalf("%d events left of %d, want only the recent space's creation", l.Count, before)
	}
	pending, err := w.Store.PendingJobs(ctx)
	if err != nil || pending[server.PurgeAuditEventsJob] != 1 {
		t.Fatalf("pending jobs %v (%v): want the purge scheduled again", pending, err)
	}
}
