package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/quire-docs/quire/store"
)

// audit: a write carrying an audit record records it in its own transaction, once per request
// and in the organization its scope leads to; a write that fails records nothing; lists are
// newest first, filtered and paged by keyset; the purge deletes what is older than its time.
func audit(t *testing.T, open Opener) {
	clock := &fakeClock{now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	w := newWorld(t, open, clock.Now)
	ctx := context.Background()
	sp := w.space("Audited")
	record := func(action, actor string, scope func(r *store.AuditRecord)) (*store.AuditRecord, context.Context) {
		id := store.NewAuditID()
		r := &store.AuditRecord{ID: id, RequestID: "req-" + id, Action: action, Source: "api",
			Actor: store.AuditParty{Type: "user", ID: actor, Label: "Owner"}, Payload: map[string]any{"operation": action}}
		scope(r)
		return r, store.WithAudit(ctx, r)
	}
	title := func(s string) store.SpaceUpdate { return store.SpaceUpdate{Title: &s} }

	// Scoped by the space: the organization is the space's. Two transactions, one event.
	r1, c1 := record("space.updated", w.user, func(r *store.AuditRecord) {
		r.SpaceID, r.Target = sp.ID, store.AuditParty{Type: "space", ID: sp.ID}
	})
	if _, err := w.st.UpdateSpace(c1, sp.ID, title("Once")); err != nil {
		t.Fatal(err)
	}
	if !r1.Recorded() {
		t.Fatal("the record is not marked recorded after its write committed")
	}
	clock.advance(time.Second)
	if _, err := w.st.UpdateSpace(c1, sp.ID, title("Twice")); err != nil {
		t.Fatal(err)
	}
	got, err := w.st.FindAuditEventsOfRequest(ctx, r1.RequestID)
	if err != nil || len(got) != 1 {
		t.Fatalf("one request's events: %d (%v), want 1", len(got), err)
	}
	if e := got[0]; e.OrganizationID != w.org || e.Action != "space.updated" || e.Actor.ID != w.user || e.Actor.Label != "Owner" ||
		e.Target.ID != sp.ID || e.Payload["operation"] != "space.updated" || !e.OccurredAt.Equal(clock.Now().Add(-time.Second)) {
		t.Fatalf("recorded %+v", e)
	}

	// A write that fails records nothing.
	r2, c2 := record("space.updated", "someone", func(r *store.AuditRecord) { r.SpaceID = sp.ID })
	if _, err := w.st.UpdateSpace(c2, "noSuchSpace000000000", title("Nope")); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("update of a missing space: %v", err)
	}
	if got, _ := w.st.FindAuditEventsOfRequest(ctx, r2.RequestID); len(got) != 0 || r2.Recorded() {
		t.Fatalf("a failed write recorded %d events", len(got))
	}
	// A write with no organization to record in records nothing, and still writes.
	r3, c3 := record("space.updated", "x", func(r *store.AuditRecord) {})
	if _, err := w.st.UpdateSpace(c3, sp.ID, title("Unscoped")); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.st.FindAuditEventsOfRequest(ctx, r3.RequestID); len(got) != 0 {
		t.Fatalf("the unscoped write recorded an event: %d", len(got))
	}

	// Scoped by the collection and by the organization itself.
	col, err := w.st.CreateCollection(ctx, w.org, "Shelf", nil)
	if err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Second)
	_, c4 := record("collection.updated", "other", func(r *store.AuditRecord) {
		r.CollectionID, r.Target = col.ID, store.AuditParty{Type: "collection", ID: col.ID}
	})
	if _, err := w.st.UpdateSpace(c4, sp.ID, title("By collection")); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Second)
	_, c5 := record("organization.settings.updated", w.user, func(r *store.AuditRecord) {
		r.OrganizationID, r.Target = w.org, store.AuditParty{Type: "organization", ID: w.org}
	})
	if _, err := w.st.UpdateSpace(c5, sp.ID, title("By organization")); err != nil {
		t.Fatal(err)
	}

	all, err := w.st.FindAuditEvents(ctx, w.org, store.AuditFilter{}, store.Page{})
	if err != nil || all.Count != 3 {
		t.Fatalf("the organization's log: %+v (%v), want 3 events", all, err)
	}
	if all.Items[0].Action != "organization.settings.updated" || all.Items[2].Action != "space.updated" {
		t.Fatalf("not newest first: %s, %s, %s", all.Items[0].Action, all.Items[1].Action, all.Items[2].Action)
	}
	count := func(f store.AuditFilter) int {
		t.Helper()
		l, err := w.st.FindAuditEvents(ctx, w.org, f, store.Page{})
		if err != nil {
			t.Fatal(err)
		}
		return l.Count
	}
	at := all.Items[1].OccurredAt
	for name, c := range map[string]struct {
		f    store.AuditFilter
		want int
	}{
		"action":       {store.AuditFilter{Action: "space.updated"}, 1},
		"actor":        {store.AuditFilter{Actor: w.user}, 2},
		"target":       {store.AuditFilter{Target: col.ID}, 1},
		"from":         {store.AuditFilter{From: &at}, 2},
		"to":           {store.AuditFilter{To: &at}, 2},
		"from and to":  {store.AuditFilter{From: &at, To: &at}, 1},
		"actor+action": {store.AuditFilter{Actor: w.user, Action: "collection.updated"}, 0},
	} {
		if got := count(c.f); got != c.want {
			t.Errorf("filter %s: %d events, want %d", name, got, c.want)
		}
	}
	// Keyset pages of one.
	var ids []string
	p := store.Page{Limit: 1}
	for {
		l, err := w.st.FindAuditEvents(ctx, w.org, store.AuditFilter{}, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Items {
			ids = append(ids, e.ID)
		}
		if l.Next == "" {
			break
		}
		p.Cursor = l.Next
	}
	if len(ids) != 3 || ids[0] != all.Items[0].ID || ids[2] != all.Items[2].ID {
		t.Fatalf("paged: %v", ids)
	}
	if _, err := w.st.FindAuditEvent(ctx, w.org, all.Items[1].ID); err != nil {
		t.Fatal(err)
	}
	other := MustOwner(t, w.st, "other@example.com")
	if _, err := w.st.FindAuditEvent(ctx, other.Org.ID, all.Items[1].ID); store.ErrorCode(err) != store.ENOTFOUND {
		t.Fatalf("another organization's event: %v", err)
	}

	// A creation's event names what it made once it is known.
	if err := w.st.SetAuditTarget(ctx, all.Items[0].ID, store.AuditParty{Type: "space", ID: sp.ID, Label: "Audited"}); err != nil {
		t.Fatal(err)
	}
	if e, err := w.st.FindAuditEvent(ctx, w.org, all.Items[0].ID); err != nil || e.Target != (store.AuditParty{Type: "space", ID: sp.ID, Label: "Audited"}) {
		t.Fatalf("after naming its target: %+v (%v)", e, err)
	}
	if got := count(store.AuditFilter{Target: sp.ID}); got != 2 {
		t.Fatalf("events on the space: %d, want 2", got)
	}

	// The purge removes what occurred before its time.
	n, err := w.st.PurgeAuditEvents(ctx, at)
	if err != nil || n != 1 || count(store.AuditFilter{}) != 2 {
		t.Fatalf("purge before the middle event removed %d (%v)", n, err)
	}
}
