-- Content: immutable revisions of a space's page tree, and change requests.

CREATE TABLE revisions (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    type              TEXT NOT NULL DEFAULT 'edits',  -- edits | merge | update
    parents           TEXT NOT NULL DEFAULT '[]',     -- JSON array of revision ids
    change_request_id TEXT,                           -- merge revisions: the change request merged
    created_at        TEXT NOT NULL
);
CREATE INDEX revisions_space ON revisions(space_id, created_at);

-- Spaces created before content existed get their (empty) first revision.
INSERT INTO revisions (id, space_id, created_at) SELECT revision_id, id, created_at FROM spaces;

-- A page body, written once and shared by every revision in which the page is unchanged.
CREATE TABLE page_bodies (
    id       INTEGER PRIMARY KEY,
    markdown TEXT NOT NULL
);

-- One row per page per revision: a revision is a full, immutable page tree.
CREATE TABLE revision_pages (
    revision_id TEXT NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
    page_id     TEXT NOT NULL,
    parent_id   TEXT,                 -- page id of the parent page; NULL at the top level
    position    REAL NOT NULL,        -- order among siblings; inserting between two takes the middle
    title       TEXT NOT NULL,
    slug        TEXT NOT NULL,
    path        TEXT NOT NULL,
    emoji       TEXT,
    description TEXT NOT NULL DEFAULT '',
    hidden      INTEGER NOT NULL DEFAULT 0,
    body_id     INTEGER NOT NULL REFERENCES page_bodies(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (revision_id, page_id)
) WITHOUT ROWID;
CREATE INDEX revision_pages_path ON revision_pages(revision_id, path);

CREATE TABLE change_requests (
    id                       TEXT PRIMARY KEY,
    space_id                 TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    number                   INTEGER NOT NULL,
    status                   TEXT NOT NULL DEFAULT 'open',  -- draft | open | archived | merged
    subject                  TEXT NOT NULL DEFAULT '',
    description              TEXT,                          -- JSON document
    created_by               TEXT NOT NULL REFERENCES users(id),
    revision_initial         TEXT NOT NULL,
    revision_id              TEXT NOT NULL,
    revision_merged_ancestor TEXT,
    revision_merged          TEXT,
    comments                 INTEGER NOT NULL DEFAULT 0,
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL,
    UNIQUE (space_id, number)
);
CREATE INDEX change_requests_space ON change_requests(space_id, status, created_at, id);
CREATE INDEX change_requests_creator ON change_requests(created_by);

CREATE TABLE change_request_contributors (
    change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (change_request_id, user_id)
) WITHOUT ROWID;
CREATE INDEX change_request_contributors_user ON change_request_contributors(user_id);

-- Reviewers asked to review a change request (filled by the review operations when they come).
CREATE TABLE change_request_reviewers (
    change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (change_request_id, user_id)
) WITHOUT ROWID;
CREATE INDEX change_request_reviewers_user ON change_request_reviewers(user_id);

ALTER TABLE change_requests ADD COLUMN conversations_issues_cluster TEXT;
CREATE INDEX change_requests_cluster ON change_requests(conversations_issues_cluster)
    WHERE conversations_issues_cluster IS NOT NULL;
