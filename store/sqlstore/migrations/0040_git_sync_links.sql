-- Git Sync links (issue 29 item 4): the space's revision at the last sync (a new commit merges
-- when the space has not moved since), the webhook's secret (sealed by the server), and who set
-- the link up (the author of imported commits whose author is no member).
ALTER TABLE space_git ADD COLUMN synced_revision TEXT NOT NULL DEFAULT '';
ALTER TABLE space_git ADD COLUMN sealed_webhook_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE space_git ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
