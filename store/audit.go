package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync/atomic"
	"time"
)

// The audit log: one event per write request, recorded by the store in the transaction of the
// write itself, so a write that fails records nothing and one that commits cannot lose its event.
// The server describes the write (AuditRecord) and puts it in the request's context; every write
// transaction of the store finds it there (WithAudit, AuditFrom) and inserts it before it commits.

// AuditRecord describes a write about to be made: who, what, on what. Where it belongs (its
// organization) is read by the store from the scope: the organization, else the space's, the
// collection's, the installation's or the integration's organization, else the organization of the
// site holding the hostname; a write with no organization records nothing.
type AuditRecord struct {
	ID        string // the event's id: a UUID, unique per request
	RequestID string
	Action    string
	Source    string // ui, api, integration
	Actor     AuditParty
	Target    AuditParty
	Payload   map[string]any

	OrganizationID, SpaceID, CollectionID, InstallationID, IntegrationName, Hostname string

	recorded atomic.Bool
}

// AuditParty is an event's actor or target: its kind, its stable id and a label as it read then.
type AuditParty struct {
	Type, ID, Label string
}

// Recorded tells whether a transaction of the request committed the record (it is recorded once,
// by the first write transaction that commits).
func (r *AuditRecord) Recorded() bool { return r.recorded.Load() }

// MarkRecorded notes that a committed transaction holds the record.
func (r *AuditRecord) MarkRecorded() { r.recorded.Store(true) }

// NewAuditID returns a random (version 4) UUID, the form audit event ids take on the wire.
func NewAuditID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

type auditKey struct{}

// WithAudit returns a context whose write transactions record r.
func WithAudit(ctx context.Context, r *AuditRecord) context.Context {
	return context.WithValue(ctx, auditKey{}, r)
}

// AuditFrom returns the record a context's writes carry (nil: they record nothing).
func AuditFrom(ctx context.Context) *AuditRecord {
	r, _ := ctx.Value(auditKey{}).(*AuditRecord)
	return r
}

// AuditEvent is a recorded write.
type AuditEvent struct {
	ID             string
	OrganizationID string
	OccurredAt     time.Time
	Action         string
	Source         string
	Actor          AuditParty
	Target         AuditParty
	RequestID      string
	Payload        map[string]any
}

// AuditFilter narrows a list of audit events; every set field must match.
type AuditFilter struct {
	Action, Actor, Target string
	From, To              *time.Time // inclusive
}

// DefaultAuditRetention is how long audit events are kept when `quire serve --audit-retention`
// does not say.
const DefaultAuditRetention = 90 * 24 * time.Hour

// Audit reads the audit log and purges it.
type Audit interface {
	// FindAuditEvents lists an organization's audit events, newest first.
	FindAuditEvents(ctx context.Context, orgID string, f AuditFilter, p Page) (List[*AuditEvent], error)
	// FindAuditEvent returns one event of an organization.
	FindAuditEvent(ctx context.Context, orgID, id string) (*AuditEvent, error)
	// FindAuditEventsOfRequest returns the events a request recorded (none or one), whatever
	// their organization: what a request id in a log line or an error report did.
	FindAuditEventsOfRequest(ctx context.Context, requestID string) ([]*AuditEvent, error)
	// SetAuditTarget names what a recorded write made as its event's target: a creation's request
	// names only where it creates, the id of what it made is known once it is answered.
	SetAuditTarget(ctx context.Context, eventID string, target AuditParty) error
	// PurgeAuditEvents deletes the events that occurred before a time and says how many.
	PurgeAuditEvents(ctx context.Context, before time.Time) (int, error)
}
