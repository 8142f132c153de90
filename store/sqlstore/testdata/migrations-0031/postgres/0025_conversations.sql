-- Conversations (issue 16): ingested support conversations, the issues their analysis finds, the
-- clusters grouping those issues, and per organization the analysis queue flag and engine state.

CREATE TABLE conversations (
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    source TEXT NOT NULL,
    id TEXT NOT NULL,
    subject TEXT,
    parts TEXT NOT NULL,                  -- JSON array of {type, role, body}
    url TEXT,
    attributes TEXT NOT NULL,             -- JSON object
    metadata_created_at TEXT,
    created_at TEXT NOT NULL,             -- metadata.createdAt, else the first ingestion
    ingested_at TEXT NOT NULL,            -- the last ingestion
    processed_at TEXT,                    -- the last analysis that read it
    revision BIGINT NOT NULL,            -- ingestions so far
    pending BIGINT NOT NULL,             -- 1 while an analysis has not read this revision
    PRIMARY KEY (organization_id, source, id)
);
CREATE INDEX conversations_by_created ON conversations(organization_id, created_at, source, id);
CREATE INDEX conversations_by_source ON conversations(organization_id, source, created_at, id);
CREATE INDEX conversations_by_id ON conversations(organization_id, id, ingested_at);
CREATE INDEX conversations_pending ON conversations(organization_id, pending);

CREATE TABLE conversation_issues (
    organization_id TEXT NOT NULL,
    id TEXT NOT NULL,
    source TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    cluster_id TEXT NOT NULL,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    text TEXT NOT NULL,                   -- what the issue's features are computed from
    created_at TEXT NOT NULL,             -- its conversation's creation time
    ingested_at TEXT NOT NULL,            -- the analysis that found it
    PRIMARY KEY (organization_id, id),
    FOREIGN KEY (organization_id, source, conversation_id)
        REFERENCES conversations(organization_id, source, id) ON DELETE CASCADE
);
CREATE INDEX conversation_issues_by_created ON conversation_issues(organization_id, created_at, id);
CREATE INDEX conversation_issues_by_cluster ON conversation_issues(organization_id, cluster_id, created_at, id);
CREATE INDEX conversation_issues_by_conversation ON conversation_issues(organization_id, conversation_id, source);

CREATE TABLE conversation_clusters (
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    label TEXT NOT NULL,
    icon TEXT NOT NULL,
    summary TEXT NOT NULL,
    sources TEXT NOT NULL,                -- JSON object: issues per source
    issues BIGINT NOT NULL,
    conversations BIGINT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (organization_id, id)
);
CREATE INDEX conversation_clusters_by_updated ON conversation_clusters(organization_id, updated_at, id);
CREATE INDEX conversation_clusters_by_issues ON conversation_clusters(organization_id, issues, id);

CREATE TABLE conversation_analysis (
    organization_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    queued BIGINT NOT NULL,              -- 1: a job is queued and has not started
    queued_at TEXT,                       -- when that job was queued
    version BIGINT NOT NULL,             -- bumped by every saved pass
    next_seq BIGINT NOT NULL,            -- the engine's next cluster number
    analysed_at TEXT
);
