-- Integrations (issue 13): published integrations, their images, installations on organizations
-- and on spaces or sites, the events of those installations, and installation tokens.
-- The *_idx columns are ",a,b," lists the list filters match with LIKE (portable, no json_each
-- over a column); secrets are sealed by the server (AES-GCM) before they get here.
CREATE TABLE integrations (
    id                      TEXT PRIMARY KEY,
    name                    TEXT NOT NULL UNIQUE,
    organization_id         TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    version                 BIGINT NOT NULL,
    title                   TEXT NOT NULL,
    description             TEXT NOT NULL,
    summary                 TEXT NOT NULL,
    visibility              TEXT NOT NULL,
    target                  TEXT NOT NULL,
    runtime                 TEXT NOT NULL,
    scopes                  TEXT NOT NULL,
    categories              TEXT NOT NULL,
    manifest                TEXT NOT NULL,
    content_security_policy TEXT NOT NULL,
    script                  TEXT NOT NULL,
    has_icon                BIGINT NOT NULL,
    preview_images          BIGINT NOT NULL,
    sealed_secrets          TEXT NOT NULL,
    sealed_signing_secret   TEXT NOT NULL,
    scopes_idx              TEXT NOT NULL,
    categories_idx          TEXT NOT NULL,
    block_domains_idx       TEXT NOT NULL,
    has_blocks              BIGINT NOT NULL,
    has_content_sources     BIGINT NOT NULL,
    dev_tunnel_url          TEXT,
    dev_all                 BIGINT NOT NULL DEFAULT 0,
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL
);
CREATE INDEX integrations_org ON integrations(organization_id);

CREATE TABLE integration_assets (
    integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    content_type   TEXT NOT NULL,
    data           TEXT NOT NULL, -- base64
    PRIMARY KEY (integration_id, name)
);

CREATE TABLE integration_installations (
    id               TEXT PRIMARY KEY,
    integration_id   TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
    organization_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    status           TEXT NOT NULL,
    space_selection  TEXT NOT NULL,
    site_selection   TEXT NOT NULL,
    configuration    TEXT NOT NULL,
    external_ids     TEXT NOT NULL, -- JSON array
    external_ids_idx TEXT NOT NULL, -- the same as a "\n"-delimited list, for the filter
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (integration_id, organization_id)
);
CREATE INDEX integration_installations_list ON integration_installations(integration_id, created_at, id);

CREATE TABLE integration_content_installations (
    installation_id  TEXT NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
    kind             TEXT NOT NULL, -- space or site
    target_id        TEXT NOT NULL,
    status           TEXT NOT NULL,
    configuration    TEXT NOT NULL,
    external_ids     TEXT NOT NULL,
    external_ids_idx TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    PRIMARY KEY (installation_id, kind, target_id)
);
CREATE INDEX integration_content_installations_target ON integration_content_installations(kind, target_id);

CREATE TABLE integration_events (
    id              TEXT PRIMARY KEY,
    integration_id  TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
    installation_id TEXT NOT NULL,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL,
    attempts        BIGINT NOT NULL DEFAULT 0,
    logs            TEXT NOT NULL, -- JSON array of {message, timestamp, level}
    created_at      TEXT NOT NULL
);
CREATE INDEX integration_events_list ON integration_events(integration_id, created_at, id);

CREATE TABLE installation_tokens (
    hash            TEXT PRIMARY KEY, -- hex SHA-256 of the token
    installation_id TEXT NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL
);
CREATE INDEX installation_tokens_installation ON installation_tokens(installation_id);
