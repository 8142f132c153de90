-- A site's customization (issue 30 item 4) as the JSON document its owner last put, and the
-- overrides of its site spaces: each one document, read over the defaults by the server.
CREATE TABLE site_customizations (
    site_id    TEXT COLLATE "C" PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
    settings   TEXT NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE site_space_customizations (
    site_space_id TEXT COLLATE "C" PRIMARY KEY REFERENCES site_spaces(id) ON DELETE CASCADE,
    site_id       TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    settings      TEXT NOT NULL,
    updated_at    TEXT COLLATE "C" NOT NULL
);
CREATE INDEX site_space_customizations_site ON site_space_customizations (site_id);
