-- A page's title in navigation and mentions (linkTitle) and its cover image (JSON: the file or
-- URL, the dark-mode one, the vertical position and the height), set by content batches.
ALTER TABLE page_versions ADD COLUMN link_title TEXT;
ALTER TABLE page_versions ADD COLUMN cover TEXT;
