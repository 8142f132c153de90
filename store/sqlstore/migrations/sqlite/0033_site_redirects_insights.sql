-- Published sites read by GitBook's renderer (issue 27): a site's redirects (only looked up here;
-- written by the sites issue) and the events visitors leave (read by the sites issue's insights).
-- The key that signs site tokens lives in settings (site_token_key), made on first use.
CREATE TABLE site_redirects (
    id               TEXT PRIMARY KEY,
    site_id          TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    source           TEXT NOT NULL,
    draft            INTEGER NOT NULL DEFAULT 0,
    capture_wildcard INTEGER NOT NULL DEFAULT 0,
    permanent        INTEGER NOT NULL DEFAULT 0,
    destination_kind TEXT NOT NULL,
    site_section_id  TEXT,
    site_space_id    TEXT,
    page_id          TEXT,
    url              TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (site_id, source)
);

CREATE TABLE site_events (
    id          TEXT PRIMARY KEY,
    site_id     TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    type        TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    visitor_id  TEXT NOT NULL,
    space_id    TEXT,
    page_id     TEXT,
    occurred_at TEXT NOT NULL,
    payload     TEXT NOT NULL
);
CREATE INDEX site_events_site ON site_events(site_id, occurred_at, id);
CREATE INDEX site_events_type ON site_events(site_id, type, occurred_at, id);
