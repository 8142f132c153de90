-- Git Sync (issue 29): a space's git repository (its credentials sealed by the server) and its
-- last run; the commit each imported or pushed revision came from or went to, and its pages' files.
CREATE TABLE space_git (
    space_id           TEXT COLLATE "C" PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
    url                TEXT NOT NULL,
    ref                TEXT NOT NULL,
    project_directory  TEXT NOT NULL DEFAULT '',
    provider           TEXT NOT NULL DEFAULT 'github',
    tree_url           TEXT NOT NULL DEFAULT '',
    commit_url         TEXT NOT NULL DEFAULT '',
    sealed_credentials TEXT NOT NULL DEFAULT '',
    last_commit        TEXT NOT NULL DEFAULT '',
    op_state           TEXT,
    op_direction       TEXT,
    op_started_at      TEXT,
    op_ended_at        TEXT,
    op_error           TEXT NOT NULL DEFAULT '',
    request_timestamp  TEXT,
    updated_at         TEXT NOT NULL
);

CREATE TABLE revision_git (
    revision_id        TEXT COLLATE "C" PRIMARY KEY REFERENCES revisions(id) ON DELETE CASCADE,
    oid                TEXT NOT NULL,
    message            TEXT NOT NULL,
    created_by_gitbook INTEGER NOT NULL DEFAULT 0,
    url                TEXT NOT NULL DEFAULT '',
    ref                TEXT NOT NULL DEFAULT ''
);

CREATE TABLE revision_page_git (
    revision_id TEXT COLLATE "C" NOT NULL REFERENCES revisions(id) ON DELETE CASCADE,
    page_id     TEXT COLLATE "C" NOT NULL,
    oid         TEXT NOT NULL,
    path        TEXT NOT NULL,
    PRIMARY KEY (revision_id, page_id)
){{sqlite: WITHOUT ROWID}};
