-- The schema of SQLite's migrations 0001..0020, as PostgreSQL takes it: integers are BIGINT,
-- counters identity columns, times RFC 3339 UTC text with microseconds (text order is time
-- order), booleans INTEGER 0/1 and JSON text, as in SQLite, so the same SQL reads both. Text
-- compares and sorts byte-wise (COLLATE "C") whatever the database's locale: ids and keyset
-- cursors sort as in SQLite. Later migrations are numbered 0021.. in both folders.

CREATE TABLE settings (
    key   TEXT COLLATE "C" PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE users (
    id             TEXT COLLATE "C" PRIMARY KEY,
    email          TEXT COLLATE "C" NOT NULL,
    display_name   TEXT COLLATE "C" NOT NULL,
    photo_url      TEXT,
    email_verified INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT COLLATE "C" NOT NULL
);
-- Emails are unique whatever their case (SQLite: COLLATE NOCASE).
CREATE UNIQUE INDEX users_email ON users (lower(email));

CREATE TABLE tokens (
    hash         BYTEA PRIMARY KEY,  -- SHA-256 of the bearer token; the token itself is never stored
    user_id      TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   TEXT COLLATE "C" NOT NULL,
    name         TEXT NOT NULL DEFAULT 'default',
    last_used_at TEXT COLLATE "C"
);
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

-- Domains are stored lower-cased.
CREATE TABLE organization_email_domains (
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    domain          TEXT COLLATE "C" NOT NULL,
    position        BIGINT NOT NULL,
    PRIMARY KEY (organization_id, domain)
);
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
    role            TEXT COLLATE "C",  -- NULL: guest
    disabled        INTEGER NOT NULL DEFAULT 0,
    sso             INTEGER NOT NULL DEFAULT 0,
    joined_at       TEXT COLLATE "C" NOT NULL,
    last_seen_at    TEXT COLLATE "C",
    PRIMARY KEY (organization_id, user_id)
);
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
);
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

-- Work that outlives a request: claimed by a runner when run_at has come.
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

