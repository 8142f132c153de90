-- Files of revisions, their bytes, and the links pages hold.

-- File contents, stored once however many revisions and spaces hold them.
CREATE TABLE blobs (
    id     INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,  -- hex; the file's download URL names it
    size   INTEGER NOT NULL,
    data   BLOB NOT NULL
);

CREATE TABLE revision_files (
    revision_id  TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
    file_id      TEXT NOT NULL,
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    blob_id      INTEGER NOT NULL REFERENCES blobs(id),
    width        INTEGER,  -- images only
    height       INTEGER,
    PRIMARY KEY (revision_id, file_id)
) WITHOUT ROWID;

-- The links of a revision's pages, extracted when the revision is written. target is the page
-- or file id a link resolved to, or the URL; a page link that resolved to nothing keeps the link
-- as written (it is broken).
CREATE TABLE revision_links (
    revision_id TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
    page_id     TEXT NOT NULL,  -- the page holding the link
    kind        TEXT NOT NULL,  -- page | file | url
    target      TEXT NOT NULL,
    PRIMARY KEY (revision_id, page_id, kind, target)
) WITHOUT ROWID;
CREATE INDEX revision_links_target ON revision_links(revision_id, kind, target);
