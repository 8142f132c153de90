package server

import "context"

// PurgeAuditEventsJob is the one recurring job (hourly, one row in the jobs table whatever the
// number of nodes) that deletes audit events older than the retention (`quire serve
// --audit-retention`, 90 days by default).
const PurgeAuditEventsJob = "purge_audit_events"

func (s *Server) purgeAuditEvents(ctx context.Context, _ string) error {
	n, err := s.Store.PurgeAuditEvents(ctx, s.Store.Now().Add(-s.auditRetention))
	if err == nil && n > 0 {
		s.Log.Info("purged audit events past the retention", "count", n, "retention", s.auditRetention)
	}
	return err
}
