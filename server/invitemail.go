package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/quire-docs/quire/internal/mail"
)

// Invitation email goes out from a durable job, not from the request: an SMTP server that is
// down or refuses for a while delays the message instead of losing it. The job is retried with
// the runner's backoff (30 s, 1 min, 2 min…) up to invitationEmailAttempts tries; after the last
// it is marked failed with the SMTP server's answer as its error (and logged).

// InvitationEmailJob sends one email of an invitation (or of a user added at once).
const InvitationEmailJob = "send_invitation_email"

// invitationEmailAttempts bounds the tries of one email: about half an hour of retries.
const invitationEmailAttempts = 7

// queueMail schedules a message for sending and tells whether it will be sent: not without an
// SMTP server.
func (s *Server) queueMail(ctx context.Context, m mail.Message) (bool, error) {
	if s.Mailer == nil {
		return false, nil
	}
	payload, err := json.Marshal(m)
	if err != nil {
		return false, err
	}
	if err := s.Store.EnqueueJob(ctx, InvitationEmailJob, string(payload), s.Store.Now()); err != nil {
		return false, err
	}
	return true, nil
}

// sendQueuedMail is the job: one try at sending one message.
func (s *Server) sendQueuedMail(ctx context.Context, payload string) error {
	var m mail.Message
	if err := json.Unmarshal([]byte(payload), &m); err != nil {
		return fmt.Errorf("invitation email job payload: %w", err)
	}
	if s.Mailer == nil {
		return fmt.Errorf("the email to %s cannot be sent: quire runs without --smtp-url now", m.To)
	}
	if err := s.Mailer.Send(ctx, m); err != nil {
		return fmt.Errorf("sending the email to %s: %w", m.To, err)
	}
	return nil
}
