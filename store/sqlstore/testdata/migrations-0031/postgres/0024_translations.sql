-- Translations (issue 15): a result space kept in another language from a source space, run as
-- durable jobs. The spaces are not foreign keys: a run whose source space is gone fails and says
-- so, and a result space outlives its translation.
CREATE TABLE translations (
    id                 TEXT PRIMARY KEY,
    organization_id    TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    status             TEXT NOT NULL,
    source_space_id    TEXT NOT NULL,
    source_language    TEXT NOT NULL,
    language           TEXT NOT NULL,
    instructions       TEXT,
    result_space_id    TEXT,
    result_revision_id TEXT,
    created_by         TEXT NOT NULL,
    run_by             TEXT NOT NULL,
    last_error         TEXT NOT NULL DEFAULT '',
    -- A run written and about to be merged: {"changeRequest": id, "run": …} (JSON), so a run
    -- interrupted between its merge and its record is recorded by the next one.
    pending_run        TEXT,
    runs               BIGINT NOT NULL DEFAULT 0,
    total_words        BIGINT NOT NULL DEFAULT 0,
    total_pages        BIGINT NOT NULL DEFAULT 0,
    total_duration_ms  BIGINT NOT NULL DEFAULT 0,
    latest_duration_ms BIGINT NOT NULL DEFAULT 0,
    latest_pages       BIGINT NOT NULL DEFAULT 0,
    latest_words       BIGINT NOT NULL DEFAULT 0,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);
CREATE INDEX translations_org ON translations(organization_id, created_at, id);

-- One row per source page a translation has written: the result page standing for it and the hash
-- of the source content last translated.
CREATE TABLE translation_pages (
    translation_id TEXT NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
    source_page_id TEXT NOT NULL,
    result_page_id TEXT NOT NULL,
    source_hash    TEXT NOT NULL,
    PRIMARY KEY (translation_id, source_page_id)
);
