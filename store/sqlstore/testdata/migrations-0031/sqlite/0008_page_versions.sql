-- Revisions that cost what they change (issue 9): page, file and link rows are no longer copied
-- into every revision. See store/doc.go for the model and its invariants.

-- A line is a sequence of revisions (seq 1, 2, …) that each replace the one before: a space's
-- main content, or a change request's content since its last fork. A line may fork from another
-- line at one of its revisions (parent_id, parent_seq): what it has not touched it reads there.
-- space_id is not a foreign key: a duplicated space forks from its original's line, and that
-- line outlives the original's purge as long as a fork needs it.
CREATE TABLE lines (
    id                INTEGER PRIMARY KEY,
    space_id          TEXT NOT NULL,
    parent_id         INTEGER REFERENCES lines(id),
    parent_seq        INTEGER,
    change_request_id TEXT,               -- the change request that appends to it; NULL: main
    head              INTEGER NOT NULL    -- the seq of its last revision
);
CREATE INDEX lines_space ON lines(space_id);
CREATE INDEX lines_parent ON lines(parent_id);

ALTER TABLE revisions ADD COLUMN line_id INTEGER REFERENCES lines(id);
ALTER TABLE revisions ADD COLUMN seq INTEGER NOT NULL DEFAULT 1;

-- A version of a page, valid in its line for valid_from <= seq < valid_to (4611686018427387904:
-- still valid). A page's versions in one line tile time from the first seq that touched it, so at
-- any seq at most one version of a page is valid in a line. deleted marks a tombstone: the page
-- is gone from the line from valid_from on (it hides the page the parent line still holds).
-- Rows never change but for valid_to, and ids are never reused (AUTOINCREMENT; a sequence in
-- PostgreSQL), so a process may cache what it read of a version by id.
CREATE TABLE page_versions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    line_id     INTEGER NOT NULL REFERENCES lines(id),
    page_id     TEXT NOT NULL,
    valid_from  INTEGER NOT NULL,
    valid_to    INTEGER NOT NULL,
    deleted     INTEGER NOT NULL DEFAULT 0,
    parent_id   TEXT,
    position    REAL NOT NULL,
    title       TEXT NOT NULL,
    slug        TEXT NOT NULL,
    path        TEXT NOT NULL,
    emoji       TEXT,
    description TEXT NOT NULL DEFAULT '',
    hidden      INTEGER NOT NULL DEFAULT 0,
    icon              TEXT,                        -- page metadata of content batches (0007)
    no_index          INTEGER NOT NULL DEFAULT 0,
    no_robots_index   INTEGER NOT NULL DEFAULT 0,
    visitor_condition TEXT,
    body_id     INTEGER NOT NULL REFERENCES page_bodies(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX page_versions_page ON page_versions(line_id, page_id, valid_from);
CREATE INDEX page_versions_valid ON page_versions(line_id, valid_to, valid_from);
CREATE INDEX page_versions_from ON page_versions(line_id, valid_from, page_id);
CREATE INDEX page_versions_parent ON page_versions(line_id, parent_id, valid_to);
CREATE INDEX page_versions_path ON page_versions(line_id, path, valid_to);
CREATE INDEX page_versions_body ON page_versions(body_id);

-- The links a page version holds, extracted when the version is written.
CREATE TABLE page_links (
    version_id INTEGER NOT NULL REFERENCES page_versions(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,  -- page | file | url
    target     TEXT NOT NULL,
    PRIMARY KEY (version_id, kind, target)
);
CREATE INDEX page_links_target ON page_links(kind, target);

-- Files are only ever added: a file row is valid in its line from valid_from on.
CREATE TABLE file_versions (
    line_id      INTEGER NOT NULL REFERENCES lines(id),
    file_id      TEXT NOT NULL,
    valid_from   INTEGER NOT NULL,
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    blob_id      INTEGER NOT NULL REFERENCES blobs(id),
    width        INTEGER,
    height       INTEGER,
    PRIMARY KEY (line_id, file_id)
);
CREATE INDEX file_versions_sha ON file_versions(blob_id, name);

-- Existing revisions keep every page, file and link: each becomes a line of its own holding one
-- revision (seq 1). New revisions fork from them and cost only what they change.
INSERT INTO lines (id, space_id, head) SELECT rowid, space_id, 1 FROM revisions;
UPDATE revisions SET line_id = rowid, seq = 1;
CREATE INDEX revisions_line ON revisions(line_id, seq);

INSERT INTO page_versions (line_id, page_id, valid_from, valid_to, parent_id, position, title, slug, path, emoji,
    description, hidden, icon, no_index, no_robots_index, visitor_condition, body_id, created_at, updated_at)
SELECT r.rowid, p.page_id, 1, 4611686018427387904, p.parent_id, p.position, p.title, p.slug, p.path, p.emoji,
    p.description, p.hidden, p.icon, p.no_index, p.no_robots_index, p.visitor_condition, p.body_id, p.created_at, p.updated_at
FROM revision_pages p JOIN revisions r ON r.id = p.revision_id;

INSERT INTO page_links (version_id, kind, target)
SELECT v.id, l.kind, l.target
FROM revision_links l JOIN revisions r ON r.id = l.revision_id
JOIN page_versions v ON v.line_id = r.rowid AND v.page_id = l.page_id AND v.valid_from = 1;

INSERT INTO file_versions (line_id, file_id, valid_from, name, content_type, blob_id, width, height)
SELECT r.rowid, f.file_id, 1, f.name, f.content_type, f.blob_id, f.width, f.height
FROM revision_files f JOIN revisions r ON r.id = f.revision_id;

DROP TABLE revision_links;
DROP TABLE revision_files;
DROP TABLE revision_pages;
