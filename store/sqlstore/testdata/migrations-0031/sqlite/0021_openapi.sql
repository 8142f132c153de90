-- OpenAPI specifications (issue 12): one row per slug of an organization, and the versions its
-- processing made. generation moves on with every change of source, so a processing run that
-- read an older source cannot overwrite what a newer one records.
CREATE TABLE openapi_specs (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    slug              TEXT NOT NULL,
    source_url        TEXT,
    source_text       TEXT,
    visibility        TEXT NOT NULL DEFAULT 'private',
    processing_state  TEXT NOT NULL DEFAULT 'pending',
    generation        INTEGER NOT NULL DEFAULT 1,
    last_version_id   TEXT,
    last_processed_at TEXT,
    last_error_code   TEXT,
    last_errors       TEXT NOT NULL DEFAULT '[]',
    last_error_count  INTEGER NOT NULL DEFAULT 0,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    UNIQUE (organization_id, slug)
);
CREATE INDEX openapi_specs_refresh ON openapi_specs(last_processed_at) WHERE source_url IS NOT NULL;

CREATE TABLE openapi_spec_versions (
    id         TEXT PRIMARY KEY,
    spec_id    TEXT NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    filename   TEXT NOT NULL,
    format     TEXT NOT NULL,
    document   TEXT NOT NULL,
    filesystem TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX openapi_spec_versions_by_spec ON openapi_spec_versions(spec_id, created_at, id);
