-- Published docs sites: sites publish spaces as site spaces, organised in sections and section
-- groups; adaptive content decides, per visitor, which sections and site spaces show.

CREATE TABLE sites (
    id                         TEXT COLLATE "C" PRIMARY KEY,
    organization_id            TEXT COLLATE "C" NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    type                       TEXT NOT NULL DEFAULT 'basic',
    title                      TEXT COLLATE "C" NOT NULL,
    visibility                 TEXT NOT NULL DEFAULT 'public',
    published                  INTEGER NOT NULL DEFAULT 0,
    hostname                   TEXT COLLATE "C" UNIQUE,
    basename                   TEXT COLLATE "C",
    proxy                      TEXT,
    adaptive_enabled           INTEGER NOT NULL DEFAULT 0,
    agents_context             TEXT NOT NULL DEFAULT 'included',
    adaptive_schema            TEXT,            -- JSON Schema; NULL: the empty schema
    adaptive_schema_updated_at TEXT COLLATE "C",
    share_key                  TEXT COLLATE "C" NOT NULL,   -- the secret of share-link sites
    created_at                 TEXT COLLATE "C" NOT NULL,
    updated_at                 TEXT COLLATE "C" NOT NULL
);
CREATE INDEX sites_org ON sites(organization_id, created_at, id);

-- Groups nest (parent_id); a group's sections and subgroups are ordered by position.
CREATE TABLE site_section_groups (
    id        TEXT COLLATE "C" PRIMARY KEY,
    site_id   TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    parent_id TEXT COLLATE "C" REFERENCES site_section_groups(id) ON DELETE SET NULL,
    title     TEXT COLLATE "C" NOT NULL,
    icon      TEXT,
    position  DOUBLE PRECISION NOT NULL
);
CREATE INDEX site_section_groups_site ON site_section_groups(site_id, parent_id, position);

CREATE TABLE site_sections (
    id          TEXT COLLATE "C" PRIMARY KEY,
    site_id     TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    group_id    TEXT COLLATE "C" REFERENCES site_section_groups(id) ON DELETE SET NULL,
    title       TEXT COLLATE "C" NOT NULL,
    description TEXT,
    icon        TEXT,
    path        TEXT COLLATE "C" NOT NULL,
    condition   TEXT,
    is_default  INTEGER NOT NULL DEFAULT 0,
    position    DOUBLE PRECISION NOT NULL
);
CREATE INDEX site_sections_site ON site_sections(site_id, group_id, position);

-- A site space is in a section, or at the root of a site without sections (section_id NULL).
CREATE TABLE site_spaces (
    id         TEXT COLLATE "C" PRIMARY KEY,
    site_id    TEXT COLLATE "C" NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    section_id TEXT COLLATE "C" REFERENCES site_sections(id) ON DELETE CASCADE,
    space_id   TEXT COLLATE "C" NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    path       TEXT COLLATE "C" NOT NULL,
    condition  TEXT,
    is_default INTEGER NOT NULL DEFAULT 0,
    position   DOUBLE PRECISION NOT NULL
);
CREATE INDEX site_spaces_site ON site_spaces(site_id, section_id, position);
CREATE INDEX site_spaces_space ON site_spaces(space_id);
