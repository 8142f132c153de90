-- Published sites read by GitBook's renderer (issue 27): a site's redirects (only looked up here;
-- written by the sites issue) and the events visitors leave (read by the sites issue's insights).
-- The key that signs site tokens lives in settings (site_token_key), made on first use.
CREATE TABLE site_redirects (
    id               TEXT COLLATE "C" PRIMARY KEY,
    site_id          TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    source           TEXT COLLATE "C" NOT NULL,
    draft            INTEGER NOT NULL DEFAULT 0,
    capture_wildcard INTEGER NOT NULL DEFAULT 0,
    permanent        INTEGER NOT NULL DEFAULT 0,
    destination_kind TEXT COLLATE "C" NOT NULL,
    site_section_id  TEXT COLLATE "C",
    site_space_id    TEXT COLLATE "C",
    page_id          TEXT COLLATE "C",
    url              TEXT COLLATE "C",
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT COLLATE "C" NOT NULL,
    UNIQUE (site_id, source)
);

CREATE TABLE site_events (
    id          TEXT COLLATE "C" PRIMARY KEY,
    site_id     TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    type        TEXT COLLATE "C" NOT NULL,
    session_id  TEXT COLLATE "C" NOT NULL,
    visitor_id  TEXT COLLATE "C" NOT NULL,
    space_id    TEXT COLLATE "C",
    page_id     TEXT COLLATE "C",
    occurred_at TEXT COLLATE "C" NOT NULL,
    payload     TEXT COLLATE "C" NOT NULL
);
CREATE INDEX site_events_site ON site_events(site_id, occurred_at, id);
CREATE INDEX site_events_type ON site_events(site_id, type, occurred_at, id);
