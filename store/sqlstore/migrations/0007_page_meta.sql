-- Page metadata a content batch sets (RevisionPageUpdate): an icon, search and robots indexing,
-- and a visitor condition (adaptive content). NULL icon/condition: none.

ALTER TABLE revision_pages ADD COLUMN icon TEXT;
ALTER TABLE revision_pages ADD COLUMN no_index INTEGER NOT NULL DEFAULT 0;
ALTER TABLE revision_pages ADD COLUMN no_robots_index INTEGER NOT NULL DEFAULT 0;
ALTER TABLE revision_pages ADD COLUMN visitor_condition TEXT;