-- Content (see store/doc.go and SQLite's 0008 for the model of lines and versions).

CREATE TABLE lines (
    id                BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    space_id          TEXT COLLATE "C" NOT NULL,
    parent_id         BIGINT REFERENCES lines(id),
    parent_seq        BIGINT,
    change_request_id TEXT COLLATE "C",
    head              BIGINT NOT NULL
);
CREATE INDEX lines_space ON lines(space_id);
CREATE INDEX lines_parent ON lines(parent_id);

CREATE TABLE revisions (
    id                TEXT COLLATE "C" PRIMARY KEY,
    space_id          TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    type              TEXT NOT NULL DEFAULT 'edits',  -- edits | merge | update
    parents           TEXT NOT NULL DEFAULT '[]',     -- JSON array of revision ids
    change_request_id TEXT COLLATE "C",
    created_at        TEXT COLLATE "C" NOT NULL,
    line_id           BIGINT REFERENCES lines(id),
    seq               BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX revisions_space ON revisions(space_id, created_at);
CREATE INDEX revisions_line ON revisions(line_id, seq);

-- A page body, written once and shared by every version in which the page is unchanged.
CREATE TABLE page_bodies (
    id       BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    markdown TEXT NOT NULL
);

CREATE TABLE change_requests (
    id                           TEXT COLLATE "C" PRIMARY KEY,
    space_id                     TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    number                       BIGINT NOT NULL,
    status                       TEXT COLLATE "C" NOT NULL DEFAULT 'open',
    subject                      TEXT COLLATE "C" NOT NULL DEFAULT '',
    description                  TEXT,
    created_by                   TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    revision_initial             TEXT COLLATE "C" NOT NULL,
    revision_id                  TEXT COLLATE "C" NOT NULL,
    revision_merged_ancestor     TEXT COLLATE "C",
    revision_merged              TEXT COLLATE "C",
    comments                     BIGINT NOT NULL DEFAULT 0,
    created_at                   TEXT COLLATE "C" NOT NULL,
    updated_at                   TEXT COLLATE "C" NOT NULL,
    conversations_issues_cluster TEXT COLLATE "C",
    UNIQUE (space_id, number)
);
CREATE INDEX change_requests_space ON change_requests(space_id, status, created_at, id);
CREATE INDEX change_requests_creator ON change_requests(created_by);
CREATE INDEX change_requests_cluster ON change_requests(conversations_issues_cluster)
    WHERE conversations_issues_cluster IS NOT NULL;

CREATE TABLE change_request_contributors (
    change_request_id TEXT COLLATE "C" NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
    user_id           TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors(user_id);

CREATE TABLE change_request_reviewers (
    change_request_id TEXT COLLATE "C" NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
    user_id           TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_reviewers_user ON change_request_reviewers(user_id);

-- Full-text search over the pages of each space's current revision, one row per page section.
-- Keys pack where a row comes from as in SQLite (space key << 34 | page key for pages,
-- page << 6 | section index for sections), so a space is one key range.
CREATE TABLE search_spaces (
    key      BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    space_id TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES spaces(id) ON DELETE CASCADE
);

CREATE TABLE search_pages (
    id       BIGINT PRIMARY KEY,
    space_id TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    page_id  TEXT COLLATE "C" NOT NULL,
    title    TEXT NOT NULL,
    path     TEXT NOT NULL,
    body_id  BIGINT NOT NULL,
    UNIQUE (space_id, page_id)
);

CREATE TABLE search_sections (
    id     BIGINT PRIMARY KEY,
    page   BIGINT NOT NULL REFERENCES search_pages(id) ON DELETE CASCADE,
    anchor TEXT NOT NULL,
    title  TEXT NOT NULL,
    body   TEXT NOT NULL
);
CREATE INDEX search_sections_page ON search_sections(page);

-- SQLite's FTS5 tables as tsvector rows (the 'simple' configuration: lower-cased words, no
-- stemming, as FTS5's unicode61; diacritics are removed before indexing). Titles weigh A, bodies
-- B; scope holds o<organization id> as in SQLite. Rows go with their section or page.
CREATE TABLE search_fts (
    id    BIGINT PRIMARY KEY REFERENCES search_sections(id) ON DELETE CASCADE,
    scope TEXT COLLATE "C" NOT NULL,
    tsv   tsvector NOT NULL
);
CREATE INDEX search_fts_tsv ON search_fts USING GIN (tsv);

CREATE TABLE search_titles (
    id    BIGINT PRIMARY KEY REFERENCES search_pages(id) ON DELETE CASCADE,
    scope TEXT COLLATE "C" NOT NULL,
    tsv   tsvector NOT NULL
);
CREATE INDEX search_titles_tsv ON search_titles USING GIN (tsv);

-- File contents, stored once however many revisions and spaces hold them.
CREATE TABLE blobs (
    id     BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    sha256 TEXT COLLATE "C" NOT NULL UNIQUE,
    size   BIGINT NOT NULL,
    data   BYTEA NOT NULL
);

CREATE TABLE comments (
    id                TEXT COLLATE "C" PRIMARY KEY,
    space_id          TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    change_request_id TEXT COLLATE "C" REFERENCES change_requests(id) ON DELETE CASCADE,
    revision_id       TEXT COLLATE "C" NOT NULL,
    page_id           TEXT COLLATE "C",
    node_id           TEXT COLLATE "C",
    table_record      TEXT,
    table_definition  TEXT,
    posted_by         TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    body              TEXT NOT NULL,
    posted_at         TEXT COLLATE "C" NOT NULL,
    edited_at         TEXT COLLATE "C",
    resolved_at       TEXT COLLATE "C",
    resolved_by       TEXT COLLATE "C" REFERENCES users(id),
    replies           BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX comments_thread ON comments(space_id, change_request_id, posted_at, id);
CREATE INDEX comments_page ON comments(space_id, change_request_id, page_id);
CREATE INDEX comments_author ON comments(posted_by);

CREATE TABLE comment_replies (
    id         TEXT COLLATE "C" PRIMARY KEY,
    comment_id TEXT COLLATE "C" NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
    posted_by  TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    body       TEXT NOT NULL,
    posted_at  TEXT COLLATE "C" NOT NULL,
    edited_at  TEXT COLLATE "C"
);
CREATE INDEX comment_replies_comment ON comment_replies(comment_id, posted_at, id);
CREATE INDEX comment_replies_author ON comment_replies(posted_by);

CREATE TABLE comment_reactions (
    comment_id TEXT COLLATE "C" NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
    reply_id   TEXT COLLATE "C" NOT NULL DEFAULT '',
    emoji      TEXT COLLATE "C" NOT NULL,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    reacted_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (comment_id, reply_id, emoji, user_id)
);

CREATE TABLE sites (
    id                         TEXT COLLATE "C" PRIMARY KEY,
    organization_id            TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    type                       TEXT NOT NULL DEFAULT 'basic',
    title                      TEXT COLLATE "C" NOT NULL,
    visibility                 TEXT NOT NULL DEFAULT 'public',
    published                  INTEGER NOT NULL DEFAULT 0,
    hostname                   TEXT COLLATE "C" UNIQUE,
    basename                   TEXT COLLATE "C",
    proxy                      TEXT,
    adaptive_enabled           INTEGER NOT NULL DEFAULT 0,
    agents_context             TEXT NOT NULL DEFAULT 'included',
    adaptive_schema            TEXT,
    adaptive_schema_updated_at TEXT COLLATE "C",
    share_key                  TEXT COLLATE "C" NOT NULL,
    created_at                 TEXT COLLATE "C" NOT NULL,
    updated_at                 TEXT COLLATE "C" NOT NULL
);
CREATE INDEX sites_org ON sites(organization_id, created_at, id);

CREATE TABLE site_section_groups (
    id        TEXT COLLATE "C" PRIMARY KEY,
    site_id   TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    parent_id TEXT COLLATE "C" REFERENCES site_section_groups(id) ON DELETE SET NULL,
    title     TEXT COLLATE "C" NOT NULL,
    icon      TEXT,
    position  DOUBLE PRECISION NOT NULL
);
CREATE INDEX site_section_groups_site ON site_section_groups(site_id, parent_id, position);

CREATE TABLE site_sections (
    id          TEXT COLLATE "C" PRIMARY KEY,
    site_id     TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    group_id    TEXT COLLATE "C" REFERENCES site_section_groups(id) ON DELETE SET NULL,
    title       TEXT COLLATE "C" NOT NULL,
    description TEXT,
    icon        TEXT,
    path        TEXT COLLATE "C" NOT NULL,
    condition   TEXT,
    is_default  INTEGER NOT NULL DEFAULT 0,
    position    DOUBLE PRECISION NOT NULL
);
CREATE INDEX site_sections_site ON site_sections(site_id, group_id, position);

CREATE TABLE site_spaces (
    id         TEXT COLLATE "C" PRIMARY KEY,
    site_id    TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    section_id TEXT COLLATE "C" REFERENCES site_sections(id) ON DELETE CASCADE,
    space_id   TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    path       TEXT COLLATE "C" NOT NULL,
    condition  TEXT,
    is_default INTEGER NOT NULL DEFAULT 0,
    position   DOUBLE PRECISION NOT NULL
);
CREATE INDEX site_spaces_site ON site_spaces(site_id, section_id, position);
CREATE INDEX site_spaces_space ON site_spaces(space_id);

-- A version of a page, valid in its line for valid_from <= seq < valid_to. Ids come from an
-- identity column and are never reused, so a process may cache what it read of a version by id.
CREATE TABLE page_versions (
    id                BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    line_id           BIGINT NOT NULL REFERENCES lines(id),
    page_id           TEXT COLLATE "C" NOT NULL,
    valid_from        BIGINT NOT NULL,
    valid_to          BIGINT NOT NULL,
    deleted           INTEGER NOT NULL DEFAULT 0,
    parent_id         TEXT COLLATE "C",
    position          DOUBLE PRECISION NOT NULL,
    title             TEXT COLLATE "C" NOT NULL,
    slug              TEXT COLLATE "C" NOT NULL,
    path              TEXT COLLATE "C" NOT NULL,
    emoji             TEXT,
    description       TEXT NOT NULL DEFAULT '',
    hidden            INTEGER NOT NULL DEFAULT 0,
    icon              TEXT,
    no_index          INTEGER NOT NULL DEFAULT 0,
    no_robots_index   INTEGER NOT NULL DEFAULT 0,
    visitor_condition TEXT,
    body_id           BIGINT NOT NULL REFERENCES page_bodies(id),
    created_at        TEXT COLLATE "C" NOT NULL,
    updated_at        TEXT COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX page_versions_page ON page_versions(line_id, page_id, valid_from);
CREATE INDEX page_versions_valid ON page_versions(line_id, valid_to, valid_from);
CREATE INDEX page_versions_from ON page_versions(line_id, valid_from, page_id);
CREATE INDEX page_versions_parent ON page_versions(line_id, parent_id, valid_to);
CREATE INDEX page_versions_path ON page_versions(line_id, path, valid_to);
CREATE INDEX page_versions_body ON page_versions(body_id);

CREATE TABLE page_links (
    version_id BIGINT NOT NULL REFERENCES page_versions(id) ON DELETE CASCADE,
    kind       TEXT COLLATE "C" NOT NULL,
    target     TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (version_id, kind, target)
);
CREATE INDEX page_links_target ON page_links(kind, target);

CREATE TABLE file_versions (
    line_id      BIGINT NOT NULL REFERENCES lines(id),
    file_id      TEXT COLLATE "C" NOT NULL,
    valid_from   BIGINT NOT NULL,
    name         TEXT COLLATE "C" NOT NULL,
    content_type TEXT NOT NULL,
    blob_id      BIGINT NOT NULL REFERENCES blobs(id),
    width        BIGINT,
    height       BIGINT,
    PRIMARY KEY (line_id, file_id)
);
CREATE INDEX file_versions_sha ON file_versions(blob_id, name);
