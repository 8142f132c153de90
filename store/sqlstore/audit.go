package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/quire-docs/quire/store"
)

// The audit log: its reads, its purge, and what writes tell a request's record that the request
// could not (the organization made, the user signed in). The recording itself is the write
// helper's (store.go: runAudited), so the event commits or rolls back with the write.

const auditColumns = `a.id, a.organization_id, a.occurred_at, a.action, a.source, a.actor_type, a.actor_id,
	a.actor_label, a.target_type, a.target_id, a.target_label, a.request_id, a.payload`

func scanAuditEvent(sc scanner, e *store.AuditEvent) error {
	var at, payload string
	if err := sc.Scan(&e.ID, &e.OrganizationID, &at, &e.Action, &e.Source, &e.Actor.Type, &e.Actor.ID,
		&e.Actor.Label, &e.Target.Type, &e.Target.ID, &e.Target.Label, &e.RequestID, &payload); err != nil {
		return err
	}
	e.OccurredAt = parseTime(at)
	e.Payload = map[string]any{}
	return json.Unmarshal([]byte(payload), &e.Payload)
}

// FindAuditEvents lists an organization's audit events, newest first.
func (s *Store) FindAuditEvents(ctx context.Context, orgID string, f store.AuditFilter, p store.Page) (store.List[*store.AuditEvent], error) {
	q := &listQuery{cols: auditColumns, from: `audit_events a`, order: byKeys(`a.occurred_at`, `a.id`), desc: true}
	q.and(`a.organization_id = ?`, orgID)
	if f.Action != "" {
		q.and(`a.action = ?`, f.Action)
	}
	if f.Actor != "" {
		q.and(`a.actor_id = ?`, f.Actor)
	}
	if f.Target != "" {
		q.and(`a.target_id = ?`, f.Target)
	}
	if f.From != nil {
		q.and(`a.occurred_at >= ?`, formatTime(*f.From))
	}
	if f.To != nil {
		q.and(`a.occurred_at <= ?`, formatTime(*f.To))
	}
	return findList(ctx, s.reader, q, p, "audit events", fill(scanAuditEvent))
}

// FindAuditEvent returns one event of an organization.
func (s *Store) FindAuditEvent(ctx context.Context, orgID, id string) (*store.AuditEvent, error) {
	e := &store.AuditEvent{}
	err := scanAuditEvent(s.reader.QueryRowContext(pointRead(ctx),
		`SELECT `+auditColumns+` FROM audit_events a WHERE a.id = ? AND a.organization_id = ?`, id, orgID), e)
	if err == sql.ErrNoRows {
		return nil, store.Errorf(store.ENOTFOUND, "No audit event %q in this organization.", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to read audit event: %w", err)
	}
	return e, nil
}

// FindAuditEventsOfRequest returns the events a request recorded.
func (s *Store) FindAuditEventsOfRequest(ctx context.Context, requestID string) ([]*store.AuditEvent, error) {
	return queryAll(ctx, s.reader, "audit events", `SELECT `+auditColumns+` FROM audit_events a WHERE a.request_id = ? ORDER BY a.occurred_at, a.id`,
		[]any{requestID}, fill(scanAuditEvent))
}

// SetAuditTarget names what a recorded write made as its event's target.
func (s *Store) SetAuditTarget(ctx context.Context, eventID string, target store.AuditParty) error {
	return s.write(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE audit_events SET target_type = ?, target_id = ?, target_label = ? WHERE id = ?`,
			target.Type, target.ID, target.Label, eventID); err != nil {
			return fmt.Errorf("store: unable to set the audit event's target: %w", err)
		}
		return nil
	})
}

// PurgeAuditEvents deletes the events that occurred before a time.
func (s *Store) PurgeAuditEvents(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM audit_events WHERE occurred_at < ?`, formatTime(before))
		if err != nil {
			return fmt.Errorf("store: unable to purge audit events: %w", err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// auditCreatedOrganization tells a request's record the organization its write made: a request
// creating an organization cannot name it.
func auditCreatedOrganization(ctx context.Context, orgID string) {
	if r := store.AuditFrom(ctx); r != nil && r.OrganizationID == "" {
		r.OrganizationID = orgID
		if r.Target.ID == "" {
			r.Target.ID = orgID
		}
	}
}

// auditSignedIn tells a request's record who signed in, and whether they joined the organization
// by it: a SAML sign-in knows its user only once the store has found or made them.
func auditSignedIn(ctx context.Context, userID, label string, joined bool) {
	if r := store.AuditFrom(ctx); r != nil && r.Actor.ID == "" {
		r.Actor = store.AuditParty{Type: "user", ID: userID, Label: label}
		r.Target = store.AuditParty{Type: "user", ID: userID, Label: label}
		if r.Payload == nil {
			r.Payload = map[string]any{}
		}
		r.Payload["joined"] = joined
	}
}
