-- SQLite only: PostgreSQL's tsvectors rank by their weights from the start.
-- if sqlite
-- The section index ranks: FTS5 keeps no positions in a contentless table whose detail is not
-- full, so bm25 found no occurrences and scored every section 0 (sections came in key order, and
-- search hits' scores were 0). The index is made again with detail=full from the text
-- search_sections keeps (a section's indexed title is its heading after the page's title, but for
-- a page's first section, whose heading is the page title).
DROP TABLE search_fts;
CREATE VIRTUAL TABLE search_fts USING fts5(title, body, scope, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');
INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0, 0.0)');
INSERT INTO search_fts (rowid, title, body, scope)
    SELECT s.id, CASE WHEN (s.id & 63) = 0 THEN s.title ELSE p.title || ' ' || s.title END, s.body, 'o' || sp.organization_id
    FROM search_sections s JOIN search_pages p ON p.id = s.page JOIN spaces sp ON sp.id = p.space_id;
-- end if
