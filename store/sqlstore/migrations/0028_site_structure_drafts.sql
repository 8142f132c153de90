-- What 0.202.0's clients set on a site's structure: drafts (not published until made live),
-- hidden site spaces (published, out of the navigation), a site space's own home page and
-- title, titles and descriptions in other languages (JSON objects by language), and the role
-- every member has at least on a site (NULL: none; 'inherit': the organization's).
ALTER TABLE sites ADD COLUMN default_level TEXT DEFAULT 'inherit';
ALTER TABLE site_section_groups ADD COLUMN draft INTEGER NOT NULL DEFAULT 0;
ALTER TABLE site_section_groups ADD COLUMN localized_title TEXT;
ALTER TABLE site_sections ADD COLUMN draft INTEGER NOT NULL DEFAULT 0;
ALTER TABLE site_sections ADD COLUMN localized_title TEXT;
ALTER TABLE site_sections ADD COLUMN localized_description TEXT;
ALTER TABLE site_spaces ADD COLUMN draft INTEGER NOT NULL DEFAULT 0;
ALTER TABLE site_spaces ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
ALTER TABLE site_spaces ADD COLUMN page_id TEXT COLLATE "C";
ALTER TABLE site_spaces ADD COLUMN title TEXT;
