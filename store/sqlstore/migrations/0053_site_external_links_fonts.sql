-- External links in a site's navigation (issue 30 item 4): they share an order with the sections
-- and section groups of their parent (group_id NULL: the site root).
CREATE TABLE site_external_links (
    id                    TEXT COLLATE "C" PRIMARY KEY,
    site_id               TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    group_id              TEXT COLLATE "C" REFERENCES site_section_groups(id) ON DELETE SET NULL,
    title                 TEXT NOT NULL,
    localized_title       TEXT,
    description           TEXT,
    localized_description TEXT,
    icon                  TEXT,
    url                   TEXT NOT NULL,
    condition             TEXT,
    draft                 INTEGER NOT NULL DEFAULT 0,
    position              DOUBLE PRECISION NOT NULL
);
CREATE INDEX site_external_links_site ON site_external_links(site_id, group_id, position);

-- An organization's custom fonts and their faces: one file per weight, checked to be a font
-- when it was given, kept here and served by the sites that use it.
CREATE TABLE custom_fonts (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organization_id TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    family          TEXT NOT NULL,
    created_at      TEXT COLLATE "C" NOT NULL,
    updated_at      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX custom_fonts_org ON custom_fonts(organization_id, created_at, id);

CREATE TABLE custom_font_faces (
    font_id      TEXT COLLATE "C" NOT NULL REFERENCES custom_fonts(id) ON DELETE CASCADE,
    weight       BIGINT NOT NULL,
    format       TEXT NOT NULL,
    storage_key  TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    data         BYTEA NOT NULL,
    PRIMARY KEY (font_id, weight)
);
