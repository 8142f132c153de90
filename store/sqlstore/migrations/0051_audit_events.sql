-- The audit log (issue 28): one row per write request, inserted by the write's own transaction.
-- Newest first per organization, filtered by action, actor or target (each its own index, the
-- order's keys after it); occurred_at alone for the purge of events past the retention; request_id
-- for finding what a request did.
CREATE TABLE audit_events (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    occurred_at     TEXT COLLATE "C" NOT NULL,
    action          TEXT COLLATE "C" NOT NULL,
    source          TEXT NOT NULL,
    actor_type      TEXT NOT NULL,
    actor_id        TEXT COLLATE "C" NOT NULL,
    actor_label     TEXT NOT NULL,
    target_type     TEXT NOT NULL,
    target_id       TEXT COLLATE "C" NOT NULL,
    target_label    TEXT NOT NULL,
    request_id      TEXT COLLATE "C" NOT NULL,
    payload         TEXT NOT NULL
);
CREATE INDEX audit_events_org ON audit_events(organization_id, occurred_at, id);
CREATE INDEX audit_events_action ON audit_events(organization_id, action, occurred_at, id);
CREATE INDEX audit_events_actor ON audit_events(organization_id, actor_id, occurred_at, id);
CREATE INDEX audit_events_target ON audit_events(organization_id, target_id, occurred_at, id);
CREATE INDEX audit_events_time ON audit_events(occurred_at);
CREATE INDEX audit_events_request ON audit_events(request_id);
