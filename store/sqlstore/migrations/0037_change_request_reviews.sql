-- Reviews of change requests (issue 28): the reviewers asked, the reviews given, and what each
-- contributor did.

-- No operation ever wrote a requested reviewer: the table is made again with who asked, against
-- which revision, and when.
DROP TABLE change_request_reviewers;
CREATE TABLE change_request_reviewers (
    change_request_id TEXT COLLATE "C" NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
    user_id           TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    requested_by      TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    revision_id       TEXT COLLATE "C" NOT NULL,
    created_at        TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (change_request_id, user_id)
){{sqlite: WITHOUT ROWID}};
CREATE INDEX change_request_reviewers_user ON change_request_reviewers(user_id);
CREATE INDEX change_request_reviewers_created ON change_request_reviewers(change_request_id, created_at, user_id);

-- A review is made against the change request's revision of the time; it is outdated once the
-- change request moves on, or its reviewer reviews again or is asked again.
CREATE TABLE change_request_reviews (
    id                TEXT COLLATE "C" PRIMARY KEY,
    change_request_id TEXT COLLATE "C" NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
    reviewer          TEXT COLLATE "C" NOT NULL REFERENCES users(id),
    requested_by      TEXT COLLATE "C" REFERENCES users(id),
    status            TEXT COLLATE "C" NOT NULL,  -- approved | changes-requested
    revision_id       TEXT COLLATE "C" NOT NULL,
    comment_id        TEXT COLLATE "C" REFERENCES comments(id) ON DELETE SET NULL,
    created_at        TEXT COLLATE "C" NOT NULL,
    updated_at        TEXT COLLATE "C" NOT NULL
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews(change_request_id, created_at, id);
CREATE INDEX change_request_reviews_reviewer ON change_request_reviews(change_request_id, reviewer, created_at);
CREATE INDEX change_request_reviews_comment ON change_request_reviews(comment_id) WHERE comment_id IS NOT NULL;

-- How many content batches a contributor wrote, and when last (NULL: before quire counted).
ALTER TABLE change_request_contributors ADD COLUMN edits BIGINT NOT NULL DEFAULT 1;
ALTER TABLE change_request_contributors ADD COLUMN updated_at TEXT COLLATE "C";
