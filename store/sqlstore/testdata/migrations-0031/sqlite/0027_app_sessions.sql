-- Sessions of the app views. Only the SHA-256 of a session's id (the cookie's value) is kept.
-- A session is bound to the API token it signed in with: revoking the token (deleting its row)
-- or deleting the user deletes the session too. Expired rows are deleted at each sign-in and by the hourly purge.
CREATE TABLE app_sessions (
    hash       BLOB PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash BLOB NOT NULL REFERENCES tokens(hash) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX app_sessions_token ON app_sessions(token_hash);
CREATE INDEX app_sessions_user ON app_sessions(user_id);
CREATE INDEX app_sessions_expiry ON app_sessions(expires_at);
