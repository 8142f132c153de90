-- Rate limits shared by all nodes (issue 31): each node adds the requests it counted for a bucket
-- (a token's hash, or a client address's) to the bucket's row for the current one-minute window,
-- at most once a second, and reads back the total every node has counted. Windows past are
-- deleted as new ones begin.
CREATE TABLE rate_limit_windows (
    bucket       TEXT COLLATE "C" NOT NULL,
    window_start BIGINT NOT NULL,
    used         BIGINT NOT NULL,
    PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limit_windows_start ON rate_limit_windows (window_start);
