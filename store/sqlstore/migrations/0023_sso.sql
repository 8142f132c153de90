-- SAML providers of organizations (issue 14) and the assertion ids their logins consumed.
CREATE TABLE saml_providers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    label           TEXT NOT NULL,
    entity_id       TEXT NOT NULL,
    certificate     TEXT NOT NULL,
    sso_url         TEXT NOT NULL,
    default_team_id TEXT REFERENCES teams(id) ON DELETE SET NULL,
    default_role    TEXT,          -- NULL: guest
    created_at      TEXT NOT NULL
);
CREATE INDEX saml_providers_org ON saml_providers(organization_id, created_at, id);

-- Each accepted assertion id, kept until the assertion could no longer be accepted anyway, so a
-- captured Response cannot log in twice, whichever node it is posted to.
CREATE TABLE saml_assertions (
    provider_id  TEXT NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,
    assertion_id TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    PRIMARY KEY (provider_id, assertion_id)
);
CREATE INDEX saml_assertions_expiry ON saml_assertions(expires_at);
