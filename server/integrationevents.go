package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/jobs"
	"github.com/quire-docs/quire/store"
)

// SignatureHeader carries an event delivery's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256
// of "<t>.<body>" under the integration's signing secret>`.
const SignatureHeader = "X-GitBook-Signature"

// Sign is the v1 signature of a delivery body at a time.
func Sign(secret string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(m, "%d.", timestamp)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

func toAPIEvent(e *store.IntegrationEvent) (gen.IntegrationEvent, error) {
	out := gen.IntegrationEvent{Id: e.ID, IntegrationId: e.IntegrationID, InstallationId: e.InstallationID,
		CreatedAt: e.CreatedAt, Status: gen.IntegrationEventStatusSuccess}
	// The wire knows success and failed only: an event still owed a delivery has not succeeded.
	if e.Status != store.EventSuccess {
		out.Status = gen.IntegrationEventStatusFailed
	}
	if err := json.Unmarshal(e.Payload, &out.Payload); err != nil {
		return out, fmt.Errorf("server: event %s payload: %w", e.ID, err)
	}
	return out, nil
}

func (s *Server) ListIntegrationEvents(ctx context.Context, req gen.ListIntegrationEventsRequestObject) (gen.ListIntegrationEventsResponseObject, error) {
	in, _, err := s.findIntegration(ctx, req.IntegrationName, true)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.FindIntegrationEvents(ctx, in.ID, page(req.Params.Page, req.Params.Limit))
	if err != nil {
		return nil, err
	}
	out := gen.ListIntegrationEvents200JSONResponse{Count: list.Count, Next: listNext(list.Next),
		Items: make([]gen.IntegrationEvent, 0, len(list.Items))}
	for _, e := range list.Items {
		item, err := toAPIEvent(e)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func (s *Server) GetIntegrationEvent(ctx context.Context, req gen.GetIntegrationEventRequestObject) (gen.GetIntegrationEventResponseObject, error) {
	in, _, err := s.findIntegration(ctx, req.IntegrationName, true)
	if err != nil {
		return nil, err
	}
	e, err := s.Store.FindIntegrationEvent(ctx, in.ID, req.EventId)
	if err != nil {
		return nil, err
	}
	ev, err := toAPIEvent(e)
	if err != nil {
		return nil, err
	}
	out := gen.GetIntegrationEvent200JSONResponse{Event: ev, Trace: gen.IntegrationEventTrace{Logs: []gen.IntegrationEventLog{}}}
	for _, l := range e.Logs {
		out.Trace.Logs = append(out.Trace.Logs, gen.IntegrationEventLog{Message: l.Message, Timestamp: l.Timestamp,
			Level: gen.IntegrationEventLogLevel(l.Level)})
	}
	return out, nil
}

// JobHandlers are the server's durable jobs, added to the runner's: the delivery of integration
// events to development tunnels (through the guarded fetcher), git runs, the git poller, import
// runs, invitation email and the hourly purge of audit events past the retention.
func (s *Server) JobHandlers() map[string]jobs.Handler {
	out := s.gitJobHandlers(s.gitSyncPoll)
	out[store.DeliverIntegrationEventJob] = jobs.Handler{Run: s.deliverEvent, MaxAttempts: store.DeliveryAttempts}
	out[store.ImportRunJob] = jobs.Handler{Run: s.runImportRun, MaxAttempts: 1}
	out[PurgeAuditEventsJob] = jobs.Handler{Run: s.purgeAuditEvents, Every: time.Hour}
	out[InvitationEmailJob] = jobs.Handler{Run: s.sendQueuedMail, MaxAttempts: invitationEmailAttempts}
	return out
}

// deliverEvent POSTs an event to its integration's development tunnel: the event payload as the
// JSON body, signed. Each try is written to the event's trace; a failed try returns an error so
// the runner retries it with backoff, up to store.DeliveryAttempts tries.
func (s *Server) deliverEvent(ctx context.Context, payload string) error {
	var job store.DeliveryJob
	if err := json.Unmarshal([]byte(payload), &job); err != nil {
		return fmt.Errorf("delivery job payload: %w", err)
	}
	e, err := s.Store.FindEventByID(ctx, job.EventID)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil // the integration was unpublished since
	}
	if err != nil {
		return err
	}
	if e.Status != store.EventPending {
		return nil
	}
	in, err := s.Store.FindIntegrationByName(ctx, job.Integration)
	if store.ErrorCode(err) == store.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	if in.DevTunnelURL == nil {
		return s.Store.AppendEventLog(ctx, e.ID, store.EventSuccess, store.IntegrationEventLog{Level: "info",
			Message: "Development mode was turned off before delivery: not delivered."})
	}
	secret, err := s.signingSecret(in.SealedSigningSecret)
	if err != nil {
		return err
	}
	attempt := e.Attempts + 1
	now := s.Store.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, *in.DevTunnelURL, bytes.NewReader(e.Payload))
	var deliveryErr error
	if err != nil {
		deliveryErr = fmt.Errorf("the tunnel URL is not valid: %w", err)
	} else {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(SignatureHeader, "t="+strconv.FormatInt(now.Unix(), 10)+",v1="+Sign(secret, now.Unix(), e.Payload))
		res, err := s.Fetcher.Do(req)
		switch {
		case err != nil:
			deliveryErr = err
		case res.StatusCode < 200 || res.StatusCode > 299:
			deliveryErr = fmt.Errorf("the tunnel answered HTTP %d", res.StatusCode)
		}
	}
	if deliveryErr == nil {
		return s.Store.RecordEventDelivery(ctx, e.ID, store.EventSuccess, store.IntegrationEventLog{Level: "info",
			Message: fmt.Sprintf("Delivered to %s (try %d of %d).", *in.DevTunnelURL, attempt, store.DeliveryAttempts)})
	}
	status, level, next := store.EventPending, "warn", "; will retry"
	if attempt >= store.DeliveryAttempts {
		status, level, next = store.EventFailed, "error", "; giving up"
	}
	if err := s.Store.RecordEventDelivery(ctx, e.ID, status, store.IntegrationEventLog{Level: level,
		Message: fmt.Sprintf("Try %d of %d failed: %v%s.", attempt, store.DeliveryAttempts, deliveryErr, next)}); err != nil {
		return err
	}
	return deliveryErr
}
