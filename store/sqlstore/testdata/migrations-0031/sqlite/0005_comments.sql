-- Comments on a space's content or on a change request's, their replies and reactions.

CREATE TABLE comments (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    change_request_id TEXT REFERENCES change_requests(id) ON DELETE CASCADE,  -- NULL: on the space
    revision_id       TEXT NOT NULL,  -- the revision the target was found in
    page_id           TEXT,
    node_id           TEXT,
    table_record      TEXT,
    table_definition  TEXT,
    posted_by         TEXT NOT NULL REFERENCES users(id),
    body              TEXT NOT NULL,  -- markdown
    posted_at         TEXT NOT NULL,
    edited_at         TEXT,
    resolved_at       TEXT,
    resolved_by       TEXT REFERENCES users(id),
    replies           INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX comments_thread ON comments(space_id, change_request_id, posted_at, id);
CREATE INDEX comments_page ON comments(space_id, change_request_id, page_id);
CREATE INDEX comments_author ON comments(posted_by);

CREATE TABLE comment_replies (
    id         TEXT PRIMARY KEY,
    comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
    posted_by  TEXT NOT NULL REFERENCES users(id),
    body       TEXT NOT NULL,
    posted_at  TEXT NOT NULL,
    edited_at  TEXT
);
CREATE INDEX comment_replies_comment ON comment_replies(comment_id, posted_at, id);
CREATE INDEX comment_replies_author ON comment_replies(posted_by);

-- One reaction per user per emoji, on a comment (reply_id '') or on one of its replies.
CREATE TABLE comment_reactions (
    comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
    reply_id   TEXT NOT NULL DEFAULT '',
    emoji      TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users(id),
    reacted_at TEXT NOT NULL,
    PRIMARY KEY (comment_id, reply_id, emoji, user_id)
) WITHOUT ROWID;
