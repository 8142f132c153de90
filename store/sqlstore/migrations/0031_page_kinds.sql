-- Page kinds (issue 25): besides document pages, a group (a top-level heading over its pages, no
-- content of its own) and a link (a sidebar entry that opens its target). A link's target is a
-- URL (target_kind 'url', target the URL), a page (target the page id, target_space its space
-- when another one) or a space (target the space id). Existing pages are documents.
ALTER TABLE page_versions ADD COLUMN page_type TEXT NOT NULL DEFAULT 'document';
ALTER TABLE page_versions ADD COLUMN target_kind TEXT;
ALTER TABLE page_versions ADD COLUMN target TEXT;
ALTER TABLE page_versions ADD COLUMN target_space TEXT;
