-- Accounts, organizations, members, teams, collections, spaces, jobs.
-- Times are RFC 3339 UTC text with microseconds, so text order is time order.

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name   TEXT NOT NULL,
    photo_url      TEXT,
    email_verified INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT NOT NULL
);

CREATE TABLE tokens (
    hash       BLOB PRIMARY KEY,  -- SHA-256 of the bearer token; the token itself is never stored
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE organizations (
    id                      TEXT PRIMARY KEY,
    title                   TEXT NOT NULL,
    hostname                TEXT UNIQUE,
    type                    TEXT NOT NULL DEFAULT 'business',
    default_role            TEXT DEFAULT 'read',
    default_content_site    TEXT,
    logo                    TEXT,
    sso                     INTEGER NOT NULL DEFAULT 0,
    ai                      INTEGER NOT NULL DEFAULT 0,
    invite_links            INTEGER NOT NULL DEFAULT 1,
    merge_rules             TEXT NOT NULL DEFAULT '{"type":"none"}',
    instructions            TEXT,
    instructions_updated_at TEXT,
    instructions_updated_by TEXT,
    created_at              TEXT NOT NULL
);
CREATE INDEX organizations_created ON organizations(created_at, id);

CREATE TABLE organization_email_domains (
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    domain          TEXT NOT NULL COLLATE NOCASE,
    position        INTEGER NOT NULL,
    PRIMARY KEY (organization_id, domain)
) WITHOUT ROWID;
CREATE INDEX organization_email_domains_domain ON organization_email_domains(domain);

CREATE TABLE organization_invites (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    role            TEXT,
    created_at      TEXT NOT NULL
);
CREATE INDEX organization_invites_org ON organization_invites(organization_id);

CREATE TABLE members (
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role            TEXT,          -- NULL: guest
    disabled        INTEGER NOT NULL DEFAULT 0,
    sso             INTEGER NOT NULL DEFAULT 0,
    joined_at       TEXT NOT NULL,
    last_seen_at    TEXT,
    PRIMARY KEY (organization_id, user_id)
) WITHOUT ROWID;
CREATE INDEX members_user ON members(user_id);
CREATE INDEX members_joined ON members(organization_id, joined_at, user_id);
CREATE INDEX members_seen ON members(organization_id, last_seen_at, user_id) WHERE last_seen_at IS NOT NULL;
CREATE INDEX members_role ON members(organization_id, role);

CREATE TABLE teams (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    title           TEXT NOT NULL,
    created_at      TEXT NOT NULL
);
CREATE INDEX teams_org ON teams(organization_id, created_at, id);

CREATE TABLE team_members (
    team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role    TEXT NOT NULL DEFAULT 'member',  -- owner | member
    PRIMARY KEY (team_id, user_id)
) WITHOUT ROWID;
CREATE INDEX team_members_user ON team_members(user_id, team_id);

CREATE TABLE collections (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES collections(id) ON DELETE CASCADE,
    title           TEXT NOT NULL,
    description     TEXT,
    default_level   TEXT DEFAULT 'inherit',
    position        INTEGER NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);
CREATE INDEX collections_org ON collections(organization_id, created_at, id);
CREATE INDEX collections_parent ON collections(parent_id, position);

CREATE TABLE spaces (
    id                    TEXT PRIMARY KEY,
    organization_id       TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    parent_id             TEXT REFERENCES collections(id) ON DELETE SET NULL,
    title                 TEXT NOT NULL,
    emoji                 TEXT NOT NULL DEFAULT '',
    visibility            TEXT NOT NULL DEFAULT 'private',
    edit_mode             TEXT NOT NULL DEFAULT 'live',
    default_level         TEXT DEFAULT 'inherit',
    language              TEXT,
    merge_rules           TEXT NOT NULL DEFAULT '{"type":"inherit"}',
    revision_id           TEXT NOT NULL,
    position              INTEGER NOT NULL,
    comments              INTEGER NOT NULL DEFAULT 0,
    change_requests       INTEGER NOT NULL DEFAULT 0,
    change_requests_open  INTEGER NOT NULL DEFAULT 0,
    change_requests_draft INTEGER NOT NULL DEFAULT 0,
    created_by            TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    deleted_at            TEXT
);
CREATE INDEX spaces_org ON spaces(organization_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX spaces_parent ON spaces(parent_id, position, id) WHERE deleted_at IS NULL;
CREATE INDEX spaces_deleted ON spaces(deleted_at) WHERE deleted_at IS NOT NULL;

-- Work that outlives a request: claimed by the runner when run_at has come.
CREATE TABLE jobs (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL DEFAULT '{}',
    state      TEXT NOT NULL DEFAULT 'pending',  -- pending | done | failed
    run_at     TEXT NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX jobs_due ON jobs(state, run_at);
