-- Who merged a change request and when (mergedBy, mergedAt). Change requests merged before have
-- their merge revision's time and no merger.
ALTER TABLE change_requests ADD COLUMN merged_by TEXT COLLATE "C" REFERENCES users(id);
ALTER TABLE change_requests ADD COLUMN merged_at TEXT COLLATE "C";
UPDATE change_requests SET merged_at = (SELECT r.created_at FROM revisions r WHERE r.id = change_requests.revision_merged)
    WHERE status = 'merged' AND revision_merged IS NOT NULL;
