-- What the last DNS check of a site's custom hostname found (issue 30): whether the name points
-- at quire's configured address. A check of a hostname the site no longer has is not its status.
CREATE TABLE site_hostname_checks (
    site_id    TEXT COLLATE "C" PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
    hostname   TEXT COLLATE "C" NOT NULL,
    status     TEXT COLLATE "C" NOT NULL,
    checked_at TEXT COLLATE "C" NOT NULL
);
