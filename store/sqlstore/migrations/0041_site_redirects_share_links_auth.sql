-- Sites as their owners run them (issue 30). A redirect may exist once live and once as a draft
-- for the same source (a draft is published over the live one), so the table is made again with
-- that key. A share link is a named key that opens a share-link site while it is active, beside
-- the site's own key (sites.share_key). A site's visitor authentication settings carry the key
-- its visitor tokens are signed with; regenerating it refuses tokens signed with the old one.
CREATE TABLE site_redirects_keyed (
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
    UNIQUE (site_id, source, draft)
);
INSERT INTO site_redirects_keyed (id, site_id, source, draft, capture_wildcard, permanent, destination_kind,
    site_section_id, site_space_id, page_id, url, created_at, updated_at)
SELECT id, site_id, source, draft, capture_wildcard, permanent, destination_kind,
    site_section_id, site_space_id, page_id, url, created_at, updated_at FROM site_redirects;
DROP TABLE site_redirects;
ALTER TABLE site_redirects_keyed RENAME TO site_redirects;
CREATE INDEX site_redirects_created ON site_redirects(site_id, draft, created_at, id);

CREATE TABLE site_share_links (
    id         TEXT COLLATE "C" PRIMARY KEY,
    site_id    TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    share_key  TEXT COLLATE "C" NOT NULL UNIQUE,
    name       TEXT NOT NULL DEFAULT '',
    active     INTEGER NOT NULL DEFAULT 1,
    created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX site_share_links_site ON site_share_links(site_id, created_at, id);

CREATE TABLE site_publishing_auth (
    site_id      TEXT COLLATE "C" PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
    backend      TEXT COLLATE "C" NOT NULL DEFAULT 'custom',
    private_key  TEXT COLLATE "C" NOT NULL,
    fallback_url TEXT,
    logout_url   TEXT,
    updated_at   TEXT COLLATE "C" NOT NULL
);
