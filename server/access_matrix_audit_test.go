package server_test

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/server"
	"github.com/quire-docs/quire/store"
)

// The audit log is the organization admins'.
func matrixAuditRows() []matrixRow {
	return []matrixRow{
		{"listOrganizationAuditEvents", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/audit-events?limit=5"), nil)
		}},
		{"getOrganizationAuditEvent", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			list, err := w.Store.FindAuditEvents(context.Background(), w.org.Id, store.AuditFilter{}, store.Page{Limit: 1})
			if err != nil || len(list.Items) == 0 {
				t.Fatalf("the world's organization has no audit event (%v)", err)
			}
			return matrixReq("GET", w.orgPath("/audit-events/"+list.Items[0].ID), nil)
		}},
		{"listOrganizationAuditEventActions", matrixWant{401, 401, 404, 403, 403, 403, 200}, func(t *testing.T, w *matrixWorld, u *testUser) matrixRequest {
			return matrixReq("GET", w.orgPath("/audit-event-actions"), nil)
		}},
	}
}

// matrixAudited checks the audit log after each cell: a write that succeeded recorded one event
// of its action in its request; any other answer recorded none. So every write path of the API is
// proved to run through the store's audited transactions. The outsider's deletes answer 204 for
// what they cannot see, as for what does not exist, and change nothing.
func matrixAudited(t *testing.T, w *matrixWorld, caller int, op string, method string, res *response) {
	t.Helper()
	id := res.Header.Get("X-Request-Id")
	events, err := w.Store.FindAuditEventsOfRequest(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	action, audited := server.AuditActionOf(op)
	ok := res.Status >= 200 && res.Status < 300
	changed := ok && !(caller == matrixOutsider && method == "DELETE" && res.Status == 204)
	switch {
	case !audited || !changed || unauditedWrites[op]:
		if len(events) > 0 && !(audited && (ok || storedWhateverTheAnswer[op])) {
			t.Fatalf("%s answered %d and recorded %d audit events (%s): want none", op, res.Status, len(events), events[0].Action)
		}
	case len(events) != 1:
		t.Fatalf("%s answered %d and recorded %d audit events, want 1", op, res.Status, len(events))
	case events[0].Action != action:
		t.Fatalf("%s recorded the action %q, want %q", op, events[0].Action, action)
	case server.AuditCreatedKind(op) != "" && events[0].Target.Type != server.AuditCreatedKind(op):
		t.Fatalf("%s recorded the target %+v, want the %s it made", op, events[0].Target, server.AuditCreatedKind(op))
	}
}

// unauditedWrites are the writes that belong to no organization, so to no organization's log: a
// user's own profile.
var unauditedWrites = map[string]bool{"updateUserById": true}

// storedWhateverTheAnswer are the writes that keep what they found even when they answer an
// error: a custom hostname's DNS check is stored, and answered 409 when the name does not point
// at quire.
var storedWhateverTheAnswer = map[string]bool{"dnsRevalidateCustomHostname": true}
