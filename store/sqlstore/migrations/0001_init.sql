-- Accounts, organizations, members, teams, collections, spaces, jobs.
-- Times are RFC 3339 UTC text with microseconds, so text order is time order.

CREATE TABLE settings (
    key   TEXT COLLATE "C" PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE users (
    id             TEXT COLLATE "C" PRIMARY KEY,
    email          TEXT COLLATE "C" NOT NULL{{sqlite: UNIQUE COLLATE NOCASE}},
    display_name   TEXT COLLATE "C" NOT NULL,
    photo_url      TEXT,
    email_verified INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT COLLATE "C" NOT NULL
);
-- if postgres
-- Emails are unique whatever their case (SQLite: UNIQUE COLLATE NOCASE).
CREATE UNIQUE INDEX users_email ON users (lower(email));
-- end if

CREATE TABLE tokens (
    hash       BYTEA PRIMARY KEY,  -- SHA-256 of the bearer token; the token itself is never stored
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT COLLATE "C" NOT NULL
){{sqlite: WITHOUT ROWID}};
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE organizations (
    id                      TEXT COLLATE "C" PRIMARY KEY,
    title                   TEXT COLLATE "C" NOT NULL,
    hostname                TEXT COLLATE "C" UNIQUE,
    type                    TEXT NOT NULL DEFAULT 'business',
    default_role            TEXT DEFAULT 'read',
    default_content_site    TEXT COLLATE "C",
    logo                    TEXT,
    sso                     INTEGER NOT NULL DEFAULT 0,
    ai                      INTEGER NOT NULL DEFAULT 0,
    invite_links            INTEGER NOT NULL DEFAULT 1,
    merge_rules             TEXT NOT NULL DEFAULT '{"type":"none"}',
    instructions            TEXT,
    instructions_updated_at TEXT COLLATE "C",
    instructions_updated_by TEXT COLLATE "C",
    created_at              TEXT COLLATE "C" NOT NULL
);
CREATE INDEX organizations_created ON organizations(created_at, id);

-- Domains compare whatever their case: SQLite says it in the column, PostgreSQL stores them
-- lower-cased.
CREATE TABLE organization_email_domains (
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    domain          TEXT COLLATE "C" NOT NULL{{sqlite: COLLATE NOCASE}},
    position        BIGINT NOT NULL,
    PRIMARY KEY (organization_id, domain)
){{sqlite: WITHOUT ROWID}};
CREATE INDEX organization_email_domains_domain ON organization_email_domains(domain);

CREATE TABLE organization_invites (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    role            TEXT,
    created_at      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX organization_invites_org ON organization_invites(organization_id);

CREATE TABLE members (
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id         TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role            TEXT COLLATE "C",          -- NULL: guest
    disabled        INTEGER NOT NULL DEFAULT 0,
    sso             INTEGER NOT NULL DEFAULT 0,
    joined_at       TEXT COLLATE "C" NOT NULL,
    last_seen_at    TEXT COLLATE "C",
    PRIMARY KEY (organization_id, user_id)
){{sqlite: WITHOUT ROWID}};
CREATE INDEX members_user ON members(user_id);
CREATE INDEX members_joined ON members(organization_id, joined_at, user_id);
CREATE INDEX members_seen ON members(organization_id, last_seen_at, user_id) WHERE last_seen_at IS NOT NULL;
CREATE INDEX members_role ON members(organization_id, role);

CREATE TABLE teams (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    title           TEXT COLLATE "C" NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX teams_org ON teams(organization_id, created_at, id);

CREATE TABLE team_members (
    team_id TEXT COLLATE "C" NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role    TEXT NOT NULL DEFAULT 'member',  -- owner | member
    PRIMARY KEY (team_id, user_id)
){{sqlite: WITHOUT ROWID}};
CREATE INDEX team_members_user ON team_members(user_id, team_id);

CREATE TABLE collections (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    parent_id       TEXT COLLATE "C" REFERENCES collections(id) ON DELETE CASCADE,
    title           TEXT COLLATE "C" NOT NULL,
    description     TEXT,
    default_level   TEXT DEFAULT 'inherit',
    position        BIGINT NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL,
    updated_at      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX collections_org ON collections(organization_id, created_at, id);
CREATE INDEX collections_parent ON collections(parent_id, position);

CREATE TABLE spaces (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    organization_id       TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    parent_id             TEXT COLLATE "C" REFERENCES collections(id) ON DELETE SET NULL,
    title                 TEXT COLLATE "C" NOT NULL,
    emoji                 TEXT NOT NULL DEFAULT '',
    visibility            TEXT NOT NULL DEFAULT 'private',
    edit_mode             TEXT NOT NULL DEFAULT 'live',
    default_level         TEXT DEFAULT 'inherit',
    language              TEXT,
    merge_rules           TEXT NOT NULL DEFAULT '{"type":"inherit"}',
    revision_id           TEXT COLLATE "C" NOT NULL,
    position              BIGINT NOT NULL,
    comments              BIGINT NOT NULL DEFAULT 0,
    change_requests       BIGINT NOT NULL DEFAULT 0,
    change_requests_open  BIGINT NOT NULL DEFAULT 0,
    change_requests_draft BIGINT NOT NULL DEFAULT 0,
    created_by            TEXT COLLATE "C",
    created_at            TEXT COLLATE "C" NOT NULL,
    updated_at            TEXT COLLATE "C" NOT NULL,
    deleted_at            TEXT COLLATE "C"
);
CREATE INDEX spaces_org ON spaces(organization_id, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX spaces_parent ON spaces(parent_id, position, id) WHERE deleted_at IS NULL;
CREATE INDEX spaces_deleted ON spaces(deleted_at) WHERE deleted_at IS NOT NULL;

-- Work that outlives a request: claimed by the runner when run_at has come.
CREATE TABLE jobs (
    id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    kind       TEXT COLLATE "C" NOT NULL,
    payload    TEXT NOT NULL DEFAULT '{}',
    state      TEXT COLLATE "C" NOT NULL DEFAULT 'pending',  -- pending | done | failed
    run_at     TEXT COLLATE "C" NOT NULL,
    attempts   BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX jobs_due ON jobs(state, run_at);
