package sqlstore

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quire-docs/quire/store"
)

type eventPrevious struct {
	Status        string          `json:"status,omitempty"` // none on the *_deleted events
	Configuration json.RawMessage `json:"configuration,omitempty"`
}

// eventPayload is the payload of the installation events: installation_setup and
// installation_deleted, and their space and site forms.
type eventPayload struct {
	EventID        string         `json:"eventId"`
	Type           string         `json:"type"`
	InstallationID string         `json:"installationId"`
	SpaceID        string         `json:"spaceId,omitempty"`
	SiteID         string         `json:"siteId,omitempty"`
	Status         string         `json:"status,omitempty"` // none on the *_deleted events
	Previous       *eventPrevious `json:"previous,omitempty"`
}

// recordEvent stores an event of an installation. When the integration is in development mode
// and the event is one it forwards (its own organization's, or every one with `all`), the event
// waits for delivery: a durable job, enqueued in the same transaction.
func recordEvent(ctx context.Context, tx *Tx, n *store.IntegrationInstallation, p eventPayload) error {
	p.EventID, p.InstallationID = store.NewID(), n.ID
	payload, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("store: unable to record event: %w", err)
	}
	var name, owner string
	var tunnel sql.NullString
	var all bool
	if err := tx.QueryRowContext(ctx, `SELECT name, organization_id, dev_tunnel_url, dev_all FROM integrations WHERE id = ?`,
		n.IntegrationID).Scan(&name, &owner, &tunnel, &all); err != nil {
		return fmt.Errorf("store: unable to record event: %w", err)
	}
	status, log := store.EventSuccess, store.IntegrationEventLog{Level: "debug", Timestamp: tx.now,
		Message: "Event recorded; development mode is off, so it is not delivered."}
	deliver := tunnel.Valid && (all || n.OrganizationID == owner)
	if tunnel.Valid && !deliver {
		log.Message = "Event recorded; not forwarded to the development tunnel (installation outside the owning organization)."
	}
	if deliver {
		status, log.Level, log.Message = store.EventPending, "info", "Event queued for delivery to the development tunnel."
	}
	logs, _ := json.Marshal([]store.IntegrationEventLog{log})
	if _, err := tx.ExecContext(ctx, `INSERT INTO integration_events (id, integration_id, installation_id, payload,
		status, attempts, logs, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
		p.EventID, n.IntegrationID, n.ID, string(payload), status, string(logs), formatTime(tx.now)); err != nil {
		return fmt.Errorf("store: unable to record event: %w", err)
	}
	if deliver {
		job, _ := json.Marshal(store.DeliveryJob{EventID: p.EventID, Integration: name})
		return enqueueJob(ctx, tx, store.DeliverIntegrationEventJob, string(job), tx.now)
	}
	return nil
}

const eventColumns = `e.id, e.integration_id, e.installation_id, e.payload, e.status, e.attempts, e.logs, e.created_at`

func scanEvent(sc interface{ Scan(...any) error }) (*store.IntegrationEvent, error) {
	var e store.IntegrationEvent
	var payload, logs, created string
	if err := sc.Scan(&e.ID, &e.IntegrationID, &e.InstallationID, &payload, &e.Status, &e.Attempts, &logs, &created); err != nil {
		return nil, err
	}
	e.Payload = json.RawMessage(payload)
	if err := json.Unmarshal([]byte(logs), &e.Logs); err != nil {
		return nil, fmt.Errorf("store: event %s logs: %w", e.ID, err)
	}
	e.CreatedAt = parseTime(created)
	return &e, nil
}

func findEvent(ctx context.Context, q querier, integrationID, id string) (*store.IntegrationEvent, error) {
	e, err := scanEvent(q.QueryRowContext(ctx, `SELECT `+eventColumns+` FROM integration_events e
		WHERE e.id = ? AND (? = '' OR e.integration_id = ?)`, id, integrationID, integrationID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Event")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find event: %w", err)
	}
	return e, nil
}

// FindIntegrationEvent returns an event of an integration with its trace.
func (s *Store) FindIntegrationEvent(ctx context.Context, integrationID, id string) (*store.IntegrationEvent, error) {
	if integrationID == "" {
		return nil, store.NotFound("Event")
	}
	return findEvent(pointRead(ctx), s.reader, integrationID, id)
}

// FindEventByID returns an event whatever its integration.
func (s *Store) FindEventByID(ctx context.Context, id string) (*store.IntegrationEvent, error) {
	return findEvent(pointRead(ctx), s.reader, "", id)
}

// FindIntegrationEvents lists an integration's events, newest first.
func (s *Store) FindIntegrationEvents(ctx context.Context, integrationID string, p store.Page) (store.List[*store.IntegrationEvent], error) {
	q := &listQuery{cols: eventColumns, from: `integration_events e`, order: byKeys(`e.created_at`, `e.id`), desc: true}
	q.and(`e.integration_id = ?`, integrationID)
	return findList(ctx, s.reader, q, p, "events", scanEvent)
}

func (s *Store) appendEventLog(ctx context.Context, id, status string, log store.IntegrationEventLog, attempt int) error {
	return s.write(ctx, func(tx *Tx) error {
		e, err := findEvent(ctx, tx, "", id)
		if err != nil {
			return err
		}
		if log.Timestamp.IsZero() {
			log.Timestamp = tx.now
		}
		logs, _ := json.Marshal(append(e.Logs, log))
		if _, err := tx.ExecContext(ctx, `UPDATE integration_events SET status = ?, logs = ?, attempts = attempts + ?
			WHERE id = ?`, status, string(logs), attempt, id); err != nil {
			return fmt.Errorf("store: unable to record event delivery: %w", err)
		}
		return nil
	})
}

// RecordEventDelivery counts a delivery attempt, appends to the trace and sets the status.
func (s *Store) RecordEventDelivery(ctx context.Context, id, status string, log store.IntegrationEventLog) error {
	return s.appendEventLog(ctx, id, status, log, 1)
}

// AppendEventLog appends to an event's trace and sets its status.
func (s *Store) AppendEventLog(ctx context.Context, id, status string, log store.IntegrationEventLog) error {
	return s.appendEventLog(ctx, id, status, log, 0)
}

// CreateInstallationToken issues a token acting as an installation for InstallationTokenTTL.
func (s *Store) CreateInstallationToken(ctx context.Context, installationID string) (string, error) {
	token := store.NewToken()
	err := s.write(ctx, func(tx *Tx) error {
		if _, err := findInstallation(ctx, tx, "", installationID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO installation_tokens (hash, installation_id, created_at, expires_at)
			VALUES (?, ?, ?, ?)`, hex.EncodeToString(store.HashToken(token)), installationID,
			formatTime(tx.now), formatTime(tx.now.Add(store.InstallationTokenTTL))); err != nil {
			return fmt.Errorf("store: unable to create installation token: %w", err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// findInstallationTokenUser resolves an installation token that has not expired to the user it
// acts as: the installation (ID and InstallationID its id, named after the integration).
func (s *Store) findInstallationTokenUser(ctx context.Context, token string) (*store.User, error) {
	var u store.User
	var created string
	err := s.reader.QueryRowContext(pointRead(ctx), `SELECT n.id, i.title, n.created_at FROM installation_tokens t
		JOIN integration_installations n ON n.id = t.installation_id JOIN integrations i ON i.id = n.integration_id
		WHERE t.hash = ? AND t.expires_at > ?`, hex.EncodeToString(store.HashToken(token)), formatTime(s.Now())).
		Scan(&u.ID, &u.DisplayName, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Token")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find token: %w", err)
	}
	u.InstallationID, u.CreatedAt = u.ID, parseTime(created)
	return &u, nil
}

// FindInstallationGrant returns what an installation may reach.
func (s *Store) FindInstallationGrant(ctx context.Context, installationID string) (*store.InstallationGrant, error) {
	g := &store.InstallationGrant{InstallationID: installationID}
	var scopes string
	var installedBy sql.NullString
	err := s.reader.QueryRowContext(pointRead(ctx), `SELECT i.name, n.organization_id, i.scopes, n.space_selection, n.site_selection,
		n.installed_by FROM integration_installations n JOIN integrations i ON i.id = n.integration_id WHERE n.id = ?`, installationID).
		Scan(&g.IntegrationName, &g.OrganizationID, &scopes, &g.SpaceSelection, &g.SiteSelection, &installedBy)
	g.InstalledBy = installedBy.String
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.NotFound("Installation")
	}
	if err != nil {
		return nil, fmt.Errorf("store: unable to find installation grant: %w", err)
	}
	if err := json.Unmarshal([]byte(scopes), &g.Scopes); err != nil {
		return nil, fmt.Errorf("store: installation grant scopes: %w", err)
	}
	err = queryEach(ctx, s.reader, "installation grant", `SELECT kind, target_id FROM integration_content_installations
		WHERE installation_id = ?`, []any{installationID}, func(sc scanner) error {
		var kind, id string
		if err := sc.Scan(&kind, &id); err != nil {
			return err
		}
		if kind == store.InstallOnSite {
			g.SiteIDs = append(g.SiteIDs, id)
		} else {
			g.SpaceIDs = append(g.SpaceIDs, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}
