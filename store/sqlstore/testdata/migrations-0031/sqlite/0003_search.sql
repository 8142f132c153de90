-- Full-text search over the pages of each space's current revision, one row per page section
-- (split at headings). A section's FTS rowid packs where it comes from:
--   space key << 40 | page key << 6 | section index
-- so a space's sections are one rowid range (a search in a space seeks to it), and matches
-- group into pages (rowid >> 6) without leaving the index.

CREATE TABLE search_spaces (
    key      INTEGER PRIMARY KEY,
    space_id TEXT NOT NULL UNIQUE REFERENCES spaces(id) ON DELETE CASCADE
);

CREATE TABLE search_pages (
    id       INTEGER PRIMARY KEY,   -- space key << 34 | page key
    space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
    page_id  TEXT NOT NULL,
    title    TEXT NOT NULL,
    path     TEXT NOT NULL,
    body_id  INTEGER NOT NULL,      -- a page whose body, title and path are unchanged is not re-indexed
    UNIQUE (space_id, page_id)
);

CREATE TABLE search_sections (
    id     INTEGER PRIMARY KEY,     -- search_pages.id << 6 | the section's index
    page   INTEGER NOT NULL REFERENCES search_pages(id) ON DELETE CASCADE,
    anchor TEXT NOT NULL,           -- the heading's anchor; '' for the text before the first heading
    title  TEXT NOT NULL,           -- the heading (the page title for the first section)
    body   TEXT NOT NULL
);
CREATE INDEX search_sections_page ON search_sections(page);

-- scope holds the token o<organization id>, so an organization search is narrowed inside the
-- index; it weighs nothing in the ranking. Titles weigh four times the body.
CREATE VIRTUAL TABLE search_fts USING fts5(title, body, scope, content='', contentless_delete=1, detail=column,
    tokenize='unicode61 remove_diacritics 2');
INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0, 0.0)');

CREATE TRIGGER search_sections_ad AFTER DELETE ON search_sections BEGIN
    DELETE FROM search_fts WHERE rowid = old.id;
END;

-- Page titles on their own, one row per page (rowid = search_pages.id): a title match ranks a
-- page first, and this small index answers it without reading every section of a common word.
CREATE VIRTUAL TABLE search_titles USING fts5(title, scope, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');
INSERT INTO search_titles (search_titles, rank) VALUES ('rank', 'bm25(1.0, 0.0)');

CREATE TRIGGER search_pages_ad AFTER DELETE ON search_pages BEGIN
    DELETE FROM search_titles WHERE rowid = old.id;
END;
