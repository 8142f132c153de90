-- Several named tokens per user, each with the time it was last used (kept to within minutes).
-- A token's id is the hex of the first 8 bytes of its hash: nothing new to store.
ALTER TABLE tokens ADD COLUMN name TEXT NOT NULL DEFAULT 'default';
ALTER TABLE tokens ADD COLUMN last_used_at TEXT;
