-- Import runs (issue 29 item 2): a website or uploaded files imported into a space by a durable
-- job, with its status, its pages and why it failed; the files uploaded for them through signed URLs.
CREATE TABLE import_runs (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    space_id        TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    change_request  TEXT NOT NULL DEFAULT '',
    page_id         TEXT NOT NULL DEFAULT '',
    site_id         TEXT NOT NULL DEFAULT '',
    source          TEXT NOT NULL,
    url             TEXT NOT NULL DEFAULT '',
    files           TEXT NOT NULL DEFAULT '[]',
    enhance         INTEGER NOT NULL DEFAULT 0,
    status          TEXT NOT NULL,
    reason          TEXT NOT NULL DEFAULT '',
    pages           TEXT NOT NULL DEFAULT '[]',
    created_by      TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    started_at      TEXT,
    completed_at    TEXT
);
CREATE INDEX import_runs_by_org ON import_runs (organization_id, created_at, id);

CREATE TABLE storage_uploads (
    key             TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    name            TEXT NOT NULL,
    content_type    TEXT NOT NULL,
    size            BIGINT NOT NULL,
    created_by      TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    data            BYTEA
);
